"""Checker-versus-brief evidence for one failure: what the check demanded, whether the brief
states each demand, whether the program met it, near misses of notation, and a crash that
hid the output.

:func:`analyse` is pure (texts in, :class:`Evidence` out); :func:`evidence_for` reads the brief,
the grader source, the graded code and the other checks of the grader through a
:class:`SessionStore` and calls it. Both are safe in a worker thread and poll ``cancel``
(raising :class:`~reviewer.analysis.reading.scan.Cancelled`). Evidence points towards specification;
it never sets a label. :mod:`reviewer.analysis.evidence.strip` turns it into the lines the strip and
``reviewer show`` print.
"""

from __future__ import annotations

import json
import re
from dataclasses import field, replace
from functools import lru_cache

from reviewer.analysis.evidence.guard import Guard
from reviewer.analysis.evidence.keys import KeyUse, holding, key_near_misses, key_use, list_separator
from reviewer.analysis.evidence.structure import (
    aligned_vocabulary,
    echoes,
    fits,
    pair_keys,
    vocabulary_pairs,
    wanted_shape,
)
from reviewer.analysis.evidence.weigh import directed, from_source, lookup, merge, met_by
from reviewer.analysis.reading.brief import BriefIndex, brief_index
from reviewer.analysis.reading.code import CodeFile
from reviewer.analysis.reading.demands import Context, Demand, DemandKind, golden_demands, message_demands, pair_demands
from reviewer.analysis.reading.nearmiss import NearMiss, near_misses
from reviewer.analysis.reading.notation import canon, split_tokens, strip_quotes
from reviewer.analysis.reading.output import (
    Crash,
    Printed,
    ProgramOutput,
    find_crash,
    observed_crash,
    observed_output,
    printed_pairs,
    program_output,
)
from reviewer.analysis.reading.pairs import Pair, message_lines, pairs_from_message
from reviewer.analysis.reading.scan import Cancel, poll
from reviewer.analysis.reading.source import case_expected, check_function, grader_reads, source_demands
from reviewer.analysis.reading.tables import TABLE_VALUES, bound_literals
from reviewer.model import Failure, Run
from reviewer.model.observation import Invocation
from reviewer.model.records import record
from reviewer.model.repair import Repair, RepairKind
from reviewer.model.rerun import Rerun
from reviewer.rescore.record import latest_observation
from reviewer.store.sessions.protocol import Store

CANDIDATE_WRONG = re.compile(r"^test (?P<i>\d+): wrong answer (?P<v>.+)$")
CANDIDATE_ERROR = re.compile(r"^test (?P<i>\d+): ")
MAX_DEMANDS = 200
MAX_POOLED = 200
MISSING_VALUES = frozenset({"None", "none", "nil", "''", '""', "", "undefined", "null"})
KIND_ORDER = {k: i for i, k in enumerate(DemandKind)}
MAX_CODE_FILES = 20
MAX_SIBLING = 200_000


@record
class Source:
    """A grader source file's path (for display and language) and its text."""

    path: str
    text: str


@record
class Hint:
    """A sentence for the reviewer beyond the demands and near misses.

    Attributes:
        kind: ``crash``, ``saved-elsewhere``, ``unread-keys``, ``across`` or ``note``.
        text: the sentence.
        towards: evidence towards specification (a known interpreter limit, many notations
            across models); False for a plain fact.
    """

    kind: str
    text: str
    towards: bool = False


