"""Demands: what a failing check asked of the program, read from its failure text.

A demand has a kind (``literal``, ``key``, ``symbol``, ``file``, ``error``, ``separator``) and a
value. This module reads them from grader output of any kind: Go compiler and test messages,
pytest assertion rewriting and Python exceptions, golden-set expectations, candidate-runner
errors, and expected/actual pairs (:mod:`reviewer.analysis.reading.pairs`). A demand raised by the
model's *own* code (``./roman.go:20: undefined: strings``) is not the check's demand and is
skipped. Whether the brief states each demand is decided in :mod:`reviewer.analysis.evidence.engine`.
"""

from __future__ import annotations

import enum
import re

from reviewer.analysis.reading.brief import Stated
from reviewer.analysis.reading.notation import canon, has_digit, strip_quotes
from reviewer.analysis.reading.pairs import Pair, listed_values, message_lines
from reviewer.analysis.reading.scan import Cancel, poll
from reviewer.model.records import record


class DemandKind(str, enum.Enum):
    """What sort of thing a check demanded."""

    LITERAL = "literal"
    KEY = "key"
    SYMBOL = "symbol"
    FILE = "file"
    ERROR = "error"
    SEPARATOR = "separator"


@record
class Demand:
    """One thing the check demanded, and whether the brief states it.

    Attributes:
        kind: literal, key, symbol, file, error or separator.
        value: the demanded text ("" is the empty string; " " is whitespace).
        origins: where it was read: ``message`` and/or ``source:<file>:<line>``.
        context: the line it was read from (message or source), capped.
        bound: a value bound to the check's input (it carries a digit, is one case of a table,
            or occurs in the input data): a brief states its form, not each value, so it is
            shown but never counted as unstated.
        note: a short explanation (``rounded to 2 decimal places``, ``must lead with``).
        alternatives: other accepted values (golden ``one of``); stated when any one is.
        stated: verbatim, near or unstated.
        brief_line: 1-based line of the brief that states it (0 when unstated).
        brief_text: that line, capped.
        met: whether the program met it: its output (or, where the output is missing, its
            code) carries it; None when neither tells.
        met_where: where it was met: ``output``, or the code's ``file:line``; "" when not met.
        answered: the program answered in the checker's own words (it printed another of the
            values the checker compares with): a wrong answer, not an unknown notation.
        crashed: the program's own error (not an interpreter limit) stopped it before it gave
            this: a failure of its own, not evidence about the brief.
    """

    kind: DemandKind
    value: str
    origins: tuple[str, ...] = ("message",)
    context: str = ""
    bound: bool = False
    note: str = ""
    alternatives: tuple[str, ...] = ()
    stated: Stated = Stated.UNSTATED
    brief_line: int = 0
    brief_text: str = ""
    met: bool | None = None
    met_where: str = ""
    answered: bool = False
    crashed: bool = False

    @property
    def unstated(self) -> bool:
        """Not stated in the brief and not input-bound."""
        return self.stated is Stated.UNSTATED and not self.bound

    @property
    def evidence(self) -> bool:
        """Evidence towards specification: unstated, and the program is known not to meet it
        (its output, recorded or observed in a re-score, lacks it). An unstated demand the
        program's output or code already carries says nothing against the brief, and one that
        nothing shows met or not (``met`` None) is not counted either way."""
        return self.unstated and self.met is False and not self.answered and not self.crashed

    def shown(self) -> str:
        """The value as shown to a person (quotes for literals, names for blanks)."""
        if self.kind is DemandKind.SEPARATOR:
            return {" ": "whitespace", "\t": "tab", "\n": "newline"}.get(self.value, repr(self.value))
        if self.kind is DemandKind.LITERAL:
            return repr(self.value)
        return self.value


