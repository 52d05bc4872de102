"""Near misses read from the program's output for the keys a check reads.

The check reads key ``k``; three things can be near and not quite:

- **renamed key**: ``k`` is not printed, and the program printed another key instead
  (``checks mults, output has steps=15``): paired by structure
  (:mod:`reviewer.analysis.evidence.structure`) or holding exactly the value the check expected;
- **shape**: ``k`` is printed with a value of the wrong kind (``edges=5``, a count, where the
  check splits a list on ``,``), often with the right kind of value under another key;
- **separator**: ``k`` holds a list joined by another separator than the one the check splits
  on (``path=P,Q,R`` where the check splits on whitespace).

What kind of value the check reads comes from how the grader's source uses the key (``int(...)``
on it, ``.split(",")`` on it). All scans are bounded per line and per file.
"""

from __future__ import annotations

import re

from reviewer.analysis.reading.nearmiss import NearMiss
from reviewer.analysis.reading.notation import is_number, strip_quotes
from reviewer.analysis.reading.output import Printed
from reviewer.model.records import record

SPLIT = re.compile(r"""\.(?:r?split|Split|SplitN)\(\s{0,8}(?:[^,()\n]{0,80},\s{0,8})?(?P<sep>"[^"\n]{0,8}"|'[^'\n]{0,8}'|\)|None)""")
GO_FIELDS = re.compile(r"strings\.Fields\(")
NUMBER_USE = re.compile(r"\b(?:int|float|Atoi|ParseInt|ParseFloat|Number)\(")
LIST_SEPARATORS = (",", ";", "->", "=>", "→", "|", " ", "-", "/")
MAX_LINES = 20_000
NAMES = {" ": "whitespace", ",": "','", ";": "';'", "->": "'->'", "-": "'-'", "|": "'|'", "/": "'/'"}


@record
class KeyUse:
    """How a grader's source uses the value under a key.

    Attributes:
        number: it is turned into a number.
        split: the separator it is split on (" " for whitespace), "" when not split.
        item_split: the separator each item is split on again (``-`` in ``A-B,C-D``), "".
        items_number: each item of the split list is turned into a number.
    """

    number: bool = False
    split: str = ""
    item_split: str = ""
    items_number: bool = False

    def describe(self) -> str:
        """``a number``, ``a list split on ','``, ``a list of numbers split on whitespace``..."""
        if self.number:
            return "a number"
        if self.split:
            inner = f" of {NAMES.get(self.item_split, repr(self.item_split))}-joined items" if self.item_split else ""
            what = "a list of numbers" if self.items_number else "a list"
            return f"{what} split on {NAMES.get(self.split, repr(self.split))}{inner}"
        return "a value"

    @property
    def known(self) -> bool:
        """True when the source says what kind of value it reads."""
        return self.number or bool(self.split)

    def fits(self, value: str) -> bool:
        """True when a printed value is of this kind."""
        v = strip_quotes(value).strip()
        if not v:
            return False
        if self.number:
            return is_number(v)
        if self.split:
            items = v.split() if self.split == " " else [x for x in v.split(self.split) if x]
            if self.items_number:  # a list of one number is still a list of numbers
                return bool(items) and all(is_number(x.strip()) for x in items)
            if len(items) < 2 and not (self.item_split and self.item_split in v):
                return False
            return not self.item_split or all(self.item_split in x for x in items)
        return True


def separator_of(token: str) -> str:
    """The separator a ``.split(...)`` argument names (" " for none)."""
    if token in (")", "None"):
        return " "
    return token[1:-1] if len(token) >= 2 else " "


def key_use(sources: list[str], key: str) -> KeyUse:
    """How the grader's sources use the value under ``key`` (read from the lines that name it
    in a string literal: ``fields["mults"]``, ``.get("edges")``, ``"path="``)."""
    marks = [f'"{key}"', f"'{key}'", f'"{key}=', f"'{key}="]
    for text in sources:
        for n, line in enumerate(text.splitlines()):
            if n >= MAX_LINES:
                break
            at = min((i for i in (line.find(m) for m in marks) if i >= 0), default=-1)
            if at < 0:
                continue
            after = [separator_of(m.group("sep")) for m in SPLIT.finditer(line, at)]
            before = [separator_of(m.group("sep")) for m in SPLIT.finditer(line[:at])]
            if GO_FIELDS.search(line):
                after.append(" ")
            if after:  # split: a list, whatever its items become (``[int(x) for x in f["k"].split()]``)
                return KeyUse(split=after[0], item_split=(before or after[1:] or [""])[0],
                              items_number=bool(NUMBER_USE.search(line[:at])) and not before)
            if NUMBER_USE.search(line[:at]):
                return KeyUse(number=True)
    return KeyUse()


