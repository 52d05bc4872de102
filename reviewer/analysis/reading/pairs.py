"""Expected-versus-actual pairs, read from the failure text of any grader.

Understood shapes (one line each unless said otherwise):

- Go and friends: ``F(x) = "A", want "B"``, ``got A, want B``, ``F(x) returned A, expected B``;
- ``expected B, got A`` / ``expected B but got A`` / ``expected: B, actual: A``;
- JUnit / Java: ``expected:<B> but was:<A>``;
- pytest assertion rewriting: ``assert 'A' == 'B'`` (``E`` lines), ``assert 'B' in 'A...'``;
  unittest ``'A' != 'B'``;
- two lines ``expected: B`` / ``actual: A`` (testify, jest ``Received:``);
- golden sets: ``the answer must contain 'B'`` (or ``one of ...``) with the answer text,
  ``a shown citation must contain 'B'`` with the detail.

Which side is expected: the right of ``==`` unless the asserting source line (pytest's ``>``
line) holds a literal only on the left.
"""

from __future__ import annotations

import re
from dataclasses import replace

from reviewer.analysis.reading.scan import (
    Cancel,
    assertion,
    expected_got,
    got_want,
    is_quoted,
    junit,
    labelled,
    poll,
    quoted_values,
    tokens,
)
from reviewer.model.records import record
from reviewer.model.sanitize import strip_sgr
from reviewer.model.wording import count, plural

MAX_LINE = 4_000
MAX_LINES = 3_000

PREFIX = re.compile(r"^\s*(?:E\s+)?(?:[\w./-]+\.\w+:\d+:(?:\d+:)?\s*)?")
SOURCE_LINE = re.compile(r"^>\s+(?P<code>.+)$")
GOLDEN_CONTAINS = re.compile(r"^(?:the answer|a shown citation) must contain (?:one of )?(?P<alts>.+)$")
GOLDEN_LEAD = re.compile(r"^the answer must lead with (?P<alts>.+)$")
WANT_WORD = re.compile(r"want|expect|should be")
WANT_TOKEN = re.compile(r"(?:^|\s)(?:want(?:ed|s)?|expected|expect|should\s+be):?(?=\s)", re.IGNORECASE)
EXPECTED_TOKEN = re.compile(r"(?:^|\s)expected:?\s", re.IGNORECASE)
GOT_TOKEN = re.compile(r"(?:^|\s)(?:=|returned|returns|gave|got:?)\s", re.IGNORECASE)
EMPTY_WORDS = re.compile(r"^(?:the |an? )?empty (?:string|text|result|output)\.?$", re.IGNORECASE)
EXPECTED_LABELS = ("expected", "wanted", "want", "exp")
ACTUAL_LABELS = ("actual", "got", "received", "but was", "act")
MAX_PAIR_LINE = 1_000
READ_BUDGET = 200_000
"""Characters of failure text read for pairs (about 500 lines of 400 characters)."""
UNIFIED_HEADER = re.compile(r"^(?:@@ .* @@|--- \S|\+\+\+ \S)")
UNIFIED_LINE = re.compile(r"^(?P<sign>[-+])(?![-+]{2} )(?P<v>\S.*)$")
DIFF_LINE = re.compile(r"^E\s{2,}(?P<sign>[-+]) (?P<v>.*)$")


@record
class Pair:
    """An expected value and what the program gave instead.

    Attributes:
        expected: the expected value as printed (quotes kept).
        actual: the value the grader saw.
        relation: ``equal`` (the two should be equal) or ``contains`` (actual should contain
            expected).
        line: the message line the pair was read from (stripped).
        call: the call that produced the actual value (``ToRoman(4)``), "" when not shown.
        table: how many distinct values the table of cases this pair comes from expects (a
            candidate runner's tests), 0 when not from a table.
        cut: a side was cut short by the grader (pytest's ``...``): never a near miss or a
            demand, only a prefix to recognise a value by.
    """

    expected: str
    actual: str
    relation: str = "equal"
    line: str = ""
    call: str = ""
    table: int = 0
    cut: bool = False


def message_lines(message: str) -> list[str]:
    """The lines of a failure text, colour codes removed, capped in count and length."""
    return [ln[:MAX_LINE] for ln in strip_sgr(message).splitlines()[:MAX_LINES]]