@record
class Evidence:
    """Everything the evidence strip shows for one failure.

    Attributes:
        failure_id: the failure.
        check: its check id ``grader:key``.
        demands: what the check demanded, unstated first.
        near_misses: values equal but for notation, each with its direction.
        pairs: every expected/actual pair read from the failure.
        hints: further sentences (crash, file saved elsewhere, keys the check never reads).
        crash: the error that stopped the program, None when the text shows none.
        saved_elsewhere: folders where the graded files were saved instead of where the brief
            asked (each proposes grading where saved).
        output_shown: the failure text (or, with ``observed``, a re-score) shows the program's output.
        observed: the program's output was read from what a re-score observed, the failure text
            showing none.
        brief_missing: the brief could not be read, so nothing counts as stated.
        errors: what could not be read (a grader source file, the brief, lines past a budget).
        guard: judges a repair against what the brief states and the checker's own answers.
        rerun: how the run's grader can be run again (None when the run does not record it).
    """

    failure_id: str
    check: str = ""
    demands: tuple[Demand, ...] = ()
    near_misses: tuple[NearMiss, ...] = ()
    pairs: tuple[Pair, ...] = ()
    hints: tuple[Hint, ...] = ()
    crash: Crash | None = None
    saved_elsewhere: tuple[str, ...] = ()
    output_shown: bool = False
    observed: bool = False
    brief_missing: bool = False
    errors: tuple[str, ...] = ()
    guard: Guard = field(default_factory=lambda: Guard(None), compare=False, repr=False)
    rerun: Rerun | None = field(default=None, compare=False, repr=False)

    @property
    def unstated(self) -> tuple[Demand, ...]:
        """Demands the brief does not state (input-bound values excluded)."""
        return tuple(d for d in self.demands if d.unstated)

    @property
    def unstated_unmet(self) -> tuple[Demand, ...]:
        """Unstated demands the program did not already meet: the strongest evidence."""
        return tuple(d for d in self.demands if d.evidence)

    @property
    def near_miss(self) -> bool:
        """True when at least one value differs only in notation."""
        return bool(self.near_misses)

    @property
    def causes(self) -> tuple[str, ...]:
        """What in this evidence points towards specification, one phrase each (empty when
        nothing does): unmet unstated demands, near misses of unstated notations, a known
        interpreter limit that stopped the program."""
        out = [f"unstated {d.kind.value} {d.shown()}, not met" for d in self.unstated_unmet]
        for folder in self.saved_elsewhere:
            if not self.guard.judge(Repair(RepairKind.GRADE_WHERE_SAVED, (folder,))).stated:
                out.append(f"graded files saved under {folder}/, where the brief does not say where they go")
        out += [f"{nm.kind} near miss ({nm.wanted_key or nm.wanted} / {nm.found_key or nm.found})" for nm in self.near_misses if nm.towards]
        if self.crash is not None and self.crash.towards:
            out.append(f"stopped by the {self.crash.limit} limit")
        return tuple(out)

    @property
    def towards_specification(self) -> bool:
        """True when something here points towards specification (see :attr:`causes`)."""
        return bool(self.causes)


def candidate_pairs(message: str, sources: list[Source], hints: tuple[str, ...]) -> list[Pair]:
    """For ``test <i>: wrong answer X``: the expected value from the runner's case table."""
    first = message_lines(message)[:1]
    m = CANDIDATE_WRONG.match(first[0].strip()) if first else None
    e = CANDIDATE_ERROR.match(first[0].strip()) if first else None
    if not (m or e):
        return []
    index = int((m or e).group("i"))  # type: ignore[union-attr]
    for src in sources:
        if src.path.endswith(".py"):
            found = case_expected(src.text, index, hints)
            if found is not None:
                actual = m.group("v").strip() if m else ""
                return [Pair(found[0], actual, "equal", first[0].strip(), table=found[1])]
    return []


def precision_demands(nms: tuple[NearMiss, ...]) -> list[Demand]:
    """A rounding demand for each near miss that differs only in precision."""
    out = []
    for nm in nms:
        for note in nm.notations:
            if note.startswith("precision:"):
                places = note.rsplit(" ", 1)[-1]
                out.append(Demand(DemandKind.LITERAL, strip_quotes(nm.expected), ("message",), nm.line or nm.describe(), note=f"rounded to {places} decimal places"))
    return out


def key_expected(pairs: list[Pair], keys: list[Demand]) -> str:
    """The value the check expected under its only key, when the program's was missing."""
    if len(keys) != 1:
        return ""
    missing = [p for p in pairs if p.relation == "equal" and strip_quotes(p.actual) in MISSING_VALUES and canon(p.expected).pairs is None]
    if len(missing) != 1:
        return ""
    want = strip_quotes(missing[0].expected) if not missing[0].cut else missing[0].expected.strip().lstrip("'\"")
    return want


