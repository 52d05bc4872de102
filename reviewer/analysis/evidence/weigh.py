"""Judging demands and near misses: does the brief state it, did the program meet it, and does
a near miss point towards specification.

An unstated demand is evidence only when the program did not meet it; a near miss is evidence
only when the notation the check demanded is one the brief never states (a program that
ignored a notation the brief gave failed on capability, however near it came).
"""

from __future__ import annotations

import re
from dataclasses import replace

from reviewer.analysis.reading.brief import UNSTATED, BriefIndex, Stated, Where
from reviewer.analysis.reading.code import CodeFile, defines, has_file, holds_text, prints_key, writes_literal
from reviewer.analysis.reading.demands import Demand, DemandKind
from reviewer.analysis.reading.found import Found
from reviewer.analysis.reading.nearmiss import NearMiss
from reviewer.analysis.reading.notation import has_digit, strip_quotes
from reviewer.analysis.reading.output import ProgramOutput

ROOT_WORDS = re.compile(r"\b(?:workspace|top[- ]level|top of|root|this folder|current (?:folder|directory)|same folder)\b", re.IGNORECASE)
MAX_ORIGINS = 8
PLAIN_WORD = re.compile(r"^[a-z]{1,40}$")


def from_source(found: Found, path: str, bound: frozenset[str] = frozenset()) -> Demand:
    """A demand read from grader source (input-bound when a table of the grader binds it)."""
    kind = DemandKind(found.kind)
    is_bound = found.input_text or (kind is DemandKind.LITERAL and (has_digit(found.value) or found.value in bound))
    origin = f"source:{path.rsplit('/', 1)[-1]}:{found.line}"
    return Demand(kind, found.value, (origin,), found.context, bound=is_bound, note=found.note)


def is_form(d: Demand) -> bool:
    """A demand on the form of a value (its precision), judged apart from the value itself."""
    return d.note.startswith("rounded to")


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
    if d.kind is DemandKind.KEY or (d.kind is DemandKind.SYMBOL and PLAIN_WORD.match(d.value)):
        return index.key(d.value)  # a plain word of the prose ("a matrix") names no key or package
    best = UNSTATED
    for value in (d.value, *d.alternatives):
        hit = index.find(value)
        if hit.stated is Stated.VERBATIM:
            return hit
        if hit.stated is Stated.NEAR and best.stated is Stated.UNSTATED:
            best = hit
    return best


def uses_separator(stdout: str, sep: str) -> bool:
    """True when the output joins things with ``sep`` (whitespace: two tokens on a line)."""
    if sep == " ":
        return len(stdout.split(None, 2)) >= 2
    if sep == "\n":
        return stdout.strip().count("\n") >= 1
    return sep in stdout


def met_by(d: Demand, output: ProgramOutput, code: tuple[CodeFile, ...], where: str = "output",
           elsewhere: str = "") -> Demand:
    """The demand with ``met`` set from the output, or where the output lacks it, the code;
    ``where``: what the output is (``output`` as recorded, ``observed`` in a re-score);
    ``elsewhere``: what the program printed in its other runs (a separator it uses there is one it knows)."""
    if d.bound or d.kind is DemandKind.ERROR or is_form(d):
        return d
    stdout = output.stdout or ""
    if d.kind is DemandKind.KEY:
        if output.known and output.has_key(d.value):
            return replace(d, met=True, met_where=where)
        found = prints_key(code, d.value)
        if found:
            return replace(d, met=True, met_where=found)
        return replace(d, met=False) if output.known else d
    if d.kind is DemandKind.LITERAL:
        words = {strip_quotes(v) for p in output.pairs() for v in (p.value,)} | set(stdout.split())
        if d.value and (d.value in words or any(a in words for a in d.alternatives)):
            return replace(d, met=True, met_where=where)
        found = writes_literal(code, d.value)
        if found:
            return replace(d, met=True, met_where=found)
        if d.note == "must contain" and code and d.value.strip():  # no string of the code holds it
            found = holds_text(code, d.value)
            return replace(d, met=bool(found), met_where=found)
        return replace(d, met=False) if output.stdout is not None and d.value.strip() else d
    if d.kind is DemandKind.SEPARATOR:
        if elsewhere and uses_separator(elsewhere, d.value) and len(elsewhere.split(None, 2)) >= 2:
            return replace(d, met=True, met_where=where)
        if len(stdout.split(None, 2)) < 2:  # one token or none: nothing was joined either way
            return d
        used = uses_separator(stdout, d.value)
        return replace(d, met=used, met_where=where if used else "")
    if d.kind is DemandKind.SYMBOL:
        found = defines(code, d.value)
        return replace(d, met=True, met_where=found) if found else d
    if d.kind is DemandKind.FILE:
        found = has_file(code, d.value)
        return replace(d, met=True, met_where=found) if found else d
    return d


def brief_states(index: BriefIndex | None, nm: NearMiss, demands: list[Demand]) -> Where:
    """Where the brief states the notation a near miss missed (unstated when it does not)."""
    if index is None:
        return UNSTATED
    seps = [d for d in demands if d.kind is DemandKind.SEPARATOR]
    if nm.kind == "renamed-key" and not any(n.endswith("printed as another kind") for n in nm.notations):
        return index.key(nm.wanted_key)
    if nm.kind == "renamed-key":  # the name is the program's too: what it missed is the kind of value
        return index.key(nm.wanted_key) if nm.wanted_key in (nm.found_key,) else UNSTATED
    if nm.kind == "separator" and nm.wanted_key:
        return index.separator(nm.wanted)
    if nm.kind in ("separator", "shape"):
        unstated = [d for d in seps if d.stated is Stated.UNSTATED]
        if nm.kind == "shape" and nm.wanted_key and index.key(nm.wanted_key).stated is Stated.UNSTATED:
            return UNSTATED
        if unstated or not seps:
            return UNSTATED
        first = seps[0]
        return Where(first.stated, first.brief_line, first.brief_text)
    if nm.kind == "precision":
        return index.rounding()
    if nm.kind == "case":
        case = index.case()
        return case if case.stated is not Stated.UNSTATED else (index.verbatim(nm.wanted) or UNSTATED)
    return index.verbatim(nm.wanted) or UNSTATED if nm.wanted else UNSTATED


def directed(nm: NearMiss, index: BriefIndex | None, demands: list[Demand], check: str, key: str) -> NearMiss:
    """The near miss with its check, keys (when known) and whether it points towards
    specification (the brief does not state the notation the check demanded)."""
    wanted_key = nm.wanted_key or key
    found_key = nm.found_key or (key if nm.kind not in ("renamed-key",) else "")
    for n in nm.notations:
        if n.startswith("key renamed: "):
            found_key, _, wanted_key = n[len("key renamed: ") :].partition(" for ")
    nm = replace(nm, check=nm.check or check, wanted_key=wanted_key, found_key=found_key)
    where = brief_states(index, nm, demands)
    if where.stated is Stated.UNSTATED:
        return replace(nm, towards=True, why="")
    return replace(nm, towards=False, why=f"the brief states it (line {where.line})")
