"""What the saved re-scores did, for the pass rates and the report: checks flipped, per failure.

Read from every reviewer's record (``<session>/rescores/<reviewer>.toml``, see
``sessions/README.md``): a re-score is evidence, not a label, so whose experiment it was does
not change what it shows, and no reviewer's name is carried here (blind mode stays blind).

A failing check is *repaired* when some re-score shows it failing as recorded and in the
control run and passing with repairs of notation the brief never stated (a re-score whose repairs
change what the brief states counts in no figure: its flips are evidence for capability) (the record's definition of *flipped*, and the
``repaired`` of :mod:`reviewer.rescore.tally`); every check of a re-run grading counts, not only
the failures asked for. The re-scored pass rate counts the repaired failures not labelled
specification as passes (:mod:`reviewer.analysis.stats.passrates`). Without any record, ``repaired``
is None and no re-scored figure is shown anywhere.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from reviewer.analysis.stats.facts import FailureKey
from reviewer.model.check import split_failure_id
from reviewer.model.records import record
from reviewer.rescore.record import FAILING, Entry, read_entries
from reviewer.rescore.tally import Tally, tally
from reviewer.store.sessions.protocol import Store

if TYPE_CHECKING:
    from reviewer.analysis.stats.summary import Scope, Stats


@record
class Rescored:
    """The re-scores of a folder.

    Attributes:
        repaired: failing checks some re-score flipped to pass; None when nothing was re-scored.
        lines: per failing check of a re-run grading, what its latest re-score found (one line).
        tally: per task and model, checks passing as recorded and with the repairs.
        errors: record files that could not be read.
        reviewers: whose re-score records these figures count (the record files' reviewers).
        only: the one reviewer whose records were asked for ("" for everyone's).
    """

    repaired: frozenset[FailureKey] | None
    lines: dict[FailureKey, str]
    tally: tuple[Tally, ...]
    errors: tuple[str, ...]
    reviewers: tuple[str, ...] = ()
    only: str = ""

    def provenance(self, me: str | None = None) -> str:
        """Whose re-score records the re-scored figures count: named, or, in the scope of one
        reviewer's own labels (``me``, blind mode), that reviewer's and how many others' (a name
        of another reviewer is never shown there)."""
        if self.repaired is None:
            return ""
        if self.only:
            return f"re-scored figures count only {'your' if self.only == me else self.only + chr(39) + 's'} re-score records"
        if me is None:
            names = ", ".join(self.reviewers) or "nobody"
            return f"re-scored figures count the re-score records of {names} (`--rescores-of NAME` counts one reviewer's)"
        others = len([r for r in self.reviewers if r != me])
        parts = (["yours"] if me in self.reviewers else []) + ([plural_count(others)] if others else [])
        return (f"re-scored figures count the re-score records of {' and '.join(parts) or 'nobody'} "
                "(`--rescores-of me` counts only yours)")

    @property
    def flipped(self) -> int:
        """Failing checks flipped to pass by some re-score."""
        return len(self.repaired or ())


def plural_count(n: int) -> str:
    """``1 other reviewer``, ``2 other reviewers``."""
    return f"{n} other reviewer" + ("" if n == 1 else "s")


def outcome(recorded: str, before: str, after: str) -> str:
    """What one re-score did to one check that failed as recorded."""
    if before not in FAILING:
        return f"not reproduced: the control run gave {before}"
    if after == "pass":
        return "flipped to pass"
    return f"still {after}"


def line(e: Entry, recorded: str, before: str, after: str) -> str:
    """``flipped to pass with rename-key:steps:mults · 2/4 -> 3/4 ... · 2026-12-01``."""
    with_ = f" with {', '.join(e.repairs)}" if e.repairs else " with no repair"
    parts = [outcome(recorded, before, after) + with_]
    if e.summary:
        parts.append(e.summary)
    parts.append(e.at[:10])
    return " · ".join(parts)


def rescored(store: Store, only: str = "") -> Rescored:
    """Every re-score of the scanned store's sessions, read once (``only``: one reviewer's records)."""
    sessions = sorted({r.session for r in store.runs})
    entries, errors = read_entries(store.root, sessions)
    if only:
        entries = [e for e in entries if e.reviewer == only]
    repaired: set[FailureKey] = set()
    lines: dict[FailureKey, str] = {}
    for e in sorted(entries, key=lambda x: x.at):  # the latest re-score's line wins
        for key, recorded, before, after in e.checks:
            if recorded not in FAILING:
                continue
            try:
                failure = split_failure_id(f"{e.grading}:{key}")
            except ValueError:
                continue
            if before in FAILING and after == "pass" and not e.stated:
                repaired.add(failure)
            lines[failure] = line(e, recorded, before, after)
    rows, tally_errors = tally(store, only) if entries else ((), [])
    return Rescored(frozenset(repaired) if entries else None, lines, rows,
                    tuple(dict.fromkeys([*errors, *tally_errors])), tuple(sorted({e.reviewer for e in entries})), only)


def stats_with_rescores(store: Store, scope: Scope, width: int, rescores_of: str = "") -> tuple[Stats, Rescored, str]:
    """The statistics, the folder's re-scores and the text ``reviewer stats`` prints (the app's ``S``
    shows the same): the pass rates with the re-scored one when something was re-scored, the judges
    against the scope's verdicts, then each task and model's checks passing as recorded and with the
    repairs."""
    from reviewer.analysis.stats.facts import collect
    from reviewer.analysis.stats.judged import judges_in_scope
    from reviewer.analysis.stats.summary import compute_stats, render_stats
    from reviewer.rescore.tally import render_tally

    rescores = rescored(store, rescores_of)
    facts = collect(store, only=scope.reviewer, count_passes=True)
    judges, problems = judges_in_scope(store, facts, scope.reviewer)
    stats = replace(compute_stats(facts, rescores.repaired, scope), judges=judges, judge_problems=problems)
    text = render_stats(stats, width)
    if rescores.repaired is not None:
        text += "\n" + rescores.provenance(scope.reviewer) + "\n"
    if rescores.tally:
        text += "\n" + render_tally(rescores.tally)
    return stats, rescores, text
