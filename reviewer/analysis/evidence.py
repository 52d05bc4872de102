"""Checker-versus-brief evidence for one failure: what the check demanded, whether the brief
states each demand, and whether expected and actual differ only in notation.

:func:`analyse` is pure (texts in, :class:`Evidence` out); :func:`evidence_for` reads the brief,
the grader source and the run's files through a :class:`SessionStore` and calls it. Both are
safe to call from a worker thread. An unstated demand is evidence towards specification; it
never sets a label.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from reviewer.analysis.brief import UNSTATED, BriefIndex, Stated, Where, brief_index
from reviewer.analysis.demands import Context, Demand, DemandKind, message_demands, pair_demands
from reviewer.analysis.found import Found
from reviewer.analysis.nearmiss import NearMiss, near_misses
from reviewer.analysis.notation import has_digit, kv_pairs, strip_quotes
from reviewer.analysis.pairs import Pair, message_lines, pairs_from_message
from reviewer.analysis.source import case_expected, check_function, source_demands
from reviewer.model import Failure, Run
from reviewer.model.sanitize import plain
from reviewer.store.sessions import SessionStore

STDOUT_LINE = re.compile(r"^\s*stdout:\s?(?P<v>.*)$")
CAPTURED = re.compile(r"^-+ Captured stdout")
SECTION = re.compile(r"^[-=_]{3,} ")
CANDIDATE_WRONG = re.compile(r"^test (?P<i>\d+): wrong answer (?P<v>.+)$")
CANDIDATE_ERROR = re.compile(r"^test (?P<i>\d+): ")
ROOT_WORDS = re.compile(r"\b(?:workspace|top[- ]level|top of|root|this folder|current (?:folder|directory)|same folder)\b", re.IGNORECASE)
MAX_ORIGINS = 8
KIND_ORDER = {k: i for i, k in enumerate(DemandKind)}


@dataclass(frozen=True, slots=True)
class Source:
    """A grader source file's path (for display and language) and its text."""

    path: str
    text: str


@dataclass(frozen=True, slots=True)
class Evidence:
    """Everything the evidence panel shows for one failure.

    Attributes:
        failure_id: the failure.
        demands: what the check demanded, unstated first.
        near_misses: expected/actual pairs equal but for notation.
        pairs: every expected/actual pair read from the failure.
        hints: short sentences (a key the check reads is absent while another is printed).
        brief_missing: the brief could not be read, so nothing counts as stated.
        errors: what could not be read (a grader source file, the brief).
    """

    failure_id: str
    demands: tuple[Demand, ...] = ()
    near_misses: tuple[NearMiss, ...] = ()
    pairs: tuple[Pair, ...] = ()
    hints: tuple[str, ...] = ()
    brief_missing: bool = False
    errors: tuple[str, ...] = ()

    @property
    def unstated(self) -> tuple[Demand, ...]:
        """Demands the brief does not state (input-bound values excluded)."""
        return tuple(d for d in self.demands if d.unstated)

    @property
    def unstated_unmet(self) -> tuple[Demand, ...]:
        """Unstated demands the output did not already meet: the strongest evidence."""
        return tuple(d for d in self.unstated if d.met is not True)

    @property
    def near_miss(self) -> bool:
        """True when at least one pair differs only in notation."""
        return bool(self.near_misses)


def output_shown(message: str) -> str | None:
    """The program's output when the failure text shows it (captured stdout, ``stdout:``)."""
    lines = message_lines(message)
    parts: list[str] = []
    inside = False
    for ln in lines:
        if CAPTURED.match(ln):
            inside = True
            continue
        if inside and SECTION.match(ln):
            inside = False
        m = STDOUT_LINE.match(ln)
        if m:
            value = m.group("v").strip()
            value = strip_quotes(value) if value[:1] in "'\"" else value
            parts.append(value.replace("\\n", "\n").replace("\\t", "\t"))
        elif inside:
            parts.append(ln)
    return "\n".join(parts) if parts else None


def output_keys(output: str) -> list[str]:
    """Keys printed as ``key=value`` in an output."""
    keys: list[str] = []
    for line in output.splitlines():
        for token in line.split():
            pairs = kv_pairs(token) if "=" in token else None
            for k, _ in pairs or ():
                if k not in keys:
                    keys.append(k)
    return keys