def output_near_misses(check: str, demands: list[Demand], pairs: list[Pair], output: ProgramOutput,
                       sources: tuple[Source, ...], index: BriefIndex | None, seen: Seen) -> list[NearMiss]:
    """Near misses of the keys the check reads, from what the program printed (recorded, or
    observed in a re-score): a value of the wrong kind, another separator, a key renamed (paired
    by structure over every key the checker reads, :mod:`.structure`), another vocabulary."""
    if not output.known and not seen.runs:
        return []
    keys = [d for d in demands if d.kind is DemandKind.KEY]
    texts = [s.text for s in sources]
    printed = output.pairs()
    everything = seen.printed(printed)
    stated = {k for k in everything if index is not None and index.names_key(k)}
    reads, words = checker_reads(sources, {d.value for d in keys})
    shapes = {k: wanted_shape(key_use(texts, k), words.get(k, set())) for k in reads}
    missing = {k: s for k, s in shapes.items() if k not in everything or (s != "any" and not fits(s, everything[k]))}
    extra = {k: v for k, v in everything.items() if k not in reads and k not in stated and not seen.echo(k)}
    expected = key_expected(pairs, keys)
    if not expected and len(keys) == 1:  # the one value this check compares its one key with
        literals = {d.value for d in demands if d.kind is DemandKind.LITERAL and any(ch.isalnum() for ch in d.value)}
        expected = next(iter(literals)) if len(literals) == 1 else ""
    taken = reads | stated
    forced = {d.value: h for d in keys[:20] if d.value in missing and (h := holding(printed, expected, taken))}
    paired = {**pair_keys({k: s for k, s in missing.items() if k not in forced},
                          {k: v for k, v in extra.items() if k not in forced.values()}), **forced}
    out: list[NearMiss] = []
    elsewhere = [p for run in seen.everywhere for p in printed_pairs(run.stdout)]
    splits = {d.value for d in demands if d.kind is DemandKind.SEPARATOR and d.value.strip() and d.value not in ("=", ":")}
    for d in keys[:20]:
        partner = paired.get(d.value, "")
        use = key_use(texts, d.value)
        if not use.known and len(splits) == 1 and any(list_separator(v, "") for v in everything.get(d.value, [])[:50]):
            use = KeyUse(split=next(iter(splits)))  # a list split by a helper the source passes it to
        out.extend(key_near_misses(check, d.value, use, printed, partner, expected, output.line_values(d.value), elsewhere))
        if d.value in everything:
            mine = {v for p in printed if p.key == d.value for v in items_of(p.value)}
            values = [v for value in everything[d.value] for v in items_of(value)]
            out.extend(vocabulary_near_misses(check, d.value, values, mine, words.get(d.value, set()), pairs))
    return out


def plain_separator(check: str, demands: list[Demand], output: ProgramOutput) -> list[NearMiss]:
    """An output of plain lines (no ``key=`` field), each a list joined by one separator where the
    check splits on another it demands (``listen silent`` where it splits on ``,``)."""
    wanted = [d for d in demands if d.kind is DemandKind.SEPARATOR and d.met is False and d.unstated]
    lines = [ln.strip() for ln in (output.stdout or "").splitlines()[:2000] if ln.strip()]
    if len(wanted) != 1 or not lines or output.pairs():
        return []
    used = {list_separator(ln, wanted[0].value) for ln in lines if len(ln.split(None, 1)) > 1 or not ln.isalnum()}
    used.discard("")
    if len(used) != 1:
        return []
    sep = used.pop()
    line = f"{lines[0][:80]}: joined by {sep!r}, the check splits on {wanted[0].value!r}"
    return [NearMiss(wanted[0].value, sep, ("separator",), line, "separator", check, "", wanted[0].value, "", sep)]


