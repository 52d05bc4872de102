"""Whether a failure is decidable by re-scoring: a proposed repair of notation would settle it.

Seed 003's rule: repair only the notation and re-score. When the evidence proposes a repair for
a notation the brief never stated (a renamed key, a token, a separator, a shape), a known
interpreter limit the program died on, or files saved where the brief said, re-scoring with that
repair answers the question either way: the check passes (the failure was the contract's) or it
still fails (the model's). A repair for a notation the brief did state settles nothing (the
program broke a stated contract whatever the re-score says), so it does not make a failure
decidable. Pure.
"""

from __future__ import annotations

from reviewer.analysis.evidence.engine import Evidence
from reviewer.analysis.evidence.proposals import propose, repair_of
from reviewer.model.records import record
from reviewer.model.repair import Repair, RepairKind, describe_repair, format_repair
from reviewer.model.sanitize import one_line

MARK = "\u27f2"
"""The mark of a failure decidable by re-scoring."""


@record
class Decidable:
    """The repairs that would settle a failure, in the order :func:`propose` ranks them."""

    repairs: tuple[Repair, ...]

    @property
    def text(self) -> str:
        """``rename-key:steps:mults (key steps->mults)``, several joined by `` + ``."""
        return " + ".join(f"{format_repair(r)} ({describe_repair(r)})" for r in self.repairs)

    @property
    def line(self) -> str:
        """The strip's line: the mark, the words, and the proposed repair (sanitised, one line)."""
        return one_line(f"{MARK} decidable by re-scoring \u00b7 re-score: proposed repair {self.text}", 400)


def settling(ev: Evidence) -> tuple[Repair, ...]:
    """The proposed repairs that would settle the failure (towards-specification ones)."""
    keys: set[tuple[RepairKind, tuple[str, ...]]] = set()
    for nm in ev.near_misses:
        r = repair_of(nm)
        if r is not None and nm.towards:
            keys.add((r.kind, r.args))
    for r in propose(ev):
        if r.kind in (RepairKind.LIFT_LIMIT, RepairKind.GRADE_WHERE_SAVED):
            keys.add((r.kind, r.args))
    return tuple(r for r in propose(ev) if (r.kind, r.args) in keys)


def decidable(ev: Evidence) -> Decidable | None:
    """The failure's settling repairs, or None when re-scoring would not decide it."""
    repairs = settling(ev)
    return Decidable(repairs) if repairs else None