def from_source(found: Found, path: str) -> Demand:
    """A demand read from grader source."""
    kind = DemandKind(found.kind)
    bound = found.input_text or (kind is DemandKind.LITERAL and has_digit(found.value))
    origin = f"source:{path.rsplit('/', 1)[-1]}:{found.line}"
    return Demand(kind, found.value, (origin,), found.context, bound=bound)


def merge(demands: list[Demand]) -> list[Demand]:
    """One demand per (kind, value): origins joined (at most :data:`MAX_ORIGINS`), input-bound
    when any reading says so."""
    merged: dict[tuple[DemandKind, str, bool], Demand] = {}
    origins: dict[tuple[DemandKind, str, bool], list[str]] = {}
    for d in demands:
        key = (d.kind, d.value, is_form(d))
        old = merged.get(key)
        if old is None:
            merged[key] = d
            origins[key] = list(d.origins)
            continue
        seen = origins[key]
        for o in d.origins:
            if len(seen) < MAX_ORIGINS and o not in seen:
                seen.append(o)
        if (d.bound and not old.bound) or (d.note and not old.note) or (d.alternatives and not old.alternatives):
            merged[key] = replace(old, bound=old.bound or d.bound, note=old.note or d.note, alternatives=old.alternatives or d.alternatives)
    return [replace(d, origins=tuple(origins[k])) for k, d in merged.items()]


def is_form(d: Demand) -> bool:
    """A demand on the form of a value (its precision), judged apart from the value itself."""
    return d.note.startswith("rounded to")


def lookup(index: BriefIndex | None, d: Demand, cwd: str = "") -> Where:
    """Where the brief states a demand (unstated without a brief)."""
    if index is None:
        return UNSTATED
    if is_form(d):
        return index.rounding()
    if d.kind is DemandKind.SEPARATOR:
        return index.separator(d.value)
    if d.kind is DemandKind.FILE:
        if d.note == "Go files in this folder":
            hit = index.verbatim(d.value)
            if hit:
                return hit
            for i, ln in enumerate(index.lines):
                if ROOT_WORDS.search(ln) and not cwd:
                    return index.at(i, Stated.NEAR)
            return index.file(cwd) if cwd else UNSTATED
        return index.file(d.value)
    if d.kind is DemandKind.LITERAL and not d.value.strip():
        return index.empty() if not d.value else index.separator(" ")
    best = UNSTATED
    for value in (d.value, *d.alternatives):
        hit = index.find(value)
        if hit.stated is Stated.VERBATIM:
            return hit
        if hit.stated is Stated.NEAR and best.stated is Stated.UNSTATED:
            best = hit
    return best


def precision_demands(nms: tuple[NearMiss, ...]) -> list[Demand]:
    """A rounding demand for each near-miss that differs only in precision."""
    out = []
    for nm in nms:
        for note in nm.notations:
            if note.startswith("precision:"):
                places = note.rsplit(" ", 1)[-1]
                out.append(Demand(DemandKind.LITERAL, strip_quotes(nm.expected), ("message",), nm.line or nm.describe(), note=f"rounded to {places} decimal places"))
    return out


def candidate_pairs(message: str, check_key: str, sources: list[Source], hints: tuple[str, ...]) -> list[Pair]:
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


def key_hints(demands: list[Demand], output: str | None, explained: bool) -> tuple[list[Demand], list[str]]:
    """Mark key demands met or not by the output; when no expected/actual pair explains the
    failure (``explained`` False), hint at printed keys the check never reads."""
    if output is None:
        return demands, []
    printed = output_keys(output)
    read = {d.value for d in demands if d.kind is DemandKind.KEY}
    marked, hints = [], []
    for d in demands:
        if d.kind is DemandKind.KEY:
            met = bool(re.search(r"(?<![\w])" + re.escape(d.value) + r"\s*[=:]", output))
            d = replace(d, met=met)
            unread = [k for k in printed if k not in read]
            if not met and unread and not explained:
                hints.append(f"the check reads key {d.value!r}, absent from the output; the output prints {', '.join(repr(k) for k in unread)}, which the check never reads")
        marked.append(d)
    return marked, hints