KEY_ERROR = re.compile(r"\bKeyError:\s*(?P<q>['\"])(?P<v>[^'\"\n]{1,120})(?P=q)")
MISSING_KEY = [
    re.compile(r"(?<![\w.=-])(?P<v>[A-Za-z_][\w.-]{0,63})=(?=$|[\s:,;)\]])"),
    re.compile(r"\bmissing (?:key|field|entry)s?:?\s+['\"`]?(?P<v>[A-Za-z_][\w.-]{0,63})", re.IGNORECASE),
    re.compile(r"\b(?:key|field) ['\"`](?P<v>[A-Za-z_][\w.-]{0,63})['\"`] (?:not found|is missing|missing|absent)", re.IGNORECASE),
]
UNDEFINED = re.compile(r"^(?:(?P<file>[\w./-]+\.\w+):\d+(?::\d+)?:\s*)?undefined: (?P<v>[A-Za-z_][\w.]*)")
NO_MEMBER = re.compile(r"^(?:(?P<file>[\w./-]+\.\w+):\d+(?::\d+)?:\s*)?\S+ undefined \(type .{1,200}? has no field or method (?P<v>\w+)")
PACKAGE = [
    re.compile(r"cannot find package \"(?P<v>[^\"\n]{1,200})\""),
    re.compile(r"no required module provides package (?P<v>[\w./-]{1,200})"),
    re.compile(r"package (?P<v>[\w./-]{1,200}) is not in (?:GOROOT|std)"),
]
NO_GO_FILES = re.compile(r"no Go files in (?P<v>\S{1,300})")
FOUND_PACKAGES = re.compile(r"found packages (?P<a>\w{1,200}) \((?P<fa>[^)]{0,1000})\) and (?P<b>\w{1,200}) \((?P<fb>[^)]{0,1000})\)")
PY_SYMBOL = [
    re.compile(r"ModuleNotFoundError: No module named '(?P<v>[\w.]{1,120})'"),
    re.compile(r"ImportError: cannot import name '(?P<v>\w{1,120})'"),
    re.compile(r"AttributeError: .{0,200}? has no attribute '(?P<v>\w{1,120})'"),
    re.compile(r"NameError: name '(?P<v>\w{1,120})' is not defined"),
]
NO_FILE = [
    re.compile(r"No such file or directory: '(?P<v>[^'\n]{1,300})'"),
    re.compile(r"open (?P<v>[^:\s]{1,300}): no such file or directory"),
]
DID_NOT_RAISE = re.compile(r"DID NOT RAISE (?:<class '(?P<c>[\w.]+)'>|(?P<v>[\w.]+))")
REGEX_NOT_MATCHED = re.compile(r"^\s*(?:E\s+)?Regex: (?P<q>['\"])(?P<v>.{1,300})(?P=q)\s*$")
WANT_ERROR = re.compile(r"\b(?:and no error|no error returned|want(?:ed)? (?:an? )?(?:non-nil )?error|expected (?:an? )?(?:non-nil )?(?:error|exception)|should (?:fail|return an error|raise))\b", re.IGNORECASE)
FRAME = [re.compile(r"^\s*File \"(?P<f>[^\"]+)\", line \d+"), re.compile(r"^(?P<f>[\w./-]+\.py):\d+: ")]
GOLDEN = [
    (re.compile(r"^the answer must contain (?:one of )?(?P<v>.+)$"), ""),
    (re.compile(r"^the answer must lead with (?P<v>.+)$"), "must lead with"),
    (re.compile(r"^a shown citation must contain (?P<v>.+)$"), "a citation must contain"),
    (re.compile(r"^a shown citation id must start with (?P<v>.+)$"), "a citation id must start with"),
    (re.compile(r"^the scope must be (?P<v>.+)$"), "the scope must be"),
]
REPR = re.compile(r"^[A-Za-z_][\w.]*\(|<[\w.]+ (?:object )?at 0x")
CAPTURED = re.compile(r"^-+ Captured (?:stdout|stderr|log)")
SECTION = re.compile(r"^[-=_]{3,} ")
OUTPUT_LINE = re.compile(r"^\s*(?:stdout|stderr|input|output):")
PROSE_WORDS = 3
TABLE_VALUES = 4
PROSE_CHARS = 60
MAX_KEYS_A_LINE = 16