def list_vocabulary(check: str, pairs: list[Pair], keys: list[str], output: ProgramOutput, seen: Seen) -> list[NearMiss]:
    """A list the check expected and a list the program gave, the same length, whose words map one
    to one (``['applied', 'rejected']`` for ``[True, False]``): a vocabulary near miss per word, in
    the notation the program printed (``true``, as its JSON had it, for Python's ``True``)."""
    key = keys[0] if len(keys) == 1 else ""
    printed = {v.lower(): v for p in [*output.pairs(), *seen.siblings] if not key or p.key == key for v in items_of(p.value)}
    out = []
    for pair in pairs:
        if pair.relation != "equal" or pair.cut:
            continue
        expected, actual = split_tokens(strip_quotes(pair.expected)), split_tokens(strip_quotes(pair.actual))
        for found, wanted in aligned_vocabulary(expected, actual):
            shown = printed.get(found.lower(), found.lower() if found in ("True", "False", "None") else found)
            note = "case" if shown.lower() == wanted.lower() else f"vocabulary: {shown} for {wanted}"
            out.append(NearMiss(repr(wanted), repr(shown), (note,), pair.line, "case" if note == "case" else "vocabulary",
                                check, key, wanted, key, shown))
    return out


def items_of(value: str) -> list[str]:
    """A printed value as the words it holds: the items of a JSON array (``[true, false]``), else itself."""
    v = value.strip()
    if v.startswith("[") and v.endswith("]") and len(v) <= 100_000:
        try:
            loaded = json.loads(v)
        except (ValueError, RecursionError):
            return [strip_quotes(value)]
        if isinstance(loaded, list):
            return [x if isinstance(x, str) else json.dumps(x) for x in loaded if not isinstance(x, (list, dict))]
    return [strip_quotes(value)]


def vocabulary_near_misses(check: str, key: str, values: list[str], mine: set[str], checker: set[str],
                           pairs: list[Pair]) -> list[NearMiss]:
    """The program's words under ``key`` (every value it printed there) paired one to one with the
    checker's (:func:`vocabulary_pairs`); those of the words this check's output holds (``mine``)."""
    seen = [(p.expected, p.actual) for p in pairs if p.relation == "equal"]
    out = []
    for found, wanted in vocabulary_pairs(values, checker, seen):
        if found not in mine:
            continue
        line = f"{key}={found} where the checker reads {key}={wanted}"
        kind = "case" if found.lower() == wanted.lower() else "vocabulary"
        note = "case" if kind == "case" else f"vocabulary: {found} for {wanted}"
        out.append(NearMiss(repr(wanted), repr(found), (note,), line, kind, check, key, wanted, key, found))
    return out


def checker_reads(sources: tuple[Source, ...], keys: set[str]) -> tuple[set[str], dict[str, set[str]]]:
    """Every key the grader's source reads (and this check's), and the words it compares each
    key's value with (a word compared on the line that names the key, or in the function that
    reads it only that key)."""
    reads = set(keys)
    words: dict[str, set[str]] = {}
    for src in sources:
        found = grader_reads(src.text, src.path)
        by_line: dict[int, list[str]] = {}
        for f in found:
            if f.kind == "key":
                reads.add(f.value)
                by_line.setdefault(f.line, []).append(f.value)
        for f in found:
            if f.kind == "literal" and WORD_VALUE.match(f.value):
                near = by_line.get(f.line) or by_line.get(f.line - 1) or []
                for k in near[:1]:
                    words.setdefault(k, set()).add(f.value)
    return reads, words


WORD_VALUE = re.compile(r"^[A-Za-z_][\w-]{0,40}$")
WORDS = re.compile(r"[A-Za-z_]\w{0,63}")
SMALL_INPUT = 100
NUMBERS = re.compile(r"(?<![\w.])-?\d{1,18}(?![\w.])")
"""Characters of input under which a recursion that hits the limit is taken for an endless one."""