def analyse(
    failure_id: str,
    check_key: str,
    message: str,
    brief: str | None,
    sources: tuple[Source, ...] | list[Source] = (),
    ctx: Context = Context(),
    cwd: str = "",
    command_words: tuple[str, ...] = (),
) -> Evidence:
    """The evidence of one failure from its texts (pure; brief None when unreadable)."""
    pairs = list(pairs_from_message(message))
    pairs.extend(candidate_pairs(message, check_key, list(sources), command_words))
    nms = near_misses(pairs)
    found = message_demands(message, ctx) + pair_demands(pairs) + precision_demands(nms)
    file_hint, _ = check_function(check_key)
    chosen = [s for s in sources if file_hint and s.path.rsplit("/", 1)[-1] == file_hint] or list(sources)
    for src in chosen:
        found.extend(from_source(f, src.path) for f in source_demands(src.text, src.path, check_key))
    demands, hints = key_hints(merge(found), output_shown(message), bool(pairs))
    index = brief_index(brief) if brief is not None else None
    judged = []
    for d in demands:
        where = lookup(index, d, cwd)
        judged.append(replace(d, stated=where.stated, brief_line=where.line, brief_text=where.text))
    judged.sort(key=lambda d: (not d.unstated, d.bound, KIND_ORDER[d.kind]))
    return Evidence(failure_id, tuple(judged), nms, tuple(pairs), tuple(hints), brief is None)


def evidence_for(store: SessionStore, run: Run, failure: Failure) -> Evidence:
    """The evidence of a failure, reading the brief, grader source and file names via the store."""
    errors = []
    blob = store.brief(run)
    brief = None if blob.error else blob.text
    if blob.error:
        errors.append(f"brief: {blob.error}")
    grader = run.grader(failure.grader)
    sources: list[Source] = []
    model_files: set[str] = set()
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
        attempt = run.attempt(grader.attempt)
        model_files = {f.path.rsplit("/", 1)[-1] for f in (attempt.files if attempt else ())}
    ctx = Context(frozenset(s.path.rsplit("/", 1)[-1] for s in sources), frozenset(model_files))
    ev = analyse(failure.id, failure.check.key, failure.check.message, brief, sources, ctx, cwd, words)
    return replace(ev, errors=tuple(errors))


MARK = {Stated.VERBATIM: "✓", Stated.NEAR: "≈", Stated.UNSTATED: "✗"}


def render_evidence(ev: Evidence, width: int = 100) -> str:
    """The evidence as plain text (sanitised; for ``show`` and a Static via Text)."""
    lines = []
    n_stated = sum(1 for d in ev.demands if d.stated is not Stated.UNSTATED)
    lines.append(f"Demands of the check: {len(ev.demands)} found, {n_stated} stated in the brief, {len(ev.unstated)} unstated")
    if ev.brief_missing:
        lines.append("  (the brief could not be read: nothing counts as stated)")
    for d in ev.demands:
        mark = "·" if d.bound else MARK[d.stated]
        if d.bound:
            where = "input-bound value (its form is what a brief states)"
        elif d.stated is Stated.UNSTATED:
            where = "not stated in the brief"
        else:
            where = f"{d.stated.value}, brief line {d.brief_line}"
        extra = f" ({d.note})" if d.note else ""
        met = "" if d.met is None else " · printed" if d.met else " · not in the output"
        value = d.shown()
        if d.alternatives:
            value += " or " + " or ".join(repr(a) for a in d.alternatives)
        lines.append(f"  {mark} {d.kind.value:<9} {value[:60]}{extra}  — {where}{met}")
    if ev.near_misses:
        lines.append("Near-miss (notation only; a hint, not a verdict):")
        for nm in ev.near_misses:
            lines.append(f"  expected {nm.expected[:80]}")
            lines.append(f"  actual   {nm.actual[:80]}")
            lines.append(f"  differ in: {', '.join(nm.notations)}")
    for h in ev.hints:
        lines.append(f"Hint: {h}")
    for e in ev.errors:
        lines.append(f"Not read: {e}")
    return "\n".join(plain(ln)[: max(width, 40) * 2] for ln in lines) + "\n"