def base(path: str) -> str:
    """The file name part of a path."""
    return path.rstrip("/").rsplit("/", 1)[-1]


@record
class Context:
    """What the reader needs to know about the run to tell the check's files from the model's.

    Attributes:
        grader_files: base names of the grader's own source files.
        model_files: base names of the graded attempt's files.
    """

    grader_files: frozenset[str] = frozenset()
    model_files: frozenset[str] = frozenset()

    def models(self, path: str) -> bool:
        """True when an error located in ``path`` is in the model's code, not the grader's."""
        name = base(path)
        return bool(name) and name in self.model_files and name not in self.grader_files


def demand(kind: DemandKind, value: str, context: str, **extra: object) -> Demand:
    """A demand read from the failure text."""
    return Demand(kind, value, ("message",), context.strip()[:200], **extra)  # type: ignore[arg-type]


def message_demands(message: str, ctx: Context | None = None, cancel: Cancel | None = None) -> list[Demand]:
    """Every demand a failure text shows (pairs are handled by :func:`pair_demands`)."""
    ctx = ctx or Context()
    out: list[Demand] = []
    frame = ""
    lines = message_lines(message)
    load_failure = bool(lines) and lines[0].startswith("load:")
    captured = False
    for raw in lines:
        poll(cancel)
        if CAPTURED.match(raw):
            captured = True
            continue
        if captured and SECTION.match(raw):
            captured = False
        if captured or OUTPUT_LINE.match(raw):
            continue
        for f in FRAME:
            m = f.match(raw)
            if m:
                frame = m.group("f")
        line = raw.strip()
        out.extend(line_demands(line, frame, ctx, load_failure))
    out.extend(golden_demands(lines))
    return out


def line_demands(line: str, frame: str, ctx: Context, load_failure: bool) -> list[Demand]:
    """The demands one line of failure text shows.

    Every pattern is guarded by a plain substring test, so a line that cannot match costs a
    few ``in`` scans, and each pattern is bounded (no nested unbounded repetition)."""
    out: list[Demand] = []
    low = line.lower()
    if "keyerror" in low:
        m = KEY_ERROR.search(line)
        if m and not (frame and ctx.models(frame)):
            out.append(demand(DemandKind.SYMBOL if load_failure else DemandKind.KEY, m.group("v"), line))
    if "=" in line:
        for n, m in enumerate(MISSING_KEY[0].finditer(line)):
            if n >= MAX_KEYS_A_LINE:
                break
            out.append(demand(DemandKind.KEY, m.group("v"), line))
    if "missing" in low:
        for m in MISSING_KEY[1].finditer(line):
            out.append(demand(DemandKind.KEY, m.group("v"), line))
    if "key " in low or "field " in low:
        for m in MISSING_KEY[2].finditer(line):
            out.append(demand(DemandKind.KEY, m.group("v"), line))
    if "undefined" in line:
        body = re.sub(r"^(?:E\s+|\./)", "", line)
        for p in (UNDEFINED, NO_MEMBER):
            m = p.match(body)
            if m and not (m.group("file") and ctx.models(m.group("file"))):
                out.append(demand(DemandKind.SYMBOL, m.group("v"), line))
    if "package" in line:
        for p in PACKAGE:
            m = p.search(line)
            if m:
                out.append(demand(DemandKind.SYMBOL, m.group("v"), line, note="package"))
        m = FOUND_PACKAGES.search(line) if "found packages" in line else None
        if m:
            out.extend(found_packages(m, line, ctx))
    if "no Go files" in line:
        m = NO_GO_FILES.search(line)
        if m:
            out.append(demand(DemandKind.FILE, m.group("v"), line, note="Go files in this folder"))
    if "Error:" in line:
        for p in PY_SYMBOL:
            m = p.search(line)
            if m and not (frame and ctx.models(frame)):
                out.append(demand(DemandKind.SYMBOL, m.group("v"), line))
    if "no such file" in low:
        for p in NO_FILE:
            m = p.search(line)
            if m:
                out.append(demand(DemandKind.FILE, m.group("v"), line))
    if "DID NOT RAISE" in line:
        m = DID_NOT_RAISE.search(line)
        if m:
            out.append(demand(DemandKind.ERROR, (m.group("c") or m.group("v")).rsplit(".", 1)[-1], line))
    if "Regex:" in line:
        m = REGEX_NOT_MATCHED.match(line)
        if m:
            out.append(demand(DemandKind.ERROR, m.group("v"), line, note="error message"))
    if ("error" in low or "exception" in low or "fail" in low or "raise" in low) and WANT_ERROR.search(line):
        out.append(demand(DemandKind.ERROR, "error", line))
    return out


