"""Does the brief state it? Look a demanded value up in the brief, verbatim or in a near form.

*Verbatim*: the exact text as a whole word (case kept). *Near*: the same words once case,
``_``/``-``/camelCase, punctuation, whitespace and singular/plural are ignored; for a separator,
its name (``comma``, ``space``...) or an example in a code span (``A-B``). The line where it is
stated (1-based) is kept so the UI can point at it.
"""

from __future__ import annotations

import enum
import re
from functools import lru_cache

from reviewer.analysis.reading.notation import words
from reviewer.model.records import record

MAX_BRIEF = 400_000


class Stated(str, enum.Enum):
    """Whether the brief states a demand."""

    VERBATIM = "verbatim"
    NEAR = "near"
    UNSTATED = "unstated"


SEPARATOR_NAMES: dict[str, tuple[str, ...]] = {
    ",": ("comma",),
    ";": ("semicolon", "semi-colon"),
    " ": ("space", "whitespace", "blank"),
    "-": ("dash", "hyphen", "minus"),
    "->": ("arrow",),
    "=>": ("arrow",),
    "\t": ("tab",),
    "|": ("pipe", "vertical bar"),
    ":": ("colon",),
    "=": ("equals sign", "equal sign", "equals"),
    "/": ("slash",),
    "\n": ("newline", "one per line", "per line", "own line", "on a line", "lines"),
}
ROUNDING = re.compile(r"\b(?:round\w*|decimal places?|decimals|places after|precision|significant (?:digits|figures)|digits after)\b", re.IGNORECASE)
EMPTY = re.compile(r"(?:\"\"|''|\bempty (?:string|text|result|output|value|line)\b)", re.IGNORECASE)
CODE_SPAN = re.compile(r"`([^`\n]{1,200})`")
OUTPUT_START = re.compile(r"^\s{0,8}(?:#{1,6}\s{0,4})?(?:\*\*)?(?:output|the program (?:prints|writes)|print)\b", re.IGNORECASE)
OUTPUT_END = re.compile(r"^\s{0,8}(?:#{1,6}\s|(?:\*\*)?input\b|use only\b|the program is run\b)", re.IGNORECASE)
CASE_WORDS = re.compile(r"\b(?:lower[- ]?case|upper[- ]?case|capital letters|capitals|small letters)\b", re.IGNORECASE)


@record
class Where:
    """Where (and how) the brief states something.

    Attributes:
        stated: verbatim, near or unstated.
        line: 1-based line number, 0 when unstated.
        text: the brief line, stripped and capped (for display), "" when unstated.
    """

    stated: Stated
    line: int = 0
    text: str = ""


UNSTATED = Where(Stated.UNSTATED)


