"""The status line as parts: where the reviewer is, how far labelling has got, what is wrong.

``failure 3 of 41 · 12/41 labelled · counting 2,000/10,000 runs… · cluster 2/6 … · ⚠ 1 decision
not saved yet · ⚠ 2 not loaded (E) · ⎇ repo main``. Pure: the session's state in, parts out.
"""

from __future__ import annotations

from typing import Callable, Mapping, Protocol, Sequence

from reviewer.model.sanitize import one_line
from reviewer.model.wording import count
from reviewer.review.decisions import Decisions
from reviewer.review.gitstate import GitState
from reviewer.review.judging import JudgeWalks
from reviewer.review.moving.walking import Walking
from reviewer.review.moving.walks import Disagreements, ListedRuns, ListWalk
from reviewer.review.outcome import SEPARATOR, Part
from reviewer.review.reviewers import Reviewers
from reviewer.review.runlist.folder import Folder
from reviewer.review.runlist.listing import EMPTY_TALLY, SYNC_ROWS, Tally, tally
from reviewer.review.selection import Selection
from reviewer.store.settings.identity import Identity


class StatusSource(Protocol):
    """What the status line reads of the review session (a ``ReviewSession`` is one)."""

    identity: Identity
    folder: Folder
    selection: Selection
    walking: Walking
    reviewers: Reviewers
    decisions: Decisions
    git: GitState
    judges: JudgeWalks

    def listed_runs(self) -> ListedRuns:
        """The run list as the walks see it."""

    def labelled(self, run_key: str) -> int:
        """How many of a counted run's failures are labelled."""


class Totals:
    """The tally of the listed runs, recounted once per change (in a worker for big lists)."""

    def __init__(self) -> None:
        self.current: Tally | None = None
        self.last = EMPTY_TALLY

    def changed(self) -> None:
        """Counts, list or labels changed: recount before the status line is drawn again."""
        if self.current is not None:
            self.last = self.current
        self.current = None

    def get(self, order: Sequence[str], failures: Mapping[str, tuple[str, ...]],
            labelled: Callable[[str], int]) -> tuple[Tally, bool]:
        """The tally of the listed runs to show, and whether a worker should recount it (big lists)."""
        if self.current is not None:
            return self.current, False
        if len(order) <= SYNC_ROWS:
            self.current = tally(order, failures, labelled)
            return self.current, False
        return self.last, True

    def take(self, order: Sequence[str], counted: Tally, listed: Sequence[str]) -> bool:
        """A worker's tally of ``order``, if the list is still ``listed``."""
        if order is listed and self.current is None:
            self.current = counted
            return True
        return False


def position_parts(session: StatusSource, counts: Tally) -> list[Part]:
    """``failure 3 of 41 · 12/41 labelled`` (``+`` while counting)."""
    if not session.folder.scanned:
        return [("scanning the folder\u2026", "muted")]
    position = counts.position(session.selection, session.folder.failure_ids)
    more = "" if counts.complete else "+"
    if position:
        where = f"failure {position} of {counts.total}{more}"
    else:
        where = f"{counts.total}+ failures" if more else count(counts.total, "failure")
    parts: list[Part] = [(where, "bold"), SEPARATOR, (f"{counts.labelled}/{counts.total}{more} labelled", "")]
    if not counts.complete:
        parts += [SEPARATOR, (f"counting {counts.counted:,}/{count(counts.runs, 'run')}\u2026", "muted")]
    if session.folder.count_errors:
        parts += [SEPARATOR, (f"{count(len(session.folder.count_errors), 'run')} could not be parsed", "error")]
    return parts


def walk_parts(session: StatusSource) -> list[Part]:
    """``cluster 2/6 connected · test_x`` or ``disagreements 2 of 5 (1 adjudicated)``."""
    walk = session.walking.walk
    here = session.selection.failure_id
    if isinstance(walk, Disagreements):
        ids = walk.present(session.listed_runs())
        where = f"disagreements {ids.index(here) + 1} of {len(ids)}" if here in ids else count(len(ids), "disagreement")
        parts: list[Part] = [SEPARATOR, (where, "bold warning")]
        settled = session.reviewers.settled(ids)
        if settled:
            parts.append((f" ({settled} adjudicated)", "muted"))
        return parts
    judges = session.judges.mode
    if judges == "doubts":
        return [SEPARATOR, ("judges' doubts first", "bold accent"), (" (P)", "muted")]
    if judges:
        number, total = walk.position(session.listed_runs(), here) if isinstance(walk, ListWalk) else (0, 0)
        position = f"{number} of {total}" if number else count(total, "failure")
        return [SEPARATOR, (f"{judges} {position}", "bold accent"), (" (P)", "muted")]
    cluster = session.walking.cluster
    if isinstance(walk, ListWalk) and cluster is not None:
        number, total = walk.position(session.listed_runs(), here)
        position = f"{number}/{total}" if number else f"\u2013/{total}"
        return [SEPARATOR, ("cluster ", "muted"), (position, "bold accent"), (" ", ""),
                (f"{one_line(cluster.task, 30)} \u00b7 {one_line(cluster.key, 50)}", "accent"), (" (C, x: clear)", "muted")]
    return []


def status_parts(session: StatusSource, counts: Tally) -> list[Part]:
    """The whole status line, what matters most first (a narrow terminal cuts its end): where the
    reviewer is and how much is labelled, the walk, warnings, then who is labelling and git."""
    parts = position_parts(session, counts) + walk_parts(session)
    listing = session.folder.listing
    if session.folder.scanned and listing.hides(session.selection.run_key):
        parts += [SEPARATOR, (f"this run is not listed ({listing.describe() or 'folded'}: F, / change it)", "warning")]
    pending = session.decisions.pending()
    if pending:
        parts += [SEPARATOR, (f"\u26a0 {count(pending, 'decision')} not saved yet", "bold error")]
    if session.folder.load_errors:
        parts += [SEPARATOR, (f"\u26a0 {len(session.folder.load_errors)} not loaded (E)", "bold warning")]
    parts += [SEPARATOR, (f"labelling as {session.identity.describe()}", "muted")]
    return parts + session.git.status()