def body(line: str) -> str:
    """A line without pytest's ``E`` marker or a ``file.go:12:`` location prefix."""
    return PREFIX.sub("", line, count=1).strip()


def pairs_from_message(message: str, cancel: Cancel | None = None, notes: list[str] | None = None) -> tuple[Pair, ...]:
    """Every expected/actual pair the failure text shows, in order, without repeats.

    Lines are read for pairs until :data:`READ_BUDGET` characters have been read; the rest are
    skipped, and a sentence saying how many goes to ``notes``."""
    lines = message_lines(message)
    out: list[Pair] = []
    source_line = ""
    budget = READ_BUDGET
    skipped = 0
    echo: int | None = None
    for raw in lines:
        poll(cancel)
        if budget <= 0:
            skipped += 1
            continue
        budget -= min(len(raw), MAX_PAIR_LINE)
        src = SOURCE_LINE.match(raw)
        if src:
            source_line = src.group("code")
            continue
        line = body(raw)
        if not line:
            continue
        if echo is not None and line.startswith("AssertionError:"):
            quote = out[echo].expected.strip()[:1] if out[echo].expected.strip()[:1] in "\"'" else "'"
            out[echo] = replace(out[echo], actual=quote + line[len("AssertionError:") :].strip() + quote)
            echo = None
            continue
        pair = line_pair(line, source_line)
        if pair is not None:
            out.append(pair)
            echo = len(out) - 1 if echoes_left(line) else None
    if skipped and notes is not None:
        notes.append(f"{count(skipped, 'line')} of the failure text past the reading budget {plural('was', skipped)} not read for "
                     "expected/actual pairs")
    if not any(p.line.lstrip().startswith(("assert", "AssertionError: assert")) for p in out if not p.cut):
        out.extend(diff_pairs(lines))
    out.extend(two_line_pairs(lines, cancel))
    out.extend(golden_pairs(lines))
    seen: set[tuple[str, str, str]] = set()
    unique = []
    for p in out:
        key = (p.expected, p.actual, p.relation)
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return tuple(unique)


def echoes_left(line: str) -> bool:
    """``assert f(4) == "iv", f(4)``: the message is the checked expression itself, so the
    ``AssertionError:`` line after it shows the program's value."""
    a = assertion(line) if line.lstrip().startswith("assert ") else None
    return a is not None and a.op == "==" and bool(a.message) and a.message == a.left and not is_quoted(a.left)


NAME_OR_CALL = re.compile(r"^[A-Za-z_][\w.]*(?:\(.*\)|\[.*\])?$")


def source_code(line: str) -> bool:
    """A line of a test's source as pytest shows it in a traceback (``>       assert ...`` or an
    indented ``assert``), where the sides are expressions; evaluated values come on ``E`` lines."""
    s = line.lstrip()
    return s.startswith(">") or (s.startswith("assert ") and line[:1].isspace())


def literal_sides(source_line: str) -> tuple[bool, bool]:
    """Whether the asserting source line compares a quoted literal on its left / on its right."""
    a = assertion(source_line) if "assert" in source_line else None
    if a is None or a.op not in ("==", "!="):
        return False, False
    return is_quoted(a.left), is_quoted(a.right)


def line_pair(line: str, source_line: str = "") -> Pair | None:
    """The pair one line shows, or None (linear in the line: see :mod:`.scan`)."""
    line = line[:MAX_PAIR_LINE]
    low = line.lower()
    if "but was:" in line:
        j = junit(line)
        if j:
            return Pair(j[0], j[1], line=line)
    a = assertion(line) if "assert" in low else None
    if a is not None:
        left, right, op = a.left, a.right, a.op
        if "..." in left or "..." in right:
            return Pair(right, left, line=line, cut=True) if op == "==" else None
        if op in ("in", "not in"):
            return Pair(left, right, "contains", line) if op == "in" else None
        at_left, at_right = literal_sides(source_line)
        expected, actual = (left, right) if at_left and not at_right else (right, left)
        if source_code(line) and NAME_OR_CALL.match(expected.strip()):
            return None  # a line of the test's source in a traceback: a variable, not a value
        return Pair(expected, actual, line=line)
    if "!=" in line:
        pair = unequal(line)
        if pair is not None:
            return pair
    toks = None
    if "expect" in low and EXPECTED_TOKEN.search(line):
        toks = tokens(line)
        eg = expected_got(line, toks)
        if eg:
            return Pair(spoken(eg[0]), eg[1].strip(), line=line)
    if WANT_WORD.search(low) and WANT_TOKEN.search(line) and GOT_TOKEN.search(line):
        gw = got_want(line, toks if toks is not None else tokens(line))
        if gw:
            return Pair(spoken(gw[2]), gw[1].strip(), line=line, call=gw[0])
    return None