@record
class Seen:
    """What is known of the program's output beyond this check's failure text: the runs a
    re-score observed for this check and for the whole grading, and what the grader's other
    checks recorded it printing (for the keys it printed anywhere)."""

    runs: tuple[Invocation, ...] = ()
    everywhere: tuple[Invocation, ...] = ()
    siblings: tuple[Printed, ...] = ()

    def printed(self, recorded: list[Printed]) -> dict[str, list[str]]:
        """Every key printed (recorded for this check and the grader's other checks, then in
        every observed run), with its values."""
        out: dict[str, list[str]] = {}
        for p in (*recorded, *self.siblings):
            out.setdefault(p.key, []).append(p.value)
        for run in self.everywhere:
            for p in printed_pairs(run.stdout):
                out.setdefault(p.key, []).append(p.value)
        return out

    def stdout(self) -> str:
        """What the program printed in every observed run (and the grader's other checks recorded)."""
        return "\n".join([*(r.stdout for r in self.everywhere[:200]), *(f"{p.key}={p.value}" for p in self.siblings[:2000])])

    def inputs(self) -> set[str]:
        """The words of every observed run's input (its arguments and standard input)."""
        out: set[str] = set()
        for run in self.everywhere[:200]:
            out.update(WORDS.findall(run.stdin[:100_000]))
            for arg in run.argv[1:]:
                out.update(WORDS.findall(arg))
        return out

    def within(self, ranges: tuple[tuple[int, int], ...]) -> bool:
        """True when every number of the input of this check's runs that failed lies in a range the
        brief states (the program failed on an input the brief covers)."""
        failed = [r for r in self.runs if r.failed]
        numbers = [int(n) for r in failed for n in NUMBERS.findall(" ".join([r.stdin[:10_000], *r.argv[1:]]))]
        return bool(ranges and numbers) and all(any(lo <= n <= hi for lo, hi in ranges) for n in numbers)

    def small_input(self) -> bool:
        """True when a run of the grading died of the recursion limit on a small input (an endless
        recursion, not a deep one)."""
        def small(r: Invocation) -> bool:
            text = " ".join([r.stdin, *r.argv[1:]])
            return len(text) < SMALL_INPUT and all(abs(int(n)) <= SMALL_INPUT for n in NUMBERS.findall(text))

        return any(r.failed and "recursion" in r.stderr[-2000:] and small(r) for r in self.everywhere)

    def echo(self, key: str) -> bool:
        """True when every observed value of ``key`` is a token of its run's input (argv, stdin)."""
        values, inputs = [], []
        for run in self.everywhere:
            for p in printed_pairs(run.stdout):
                if p.key == key:
                    values.append(p.value)
                    inputs.append(set(run.stdin.split()) | set(run.argv[1:]))
        return echoes(values, inputs)


