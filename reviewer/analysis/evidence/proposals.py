"""Repairs of notation the evidence proposes, for the re-score to apply.

Each near miss, known interpreter limit and file saved elsewhere suggests one
:class:`~reviewer.model.repair.Repair`: rename a key, map a value, change a separator,
re-serialise a value, lift a limit, grade where saved. Only those that re-express what the brief
left unstated are proposed (:mod:`.guard`): a repair of a stated demand would turn a capability
failure into a pass. Pure.
"""

from __future__ import annotations

from reviewer.analysis.evidence.engine import Evidence
from reviewer.analysis.evidence.guard import Judged
from reviewer.analysis.reading.nearmiss import NearMiss
from reviewer.model.repair import BadRepair, Repair, RepairKind, check_repair

LIMITS = {"int-max-str-digits": "int-max-str-digits", "recursion-limit": "recursion"}


def shape_name(wanted: str) -> str:
    """The re-serialisation a shape near miss asks for (``comma-list``, ``space-list``...); ""
    when no re-serialisation of the printed value gives the kind the check reads (a number)."""
    if "split on ','" in wanted:
        return "comma-list"
    if "split on whitespace" in wanted:
        return "space-list"
    if "split on ';'" in wanted:
        return "semicolon-list"
    if "split on '|'" in wanted:
        return "pipe-list"
    return ""


def repair_of(nm: NearMiss) -> Repair | None:
    """The repair one near miss proposes, or None when no notation repair answers it."""
    why = nm.line or nm.describe()
    if not nm.towards:
        why += f" ({nm.why or 'the brief states it'})"
    if nm.kind == "renamed-key" and nm.found_key and nm.wanted_key:
        return Repair(RepairKind.RENAME_KEY, (nm.found_key, nm.wanted_key), why)
    if nm.kind == "separator" and nm.wanted_key and bracketed(nm.wanted) != bracketed(nm.found):
        # one side a bracketed list, the other the same items joined: the value's shape, not a separator
        return Repair(RepairKind.RESERIALISE, (nm.wanted_key, "json-list" if bracketed(nm.wanted) else "comma-list"), why)
    if nm.kind == "separator" and is_separator(nm.found) and is_separator(nm.wanted):
        return Repair(RepairKind.SEPARATOR, (nm.wanted_key, nm.found, nm.wanted), why)
    if nm.kind == "shape" and nm.wanted_key and shape_name(nm.wanted):
        return Repair(RepairKind.RESERIALISE, (nm.wanted_key, shape_name(nm.wanted)), why)
    if nm.kind in ("vocabulary", "case", "quoting") and nm.found and nm.wanted:
        return Repair(RepairKind.MAP_VALUE, (nm.wanted_key, nm.found, nm.wanted), why)
    return None


def bracketed(value: str) -> bool:
    """A value written as a bracketed list (``['a', 'b']``, ``[1, 2]``)."""
    v = value.strip()
    return len(v) >= 2 and v[0] == "[" and v[-1] == "]"


def is_separator(text: str) -> bool:
    """A separator (a few characters, none a letter or digit), not a whole value."""
    return 0 < len(text) <= 4 and not any(ch.isalnum() for ch in text)


def repairs_of(nm: NearMiss, printed: frozenset[str]) -> list[Repair]:
    """The repairs one near miss proposes, in the order they apply: a renamed key the program
    also printed under the checker's name (in another shape) is first moved out of the way, and a
    renamed list joined another way is joined as the check splits it."""
    r = repair_of(nm)
    if r is None:
        return []
    out = [r]
    if r.kind is RepairKind.RENAME_KEY:
        new = r.args[1]
        if new in printed:
            out.insert(0, Repair(RepairKind.RENAME_KEY, (new, f"{new}{MOVED}"), f"makes room for {r.args[0]} as {new}"))
        if nm.rejoin and nm.rejoin[0] != nm.rejoin[1]:
            out.append(Repair(RepairKind.SEPARATOR, (new, nm.rejoin[0], nm.rejoin[1]), f"{new} is split on {nm.rejoin[1]!r}"))
    return out


MOVED = "_as_printed"
"""The suffix of the name a printed key is moved to when another key is renamed onto it."""


def candidates(evidence: Evidence) -> tuple[tuple[int, Repair], ...]:
    """Every repair the evidence suggests, ranked (0: towards specification), once each, in the
    order they apply."""
    ranked: list[tuple[int, Repair]] = []
    for nm in evidence.near_misses:
        for r in repairs_of(nm, evidence.guard.printed):
            try:  # rank 1: the brief states the notation, so the program ignored it (never proposed)
                ranked.append((0 if nm.towards else 1, check_repair(r)))
            except BadRepair:
                continue
    crash = evidence.crash
    if crash is not None and crash.limit in LIMITS:
        ranked.append((0 if crash.towards else 1, Repair(RepairKind.LIFT_LIMIT, (LIMITS[crash.limit],), crash.error)))
    for folder in evidence.saved_elsewhere:
        ranked.append((0, Repair(RepairKind.GRADE_WHERE_SAVED, (folder,), f"the graded files were saved under {folder}/")))
    onto = {r.args[1] for rank, r in ranked if r.kind is RepairKind.RENAME_KEY and not r.args[1].endswith(MOVED) and not rank}
    out: list[tuple[int, Repair]] = []
    for rank, r in sorted(ranked, key=lambda x: x[0]):
        if r.kind is RepairKind.RESERIALISE and r.args[0] in onto:
            continue  # another key renamed onto it is what the check reads: re-shaping this one would not help
        if all((r.kind, r.args) != (o.kind, o.args) for _, o in out):
            out.append((rank, r))
    return tuple(out)


def judged(evidence: Evidence) -> tuple[Judged, ...]:
    """Every repair the evidence suggests, with what the guard finds of it (a repair of something
    the brief states, or of one of the checker's own answers, is never proposed)."""
    ranked = candidates(evidence)
    repairs = tuple(r for _, r in ranked)
    out = []
    for rank, r in ranked:
        judged = evidence.guard.judge(r, repairs)
        if rank and judged.notation_only:
            judged = Judged(r, stated=f"the brief states this notation: {r.reason}" if r.reason else "the brief states this notation")
        out.append(judged)
    return tuple(out)


def propose(evidence: Evidence) -> tuple[Repair, ...]:
    """The repairs this failure's evidence proposes: notation the brief never stated (near misses
    towards specification, an interpreter limit it does not name, files saved elsewhere where it
    does not say where they go), towards-specification ones first, once each."""
    return tuple(j.repair for j in judged(evidence) if j.notation_only)
