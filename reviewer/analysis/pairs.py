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
from dataclasses import dataclass

from reviewer.model.sanitize import strip_sgr

MAX_LINE = 4_000
MAX_LINES = 3_000

QUOTED = r"""(?:"(?:[^"\\]|\\.){0,2000}"|'(?:[^'\\]|\\.){0,2000}'|`[^`]{0,2000}`)"""
GROUP = r"(?:\{[^{}\n]{0,2000}\}|\[[^\[\]\n]{0,2000}\]|map\[[^\[\]\n]{0,2000}\])"
VALUE = rf"(?:{QUOTED}|{GROUP}|[^,;]{{1,2000}}?)"
PREFIX = re.compile(r"^\s*(?:E\s+)?(?:[\w./-]+\.\w+:\d+:(?:\d+:)?\s*)?")

GOT_WANT = re.compile(
    rf"^(?P<call>.*?)(?:\s=|\breturned|\breturns|\bgave|\bgot:?)\s+(?P<got>{VALUE}),?;?\s+"
    rf"(?:want(?:ed)?|expected|expect|should be|wants?):?\s+(?P<want>{QUOTED}|.+?)\s*$",
    re.IGNORECASE,
)
EXPECTED_GOT = re.compile(
    rf"\bexpected:?\s+(?P<want>{VALUE}),?;?\s+(?:but\s+)?(?:got|found|was|received|actual(?:ly)?|is):?\s+(?P<got>{QUOTED}|.+?)\s*$",
    re.IGNORECASE,
)
JUNIT = re.compile(r"expected:\s*<(?P<want>.{0,2000}?)>\s*but was:\s*<(?P<got>.{0,2000}?)>")
ASSERT = re.compile(rf"^(?:AssertionError:\s*)?assert\s+(?P<l>{QUOTED}|.+?)\s+(?P<op>==|!=|in|not in)\s+(?P<r>{QUOTED}|.+?)\s*$")
UNEQUAL = re.compile(rf"^(?:AssertionError:\s*)?(?P<l>{QUOTED})\s+!=\s+(?P<r>{QUOTED})\s*$")
EXPECTED_LINE = re.compile(r"^\s*(?:expected|want(?:ed)?|exp)\s*:\s*(?P<v>.+?)\s*$", re.IGNORECASE)
ACTUAL_LINE = re.compile(r"^\s*(?:actual|got|received|but was|act)\s*:\s*(?P<v>.+?)\s*$", re.IGNORECASE)
SOURCE_LINE = re.compile(r"^>\s+(?P<code>.+)$")
LITERAL_AT_END = re.compile(rf"(?:==|!=)\s*{QUOTED}\s*(?:,.*)?$")
LITERAL_AT_START = re.compile(rf"assert\s+{QUOTED}\s*(?:==|!=)")
GOLDEN_CONTAINS = re.compile(r"^(?:the answer|a shown citation) must contain (?:one of )?(?P<alts>.+)$")
GOLDEN_LEAD = re.compile(r"^the answer must lead with (?P<alts>.+)$")
ALT = re.compile(QUOTED)
WANT_WORD = re.compile(r"want|expect|should be")
EMPTY_WORDS = re.compile(r"^(?:the |an? )?empty (?:string|text|result|output)\.?$", re.IGNORECASE)
MAX_PAIR_LINE = 1_000
UNIFIED_HEADER = re.compile(r"^(?:@@ .* @@|--- \S|\+\+\+ \S)")
UNIFIED_LINE = re.compile(r"^(?P<sign>[-+])(?![-+]{2} )(?P<v>\S.*)$")
DIFF_LINE = re.compile(r"^E\s{2,}(?P<sign>[-+]) (?P<v>.*)$")


@dataclass(frozen=True, slots=True)
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
    """

    expected: str
    actual: str
    relation: str = "equal"
    line: str = ""
    call: str = ""
    table: int = 0


def message_lines(message: str) -> list[str]:
    """The lines of a failure text, colour codes removed, capped in count and length."""
    return [ln[:MAX_LINE] for ln in strip_sgr(message).splitlines()[:MAX_LINES]]


def body(line: str) -> str:
    """A line without pytest's ``E`` marker or a ``file.go:12:`` location prefix."""
    return PREFIX.sub("", line, count=1).strip()


def pairs_from_message(message: str) -> tuple[Pair, ...]:
    """Every expected/actual pair the failure text shows, in order, without repeats."""
    lines = message_lines(message)
    out: list[Pair] = []
    source_line = ""
    for raw in lines:
        src = SOURCE_LINE.match(raw)
        if src:
            source_line = src.group("code")
            continue
        line = body(raw)
        if not line:
            continue
        pair = line_pair(line, source_line)
        if pair is not None:
            out.append(pair)
    if not any(p.line.lstrip().startswith(("assert", "AssertionError: assert")) for p in out):
        out.extend(diff_pairs(lines))
    out.extend(two_line_pairs(lines))
    out.extend(golden_pairs(lines))
    seen: set[tuple[str, str, str]] = set()
    unique = []
    for p in out:
        key = (p.expected, p.actual, p.relation)
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return tuple(unique)


def line_pair(line: str, source_line: str = "") -> Pair | None:
    """The pair one line shows, or None."""
    line = line[:MAX_PAIR_LINE]
    low = line.lower()
    if "but was" in low:
        m = JUNIT.search(line)
        if m:
            return Pair(m.group("want"), m.group("got"), line=line)
    m = ASSERT.match(line) if "assert" in low else None
    if m:
        left, right, op = m.group("l"), m.group("r"), m.group("op")
        if "..." in left or "..." in right:
            return None
        if op in ("in", "not in"):
            return Pair(left, right, "contains", line) if op == "in" else None
        if LITERAL_AT_START.search(source_line) and not LITERAL_AT_END.search(source_line):
            return Pair(left, right, line=line)
        return Pair(right, left, line=line)
    m = UNEQUAL.match(line) if "!=" in line else None
    if m:
        return Pair(m.group("r"), m.group("l"), line=line)
    m = EXPECTED_GOT.search(line) if "expect" in low else None
    if m:
        return Pair(spoken(m.group("want")), m.group("got").strip(), line=line)
    m = GOT_WANT.match(line) if WANT_WORD.search(low) else None
    if m:
        return Pair(spoken(m.group("want")), m.group("got").strip(), line=line, call=m.group("call").strip())
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


def two_line_pairs(lines: list[str]) -> list[Pair]:
    """``expected: X`` and ``actual: Y`` on lines of their own (the first of each)."""
    want = got = None
    for raw in lines:
        line = body(raw)
        if want is None:
            m = EXPECTED_LINE.match(line)
            if m and not EXPECTED_GOT.search(line):
                want = m.group("v")
                continue
        if got is None:
            m = ACTUAL_LINE.match(line)
            if m:
                got = m.group("v")
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
    alts = [a for a in ALT.findall(m.group("alts"))] or [m.group("alts").strip()]
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
    return ALT.findall(text)