class BriefIndex:
    """A brief prepared for many look-ups (lines, their words, their code spans)."""

    def __init__(self, text: str) -> None:
        self.lines = text[:MAX_BRIEF].splitlines()
        self.words = [words(ln) for ln in self.lines]
        self.spans = [CODE_SPAN.findall(ln) for ln in self.lines]
        self.output = output_region(self.lines)
        """Lines (0-based) that describe the program's output, or None when no part does."""
        self.ranges = stated_ranges(self.lines)
        """Ranges of numbers the brief states (an input domain: ``1..3999``)."""

    def at(self, index: int, stated: Stated) -> Where:
        """A hit on line ``index`` (0-based)."""
        return Where(stated, index + 1, self.lines[index].strip()[:200])

    def verbatim(self, value: str) -> Where | None:
        """The first line holding the exact value as a whole word."""
        if not value:
            return None
        left = r"(?<![\w.])" if value[0].isalnum() or value[0] == "_" else ""
        right = r"(?!\w|\.\w)" if value[-1].isalnum() or value[-1] == "_" else ""
        pattern = re.compile(left + re.escape(value) + right)
        first = None
        for i, ln in enumerate(self.lines):
            if pattern.search(ln):
                if any(pattern.search(s) for s in self.spans[i]) or re.search(r"[\"'“]" + re.escape(value) + r"[\"'”]", ln):
                    return self.at(i, Stated.VERBATIM)
                first = i if first is None else first
        return self.at(first, Stated.VERBATIM) if first is not None else None

    def near(self, value: str) -> Where | None:
        """The first line holding the value's words in order (case, plural, punctuation ignored)."""
        want = words(value)
        if not want:
            return None
        n = len(want)
        for i, have in enumerate(self.words):
            for start in range(len(have) - n + 1):
                if have[start : start + n] == want:
                    return self.at(i, Stated.NEAR)
        joined = "".join(want)
        if len(joined) >= 4:
            for i, have in enumerate(self.words):
                if joined in ("".join(have[s : s + k]) for k in (2, 3) for s in range(len(have) - k + 1)):
                    return self.at(i, Stated.NEAR)
        return None

    def key(self, name: str) -> Where:
        """A key of the output: stated where the brief names it as one (a code span or quotes
        holding it, ``name=...`` or ``name: ...``; near when a code span holds it in another case
        or with other separators); a word of the prose is not a key (``order`` in "in an order")."""
        if not name:
            return UNSTATED
        quoted = re.compile(r"[\"'\u201c]" + re.escape(name) + r"[\"'\u201d]")
        for i, spans in enumerate(self.spans):
            if any(s == name or s.startswith((name + "=", name + ":", name + " =")) for s in spans) or quoted.search(self.lines[i]):
                return self.at(i, Stated.VERBATIM)
        want = words(name)
        for i, spans in enumerate(self.spans):
            if want and any(words(s.split("=", 1)[0].split(":", 1)[0]) == want for s in spans):
                return self.at(i, Stated.NEAR)
        if len(want) >= 2:  # a name of several words is named by them in prose too ("the odd degree count")
            return self.near(name) or UNSTATED
        return UNSTATED

    def names_key(self, key: str) -> bool:
        """True when the brief names ``key`` as a key: a code span ``key``, ``key=...`` or ``key: ...``."""
        return any(s == key or s.startswith((key + "=", key + ":")) for spans in self.spans for s in spans)

    def find(self, value: str) -> Where:
        """Verbatim, else near, else unstated."""
        return self.verbatim(value) or self.near(value) or UNSTATED

    def separator(self, sep: str) -> Where:
        """A separator: quoted or named (verbatim), or used in a code-span example (near).

        The program's output is what a check splits, so when the brief has a part about the
        output only that part counts (a space between the two names of an *input* line
        states nothing about the output)."""
        quoted = re.compile(r"[`'\"]" + re.escape(sep) + r"[`'\"]") if sep.strip() else None
        names = SEPARATOR_NAMES.get(sep, ())
        named = [re.compile(r"\b" + re.escape(n) + r"(?:s|-separated|-delimited)?\b", re.IGNORECASE) for n in names]
        rows = sorted(self.output) if self.output is not None else range(len(self.lines))
        for i in rows:
            ln = self.lines[i]
            if (quoted and quoted.search(ln)) or any(p.search(ln) for p in named):
                return self.at(i, Stated.VERBATIM)
        inside = re.compile(r"[\w\]\)]" + re.escape(sep) + r"[\w\[\(]") if sep not in ("\n",) else None
        for i in rows:  # an example of an output field (``path=A B C``), not an input line (``A B``)
            if inside and any(inside.search(s if sep in ("=", ":") else s.partition("=")[2] or s.partition(": ")[2])
                              for s in self.spans[i]):
                return self.at(i, Stated.NEAR)
        return UNSTATED

    def case(self) -> Where:
        """Letter case: the brief speaks of lower or upper case."""
        for i, ln in enumerate(self.lines):
            if CASE_WORDS.search(ln):
                return self.at(i, Stated.VERBATIM)
        return UNSTATED

    def empty(self) -> Where:
        """The empty string: ``""`` or "empty string" in the brief."""
        for i, ln in enumerate(self.lines):
            if EMPTY.search(ln):
                return self.at(i, Stated.VERBATIM if ('""' in ln or "''" in ln) else Stated.NEAR)
        return UNSTATED

    def rounding(self) -> Where:
        """A precision demand: the brief speaks of rounding or decimal places."""
        for i, ln in enumerate(self.lines):
            if ROUNDING.search(ln):
                return self.at(i, Stated.NEAR)
        return UNSTATED

    def file(self, path: str) -> Where:
        """A file name: the path or its base name verbatim, else its stem in a near form."""
        base = path.rstrip("/").rsplit("/", 1)[-1]
        hit = self.verbatim(path) or (self.verbatim(base) if base != path else None)
        if hit:
            return hit
        stem = base.rsplit(".", 1)[0] if "." in base else base
        return (self.near(stem) if stem else None) or UNSTATED


RANGE = re.compile(r"(?<![\w.])(-?\d{1,18})\s{0,2}(?:\.\.\.?|\u2013|\u2014|to|through)\s{0,2}(-?\d{1,18})(?![\w.])"
                   r"|\bbetween\s(-?\d{1,18})\sand\s(-?\d{1,18})\b", re.IGNORECASE)


def stated_ranges(lines: list[str]) -> tuple[tuple[int, int], ...]:
    """The ranges of numbers the brief states (``1..3999``, ``1 to 3999``, ``between 0 and 9``)."""
    out = []
    for line in lines[:5000]:
        for m in RANGE.finditer(line[:2000]):
            lo, hi = (int(m.group(1)), int(m.group(2))) if m.group(1) is not None else (int(m.group(3)), int(m.group(4)))
            if lo <= hi:
                out.append((lo, hi))
    return tuple(out)


def output_region(lines: list[str]) -> frozenset[int] | None:
    """The lines about the output: from a line starting ``Output``/``Print`` to the next heading,
    ``Input`` or ``Use only`` line; None when the brief has no such part."""
    region: set[int] = set()
    inside = False
    for i, ln in enumerate(lines):
        if OUTPUT_START.match(ln):
            inside = True
        elif inside and OUTPUT_END.match(ln):
            inside = False
        if inside:
            region.add(i)
    return frozenset(region) if region else None


@lru_cache(maxsize=64)
def brief_index(text: str) -> BriefIndex:
    """A cached index for a brief text (briefs are shared by many failures)."""
    return BriefIndex(text)