def unequal(line: str) -> Pair | None:
    """unittest's ``'A' != 'B'`` (expected on the right)."""
    s = line.strip()
    if s.startswith("AssertionError:"):
        s = s[len("AssertionError:") :].strip()
    toks = tokens(s)
    if len(toks) == 3 and toks[1].text == "!=" and toks[0].quoted and toks[2].quoted:
        return Pair(toks[2].text, toks[0].text, line=line)
    return None


def spoken(value: str) -> str:
    """An expected value, with prose for the empty string (``the empty string``) made ``""``."""
    v = value.strip()
    if EMPTY_WORDS.match(v):
        return '""'
    return v


def diff_pairs(lines: list[str]) -> list[Pair]:
    """Diff lines: pytest's (``E   - expected`` / ``E   + actual``, used when the assertion line
    is cut short) and unified diffs of expected against actual output (``-connected=yes`` /
    ``+connected=true`` after ``---``/``+++``/``@@`` headers). Equal numbers of lines pair up
    one by one; otherwise each side is joined."""
    minus: list[str] = []
    plus: list[str] = []
    unified = any(UNIFIED_HEADER.match(ln) for ln in lines)
    for raw in lines:
        m = DIFF_LINE.match(raw) or (UNIFIED_LINE.match(raw) if unified else None)
        if m and not m.group("v").lstrip().startswith(("where ", "and ")):
            (minus if m.group("sign") == "-" else plus).append(m.group("v"))
    if not minus or not plus or len(minus) > 50 or len(plus) > 50:
        return []
    if len(minus) == len(plus):
        return [Pair(a, b, line=f"- {a} / + {b}") for a, b in zip(minus, plus)]
    return [Pair("\n".join(minus), "\n".join(plus), line=f"- {minus[0]} / + {plus[0]}")]


def two_line_pairs(lines: list[str], cancel: Cancel | None = None) -> list[Pair]:
    """``expected: X`` and ``actual: Y`` on lines of their own (the first of each)."""
    want = got = None
    for raw in lines:
        poll(cancel)
        line = body(raw)
        if want is None:
            v = labelled(line, EXPECTED_LABELS)
            if v is not None and not expected_got(line[:MAX_PAIR_LINE]):
                want = v
                continue
        if got is None:
            got = labelled(line, ACTUAL_LABELS)
        if want is not None and got is not None:
            break
    if want is not None and got is not None:
        return [Pair(want, got, line=f"expected: {want} / actual: {got}")]
    return []


def golden_pairs(lines: list[str]) -> list[Pair]:
    """Golden-set expectations: each alternative against the answer (or the cited sources)."""
    if not lines:
        return []
    first = lines[0].strip()
    m = GOLDEN_CONTAINS.match(first) or GOLDEN_LEAD.match(first)
    if not m:
        return []
    alts = quoted_values(m.group("alts")) or [m.group("alts").strip()]
    actual = golden_actual(lines, first.startswith("a shown citation"))
    if not actual:
        return []
    relation = "contains" if "contain" in first else "lead"
    return [Pair(a, actual, relation, first) for a in alts]


def golden_actual(lines: list[str], citation: bool) -> str:
    """The answer text (or, for a citation check, the detail naming the sources shown)."""
    if citation:
        for ln in lines:
            if ln.startswith("detail:"):
                return ln[len("detail:") :].strip()
        return ""
    for i, ln in enumerate(lines):
        if ln.strip() == "answer:":
            return "\n".join(lines[i + 1 :]).strip()
    return ""


def listed_values(text: str) -> list[str]:
    """The quoted values of a list such as ``["10 feet", "20 feet"]`` or ``'a', 'b'``."""
    return quoted_values(text)