def found_packages(m: re.Match[str], line: str, ctx: Context) -> list[Demand]:
    """``found packages a (x.go) and b (y_test.go)``: the grader's package name is demanded."""
    out = []
    for name, files in ((m.group("a"), m.group("fa")), (m.group("b"), m.group("fb"))):
        names = {base(f.strip()) for f in files.split(",")}
        if names & ctx.grader_files or any(n.endswith("_test.go") and n not in ctx.model_files for n in names):
            out.append(demand(DemandKind.SYMBOL, name, line, note="package name"))
    return out


def golden_demands(lines: list[str]) -> list[Demand]:
    """A golden-set check's expectation (the first line of its message)."""
    if not lines:
        return []
    first = lines[0].strip()
    for pattern, note in GOLDEN:
        m = pattern.match(first)
        if m:
            values = [strip_quotes(v) for v in listed_values(m.group("v"))] or [m.group("v").strip()]
            return [demand(DemandKind.LITERAL, values[0], first, note=note, alternatives=tuple(values[1:]), bound=all(has_digit(v) for v in values))]
    return []


def looks_like_value(text: str) -> bool:
    """A quoted value, a number, a key=value set or a short token: not prose, not an object's
    repr (``Counter({...})``, ``[('5',)]``, ``<object at 0x...>``), not pytest's ``...`` cut."""
    t = text.strip()
    if not t or "..." in t or REPR.search(t):
        return False
    if t[:1] in "\"'`" and t[-1:] == t[:1]:
        return True
    if canon(t).pairs is not None:
        return True
    if t[:1] in "[({<":
        return False
    return len(t) <= PROSE_CHARS and len(t.split()) <= PROSE_WORDS


def pair_demands(pairs: tuple[Pair, ...] | list[Pair]) -> list[Demand]:
    """Literal and key demands from the expected side of expected/actual pairs.

    A key=value expectation gives one key demand per key and a literal per value. A value with
    a digit is input-bound (a brief states its form, not each value), and so is every value of
    a check, or a table of cases, that expects :data:`TABLE_VALUES` or more distinct values
    (computed results such as Roman numerals, not a vocabulary such as yes/no).
    """
    plain = [p for p in pairs if p.relation == "equal" and not p.cut and looks_like_value(p.expected)]
    distinct = {strip_quotes(p.expected) for p in plain if canon(p.expected).pairs is None}
    table = len(distinct) >= TABLE_VALUES
    out: list[Demand] = []
    for p in plain:
        c = canon(p.expected)
        if c.pairs is not None:
            for key, value in c.pairs:
                out.append(demand(DemandKind.KEY, key, p.line))
                v = strip_quotes(value)
                out.append(demand(DemandKind.LITERAL, v, p.line, bound=has_digit(v)))
            continue
        v = strip_quotes(p.expected)
        bound = has_digit(v) or table or p.table >= TABLE_VALUES
        out.append(demand(DemandKind.LITERAL, v, p.line, bound=bound))
    return out