def analyse(
    failure_id: str,
    check_key: str,
    message: str,
    brief: str | None,
    sources: tuple[Source, ...] | list[Source] = (),
    ctx: Context | None = None,
    cwd: str = "",
    command_words: tuple[str, ...] = (),
    code: tuple[CodeFile, ...] = (),
    bound: frozenset[str] = frozenset(),
    check: str = "",
    cancel: Cancel | None = None,
    everywhere: bool = False,
    seen: Seen | None = None,
) -> Evidence:
    """The evidence of one failure from its texts (pure; brief None when unreadable).

    ``code``: the graded attempt's files; ``bound``: values the grader's tables (or its other
    checks) bind to inputs; ``check``: the check id for the near misses; ``everywhere``: every
    check of this grader fails for this program; ``seen``: what a re-score observed of the
    program (used wherever the failure text does not show its output, or where it died)."""
    seen = seen or Seen()
    ctx = ctx or Context()
    notes: list[str] = []
    pairs = list(pairs_from_message(message, cancel, notes))
    pairs.extend(candidate_pairs(message, list(sources), command_words))
    nms = list(near_misses(pairs))
    found = message_demands(message, ctx, cancel) + pair_demands(pairs) + precision_demands(tuple(nms))
    poll(cancel)
    file_hint, _ = check_function(check_key)
    chosen = [s for s in sources if file_hint and s.path.rsplit("/", 1)[-1] == file_hint] or list(sources)
    for src in chosen:
        found.extend(from_source(f, src.path, bound) for f in source_demands(src.text, src.path, check_key))
    merged = merge(found)
    if len(merged) > MAX_DEMANDS:
        notes.append(f"{len(merged) - MAX_DEMANDS} more demands were read than the strip shows")
        merged = merged[:MAX_DEMANDS]
    merged = [replace(d, bound=True) if d.kind is DemandKind.LITERAL and d.value in bound else d for d in merged]
    output = program_output(message, cancel)
    observed = not output.known and bool(seen.runs)
    if observed:
        output = observed_output(seen.runs)
    index = brief_index(brief) if brief is not None else None
    if index is not None and index.ranges:
        merged = [replace(d, bound=True) if in_stated_range(d, pairs, index.ranges) else d for d in merged]
    crash = find_crash(message, output, ctx.model_files, cancel) or observed_crash(seen.runs)
    missed = missed_values(message, pairs)
    judged = []
    for d in merged:
        poll(cancel)
        where = lookup(index, d, cwd)
        d = met_by(replace(d, stated=where.stated, brief_line=where.line, brief_text=where.text), output, code,
                   "observed" if observed else "output", seen.stdout())
        judged.append(not_met(d, missed, crash))
    judged.sort(key=lambda d: (not d.evidence, not d.unstated, d.bound, KIND_ORDER[d.kind]))
    keys = [d.value for d in judged if d.kind is DemandKind.KEY]
    nms = distinct(nms + list_vocabulary(check, pairs, keys, output, seen) + plain_separator(check, judged, output)
                   + output_near_misses(check, judged, pairs, output, tuple(sources), index, seen))
    directed_nms = tuple(directed(nm, index, judged, check, keys[0] if len(keys) == 1 else "") for nm in nms)
    hints: list[Hint] = []
    if crash is not None:
        hidden = tuple(k for k in keys if output.known and not output.has_key(k))
        crash = replace(crash, hides=hidden)
        crash = replace(crash, everywhere=everywhere or (crash.limit == "recursion-limit" and seen.small_input()))
        hints.append(Hint("crash", crash.describe(), towards=crash.towards))
    hints += unread_hints(judged, output, directed_nms)
    answers = {strip_quotes(p.expected) for p in pairs if p.relation == "equal"}
    answers |= {w for ws in checker_reads(tuple(sources), set())[1].values() for w in ws}
    answers |= {f.value for s in sources for f in grader_reads(s.text, s.path) if f.kind == "literal"}
    judged = [answered(d, pairs, output, keys, answers) for d in judged]
    if crash is not None and crash.limit is None and index is not None and seen.within(index.ranges):
        # the program's own error cut it short on an input the brief covers: a failure of its own
        judged = [replace(d, crashed=True) if d.met is False and d.kind in (DemandKind.KEY, DemandKind.LITERAL) else d
                  for d in judged]
    words = seen.inputs()
    if words:
        judged = [replace(d, bound=True) if d.kind is DemandKind.KEY and d.value in words and not d.bound else d
                  for d in judged]
    return Evidence(failure_id, check, tuple(judged), directed_nms, tuple(pairs), tuple(hints), crash,
                    output_shown=output.known, brief_missing=brief is None, errors=tuple(notes), observed=observed,
                    guard=Guard(brief, frozenset(a for a in answers if WORD_VALUE.match(a)),
                                frozenset(seen.printed(output.pairs()))))


CALL = re.compile(r"\b[A-Za-z_]\w{0,80}\((?P<args>[^()\n]{0,200})\)")
NUMBER_ARG = re.compile(r"(?<![\w.])-?\d{1,18}(?![\w.])")