PUNCTUATION_ITEM = re.compile(r"^[A-Za-z0-9_]+$")


def list_separator(value: str, wanted: str) -> str:
    """The separator a printed list uses instead of ``wanted`` ("" when none gives 2 items): one of
    the usual ones, else any one punctuation character between word or number items (``2*2*3``)."""
    v = strip_quotes(value).strip()
    for ch in dict.fromkeys(c for c in v if not c.isalnum() and not c.isspace() and c not in "._"):
        if ch != wanted and ch not in LIST_SEPARATORS:
            items = v.split(ch)
            if len(items) >= 2 and all(PUNCTUATION_ITEM.match(x.strip()) for x in items):
                return ch
    for sep in LIST_SEPARATORS:
        if sep != wanted and len([x for x in (v.split() if sep == " " else v.split(sep)) if x]) >= 2:
            return sep
    return ""


def key_near_misses(
    check: str,
    key: str,
    use: KeyUse,
    printed: list[Printed],
    partner: str,
    expected: str = "",
    lines: list[str] | None = None,
    elsewhere: list[Printed] | None = None,
) -> list[NearMiss]:
    """Near misses of one key the check reads, from what the program printed.

    ``partner``: the key the program printed instead (paired by structure, or holding exactly the
    value the check expected), "" when there is none; ``expected``: the value the check expected
    under the key when the failure text shows it ("" otherwise); ``lines``: the rest of each
    output line starting with ``key=`` (a list printed with spaces); ``elsewhere``: what the program
    printed in its other runs (where the partner's value is looked up when this run lacks it)."""
    values = (lines if use.split == " " and lines else None) or [p.value for p in printed if p.key == key]
    out: list[NearMiss] = []
    if values and use.known and not any(use.fits(v) for v in values) and any(strip_quotes(v).strip() for v in values):
        shown = values[0]
        bracketed = shown.strip()[:1] in "[(" and shown.strip()[-1:] in "])"
        sep = list_separator(shown, use.split) if use.split and not bracketed else ""
        if sep and use.split and not use.item_split:
            line = f"{key}={shown}: joined by {NAMES.get(sep, repr(sep))}, the check splits on {NAMES.get(use.split, repr(use.split))}"
            out.append(NearMiss(use.split, sep, ("separator",), line, "separator", check, key, use.split, key, sep))
            return out
        line = f"{key}={shown} is not {use.describe()}, which the check reads"
        out.append(NearMiss(use.describe(), shown, ("shape",), line, "shape", check, key, use.describe(), key, shown))
    if (values and not out) or not partner:
        return out
    found = next((p for p in [*printed, *(elsewhere or [])] if p.key == partner), None)
    if found is None:
        return out
    notes = [f"key renamed: {found.key} for {key}"]
    if values:  # the program printed the key too, with a value of another kind
        notes.append(f"{key} printed as another kind")
    rejoin: tuple[str, ...] = ()
    sep = list_separator(found.value, use.split) if use.split and not use.fits(found.value) else ""
    if sep:
        notes.append("separator")
        rejoin = (sep, use.split)
    shown = found.value if len(found.value) <= 40 else found.value[:20] + "..." + found.value[-8:]
    line = f"checks {key}, output has {found.key}={shown}"
    out.append(NearMiss(f"{key}=", f"{found.key}={found.value}", tuple(notes), line, "renamed-key", check, key,
                        strip_quotes(expected), found.key, found.value, rejoin=rejoin))
    return out


def holding(printed: list[Printed], expected: str, taken: set[str]) -> str:
    """The one printed key (outside ``taken``) whose value is exactly the value the check
    expected (its two ends, when the grader cut it short); "" when none or several."""
    if not expected:
        return ""

    def same(value: str) -> bool:
        if "..." in expected:
            head, _, tail = expected.partition("...")
            tail = tail.rstrip("'\"")
            return len(head) >= 8 and value.startswith(head) and value.endswith(tail)
        return strip_quotes(value) == strip_quotes(expected)

    keys = {p.key for p in printed if p.key not in taken and same(p.value)}
    return next(iter(keys)) if len(keys) == 1 else ""
