"""Whether a failure is decidable by re-scoring: a proposed repair of notation would settle it.

Seed 003's rule: repair only the notation and re-score. When the evidence proposes a repair for
a notation the brief never stated (a renamed key, a token, a separator, a shape), a known
interpreter limit the program died on, or files the brief never said where to save, re-scoring
with that repair answers the question either way: the check passes (the failure was the
contract's) or it still fails (the model's). A repair of a demand the brief states settles
nothing (the program broke a stated contract whatever the re-score says), and a repair the run's
``[grader.rerun]`` cannot apply cannot run: neither makes a failure decidable (:func:`blocked`
says what would). Pure.
"""

from __future__ import annotations

from reviewer.analysis.evidence.engine import Evidence
from reviewer.analysis.evidence.proposals import propose, repair_of
from reviewer.model.records import record
from reviewer.model.repair import STDOUT_KINDS, Repair, RepairKind, describe_repair, format_repair
from reviewer.model.rerun import Rerun
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
    """The proposed repairs that would settle the failure: notation the brief never stated, an
    interpreter limit, files graded where they were saved (never a repair of a stated demand)."""
    return tuple(r for r in propose(ev) if r.kind in (RepairKind.LIFT_LIMIT, RepairKind.GRADE_WHERE_SAVED)
                 or any(nm.towards and same(repair_of(nm), r) for nm in ev.near_misses))


def same(a: Repair | None, b: Repair) -> bool:
    """True when two repairs do the same."""
    return a is not None and (a.kind, a.args) == (b.kind, b.args)


def runnable(rerun: Rerun | None, repair: Repair) -> bool:
    """True when the recorded ``[grader.rerun]`` can apply the repair: re-expressing output needs
    the ``program`` whose output the checker reads or files it ``reads``."""
    if rerun is None or rerun.problem:
        return False
    return repair.kind not in STDOUT_KINDS or bool(rerun.program or rerun.reads)


def decidable(ev: Evidence) -> Decidable | None:
    """The failure's settling repairs that a re-score can run here, or None when re-scoring
    would not decide it (or the run records no way to re-run its grader)."""
    repairs = tuple(r for r in settling(ev) if runnable(ev.rerun, r))
    return Decidable(repairs) if repairs else None


def blocked(ev: Evidence) -> str:
    """Why a re-score that would settle the failure cannot run ("" when it can, or when none
    would settle it): the ``[grader.rerun]`` it lacks, and the import option that records it."""
    repairs = settling(ev)
    if not repairs or any(runnable(ev.rerun, r) for r in repairs):
        return ""
    return rerun_missing(ev.rerun, any(r.kind in STDOUT_KINDS for r in repairs))


def rerun_missing(rerun: Rerun | None, needs_program: bool) -> str:
    """Why the recorded grader cannot be run again with a repair, naming what records it."""
    if rerun is None:
        return ("the run records no way to run its grader again (no [grader.rerun]): an import records one with "
                "`reviewer import pytest|junit|go-test ... --rerun-command CMD --grader-file FILE"
                + (" --program FILE`" if needs_program else "`") + " (sessions/README.md)")
    if rerun.problem:
        return f"its [grader.rerun] cannot be used: {rerun.problem}"
    return ("its [grader.rerun] names no `program` whose output the checker reads and no file it `reads`, so a "
            "notation repair has nothing to re-express: an import records the program with "
            "`reviewer import ... --program FILE`")