def in_stated_range(d: Demand, pairs: list[Pair], ranges: tuple[tuple[int, int], ...]) -> bool:
    """A literal the check expects from a call on a number inside a range the brief states
    (``ToRoman(4)`` where the brief says 1..3999): the brief states what the function does there,
    so the value is bound to its input, not an unstated demand (a value outside every stated range,
    ``ToRoman(0)``, stays a demand the brief may not state)."""
    if d.kind is not DemandKind.LITERAL or d.bound:
        return False
    texts = [p.call or p.line for p in pairs if p.relation == "equal" and strip_quotes(p.expected) == d.value]
    texts.append(d.context)
    for text in texts:
        for call in CALL.finditer(text):
            numbers = [int(n) for n in NUMBER_ARG.findall(call.group("args"))]
            if numbers and all(any(lo <= n <= hi for lo, hi in ranges) for n in numbers):
                return True
    return False


def missed_values(message: str, pairs: list[Pair]) -> set[str]:
    """Values the failure text says the check expected and did not get: the expected side of an
    equality whose actual side differs, and a golden case's expectation."""
    out = {strip_quotes(p.expected) for p in pairs
           if p.relation == "equal" and not p.cut and strip_quotes(p.expected) != strip_quotes(p.actual)}
    for d in golden_demands(message_lines(message)[:1]):
        out.add(d.value)
        out.update(d.alternatives)
    return out


def not_met(d: Demand, missed: set[str], crash: Crash | None) -> Demand:
    """A demand nothing showed met or not (``met`` None) that the failure itself shows was not
    met: the check says it expected the value and got another, the program crashed on this check
    before giving anything, or the failure text says a symbol it demands is not defined."""
    if d.met is None and d.kind is DemandKind.SYMBOL and "message" in d.origins:
        return replace(d, met=False, met_where="")
    if d.met is not None or d.bound or d.kind not in (DemandKind.LITERAL, DemandKind.KEY):
        return d
    if d.kind is DemandKind.LITERAL and (d.value in missed or any(a in missed for a in d.alternatives)):
        return replace(d, met=False, met_where="")
    if crash is not None and not crash.partial:
        return replace(d, met=False, met_where="")
    return d


def answered(d: Demand, pairs: list[Pair], output: ProgramOutput, keys: list[str], answers: set[str]) -> Demand:
    """An unmet literal the program answered in the checker's own words instead (it printed
    ``no`` where ``yes`` was expected, both words the checker compares with): a wrong answer, so
    the demand is no evidence that the brief left the vocabulary out."""
    if d.kind is not DemandKind.LITERAL or d.met is not False or d.bound or not d.value:
        return d
    given = {strip_quotes(p.actual) for p in pairs if p.relation == "equal" and strip_quotes(p.expected) == d.value}
    given |= {strip_quotes(p.value) for p in output.pairs() if p.key in keys}
    if given & (answers - {d.value}):
        return replace(d, answered=True)
    return d


def distinct(nms: list[NearMiss]) -> list[NearMiss]:
    """Near misses once each: a vocabulary read from the output that a pair of the failure text
    already shows is left out."""
    out: list[NearMiss] = []
    seen: set[tuple[str, str, str]] = set()
    for nm in nms:
        key = (nm.kind, strip_quotes(nm.found or nm.actual), strip_quotes(nm.wanted or nm.expected))
        if nm.kind == "vocabulary" and key in seen:
            continue
        seen.add(key)
        out.append(nm)
    return out


def unread_hints(demands: list[Demand], output: ProgramOutput, nms: tuple[NearMiss, ...]) -> list[Hint]:
    """A plain fact when a key the check reads is missing and no near miss explains it."""
    if nms or not output.known:
        return []
    read = {d.value for d in demands if d.kind is DemandKind.KEY}
    unread = [k for k in output.printed_keys() if k not in read]
    out = []
    for d in demands:
        if d.kind is DemandKind.KEY and d.met is False and unread:
            names = ", ".join(repr(k) for k in unread[:6])
            out.append(Hint("unread-keys", f"the check reads {d.value!r}, which the output does not print; it prints {names}, none of them the kind of value the check reads"))
    return out


