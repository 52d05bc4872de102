"""Repairs of notation the evidence proposes, for the re-score to apply.

Each near miss, known interpreter limit and file saved elsewhere becomes one
:class:`~reviewer.model.repair.Repair`: rename a key, map a value, change a separator,
re-serialise a value, lift a limit, grade where saved. Repairs for notations the brief never
stated come first; one the brief did state is still proposed (re-scoring settles what it
would change), and its reason says the brief states it. Pure.
"""

from __future__ import annotations

from reviewer.analysis.evidence.engine import Evidence
from reviewer.analysis.reading.nearmiss import NearMiss
from reviewer.model.repair import Repair, RepairKind

LIMITS = {"int-max-str-digits": "int-max-str-digits", "recursion-limit": "recursion"}


def shape_name(wanted: str) -> str:
    """The re-serialisation a shape near miss asks for (``comma-list``, ``space-list``...)."""
    if "split on ','" in wanted:
        return "comma-list"
    if "split on whitespace" in wanted:
        return "space-list"
    if "number" in wanted:
        return "number"
    return "value"


def repair_of(nm: NearMiss) -> Repair | None:
    """The repair one near miss proposes, or None when no notation repair answers it."""
    why = nm.line or nm.describe()
    if not nm.towards:
        why += f" ({nm.why or 'the brief states it'})"
    if nm.kind == "renamed-key" and nm.found_key and nm.wanted_key:
        return Repair(RepairKind.RENAME_KEY, (nm.found_key, nm.wanted_key), why)
    if nm.kind == "separator" and nm.wanted_key and nm.found and nm.wanted:
        return Repair(RepairKind.SEPARATOR, (nm.wanted_key, nm.found, nm.wanted), why)
    if nm.kind == "shape" and nm.wanted_key:
        return Repair(RepairKind.RESERIALISE, (nm.wanted_key, shape_name(nm.wanted)), why)
    if nm.kind in ("vocabulary", "case", "quoting") and nm.found and nm.wanted:
        return Repair(RepairKind.MAP_VALUE, (nm.wanted_key, nm.found, nm.wanted), why)
    return None


def propose(evidence: Evidence) -> tuple[Repair, ...]:
    """The repairs this failure's evidence proposes, towards-specification ones first, once each."""
    ranked: list[tuple[int, Repair]] = []
    for nm in evidence.near_misses:
        r = repair_of(nm)
        if r is not None:
            ranked.append((0 if nm.towards else 1, r))
    crash = evidence.crash
    if crash is not None and crash.limit in LIMITS:
        ranked.append((0, Repair(RepairKind.LIFT_LIMIT, (LIMITS[crash.limit],), crash.error)))
    for folder in evidence.saved_elsewhere:
        ranked.append((1, Repair(RepairKind.GRADE_WHERE_SAVED, (folder,), f"the graded files were saved under {folder}/")))
    out: list[Repair] = []
    for _, r in sorted(ranked, key=lambda x: x[0]):
        if all((r.kind, r.args) != (o.kind, o.args) for o in out):
            out.append(r)
    return tuple(out)