@lru_cache(maxsize=64)
def pooled_bound(messages: tuple[str, ...]) -> frozenset[str]:
    """Expected values of a grader's failing checks in one run, when together they form a table
    (:data:`TABLE_VALUES` or more distinct plain values): bound in every check alike."""
    values: set[str] = set()
    for message in messages[:MAX_POOLED]:
        for p in pairs_from_message("\n".join(message.splitlines()[:200])):
            if p.relation == "equal" and canon(p.expected).pairs is None:
                values.add(strip_quotes(p.expected))
    return frozenset(values) if len(values) >= TABLE_VALUES else frozenset()


def code_files(store: Store, run: Run, attempt_number: int) -> tuple[CodeFile, ...]:
    """The graded attempt's files, read through the store (unreadable ones skipped)."""
    attempt = run.attempt(attempt_number)
    out = []
    for f in (attempt.files if attempt else ())[:MAX_CODE_FILES]:
        blob = store.text(f.ref)
        if not blob.error:
            out.append(CodeFile(f.path, blob.text))
    return tuple(out)


def evidence_for(store: Store, run: Run, failure: Failure, cancel: Cancel | None = None) -> Evidence:
    """The evidence of a failure, reading the brief, grader source, graded code and the other
    checks of the grader via the store (the same check across models is
    :func:`reviewer.analysis.evidence.across.with_across`). Raises
    :class:`~reviewer.analysis.reading.scan.Cancelled` when ``cancel`` says stop."""
    errors = []
    blob = store.brief(run)
    brief = None if blob.error else blob.text
    if blob.error:
        errors.append(f"brief: {blob.error}")
    grader = run.grader(failure.grader)
    sources: list[Source] = []
    code: tuple[CodeFile, ...] = ()
    saved: list[str] = []
    cwd, words = "", ()
    if grader is not None:
        cwd = grader.cwd
        words = tuple(re.findall(r"[A-Za-z_]\w*", grader.command))
        for ref in grader.source_refs:
            src = store.text(ref)
            if src.error:
                errors.append(f"{ref}: {src.error}")
            else:
                sources.append(Source(ref, src.text))
        code = code_files(store, run, grader.attempt)
        attempt = run.attempt(grader.attempt)
        saved = sorted({f.path.rsplit("/", 1)[0] if "/" in f.path else "." for f in (attempt.files if attempt else ()) if f.outside_expected})
    poll(cancel)
    bound: set[str] = set()
    for s in sources:
        bound |= bound_literals(s.text, s.path)
    own = [c for gc in store.grader_checks(run) if gc.grader == failure.grader for c in gc.checks]
    siblings = tuple(c.message for c in own if c.failing)
    bound |= pooled_bound(siblings)
    ctx = Context(frozenset(s.path.rsplit("/", 1)[-1] for s in sources), frozenset(f.path.rsplit("/", 1)[-1] for f in code))
    observation = latest_observation(store.root, f"{run.key}#{failure.grader}")
    others = tuple(p for c in own[:MAX_POOLED] if c.key != failure.check.key
                   for p in printed_pairs(program_output(c.message[:MAX_SIBLING]).stdout or ""))
    seen = Seen(observation.for_check(failure.check.key) if observation else (),
                observation.invocations if observation else (), others)
    ev = analyse(failure.id, failure.check.key, failure.check.message, brief, sources, ctx, cwd, words,
                 code=code, bound=frozenset(bound), check=failure.check_id, cancel=cancel,
                 everywhere=all(c.failing for c in own), seen=seen)
    hints = list(ev.hints)
    if saved and cwd not in saved:
        where = cwd or "the top of the workspace"
        stated = ev.guard.judge(Repair(RepairKind.GRADE_WHERE_SAVED, (saved[0],))).stated
        then = (f"{stated}, so the program did not follow it: grading them where they were saved would decide nothing"
                if stated else "decidable by grading them where they were saved")
        hints.append(Hint("saved-elsewhere", f"the graded files were saved under {', '.join(saved)}/, the grader ran in {where}: {then}"))
    ev = replace(ev, hints=tuple(hints), saved_elsewhere=tuple(saved) if saved and cwd not in saved else (),
                 errors=tuple(errors) + ev.errors, rerun=grader.rerun if grader is not None else None)
    return ev
