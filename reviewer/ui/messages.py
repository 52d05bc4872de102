"""What the app's workers report. Every worker posts one of these; none touches the app itself.

Messages that supersede an older one of their kind (a newer count, a newer view) declare
``can_replace``, so a burst collapses to the newest. A :class:`Found` message knows which
session method takes what it carries: the app hands it over and reports the outcome.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from textual.message import Message

from reviewer.model import LoadError, Run
from reviewer.review.moving.moves import Arrival
from reviewer.review.outcome import NOTHING, Outcome, Work, asking_for, saying
from reviewer.review.reviewers import ReviewersSnapshot
from reviewer.review.runlist.folder import Scan
from reviewer.review.runlist.listing import Tally
from reviewer.review.runlist.rows import Rows
from reviewer.review.session import ReviewSession
from reviewer.store.sessions.store import Changes
from reviewer.ui.render.panes import Rendered

if TYPE_CHECKING:
    from reviewer.analysis.evidence import Evidence
    from reviewer.store.git import CommitResult, RepoInfo, RunCommit


class Scanned(Message):
    """The folder was scanned and this reviewer's labels loaded."""

    def __init__(self, scan: Scan) -> None:
        super().__init__()
        self.scan = scan


class Found(Message):
    """Something a worker read that the session takes."""

    def take(self, session: ReviewSession) -> Outcome:
        """Hand it to the session; what to say, start and redraw."""
        raise NotImplementedError


class Counted(Found):
    """Every run counted so far by the counting worker (cumulative: a newer one replaces it)."""

    def __init__(self, counted: Mapping[str, tuple[str, ...]], errors: Mapping[str, str], done: bool) -> None:
        super().__init__()
        self.counted = counted
        self.errors = errors
        self.done = done

    def can_replace(self, message: Message) -> bool:
        """A newer count holds everything an older one did."""
        return isinstance(message, Counted)

    def take(self, session: ReviewSession) -> Outcome:
        """Merge the counts."""
        return session.folder.counted(self.counted, self.errors, self.done)


class Moved(Message):
    """A move was carried out (:meth:`ReviewSession.carry_out`): what it counted and the view where
    it landed, its heavy parts rendered (``rendered`` None: no view)."""

    def __init__(self, arrival: Arrival, rendered: Rendered | None) -> None:
        super().__init__()
        self.arrival = arrival
        self.rendered = rendered


class Coloured(Message):
    """The shown file's syntax colours, after its plain lines."""

    def __init__(self, rendered: Rendered) -> None:
        super().__init__()
        self.rendered = rendered


class EvidenceReady(Message):
    """A failure's evidence (``error`` when it could not be computed)."""

    def __init__(self, failure_id: str, evidence: Evidence | None, error: str = "") -> None:
        super().__init__()
        self.failure_id = failure_id
        self.evidence = evidence
        self.error = error


class ListBuilt(Message):
    """Rows of a big run list, built in a worker."""

    def __init__(self, generation: int, rows: Rows, order: list[str]) -> None:
        super().__init__()
        self.generation = generation
        self.rows = rows
        self.order = order


class Tallied(Found):
    """Totals of a big list, recounted in a worker."""

    def __init__(self, order: list[str], tally: Tally) -> None:
        super().__init__()
        self.order = order
        self.tally = tally

    def take(self, session: ReviewSession) -> Outcome:
        """The totals, if the list is still the same (the status line is redrawn after any take)."""
        session.totals.take(self.order, self.tally, session.folder.listing.order)
        return NOTHING


class StaleChecked(Found):
    """Which of this reviewer's labels are stale (their evidence changed)."""

    def __init__(self, stale: Mapping[str, bool]) -> None:
        super().__init__()
        self.stale = stale

    def take(self, session: ReviewSession) -> Outcome:
        """Labels found stale (or fresh again)."""
        return session.decisions.take_stale(self.stale)


class ReviewersRead(Found):
    """Every reviewer's labels, as read from the folder."""

    def __init__(self, snapshot: ReviewersSnapshot) -> None:
        super().__init__()
        self.snapshot = snapshot

    def take(self, session: ReviewSession) -> Outcome:
        """Everyone's labels (the disagreements walk starts here when asked for)."""
        return session.team.take(self.snapshot, session.listed_runs(), session.selection)


class RepoRead(Found):
    """The repository line (``info`` None outside git), or why git is off."""

    def __init__(self, info: RepoInfo | None, unsafe: str = "", error: str = "") -> None:
        super().__init__()
        self.info = info
        self.unsafe = unsafe
        self.error = error

    def take(self, session: ReviewSession) -> Outcome:
        """The repository line, or why git is off."""
        return session.git.read(self.info, self.unsafe, self.error)


class ProvenanceRead(Found):
    """Each run's last commit."""

    def __init__(self, provenance: dict[str, RunCommit]) -> None:
        super().__init__()
        self.provenance = provenance

    def take(self, session: ReviewSession) -> Outcome:
        """Each run's last commit (the shown run's goes on the Brief pane's border)."""
        session.git.provenance = self.provenance
        return asking_for(Work.SELECTION)


class Committed(Found):
    """A commit of this reviewer's labels finished (``error`` when it failed)."""

    def __init__(self, result: CommitResult | None, error: str = "", unsafe: str = "") -> None:
        super().__init__()
        self.result = result
        self.error = error
        self.unsafe = unsafe

    def take(self, session: ReviewSession) -> Outcome:
        """Say what was committed."""
        return session.git.committed(self.result, self.error, self.unsafe)


class FolderChanged(Found):
    """A live look at the folder found new, changed or removed runs."""

    def __init__(self, changes: Changes, runs: list[Run], errors: list[LoadError]) -> None:
        super().__init__()
        self.changes = changes
        self.runs = runs
        self.errors = errors

    def take(self, session: ReviewSession) -> Outcome:
        """Merge what changed without moving the reviewer's place."""
        return session.folder.take_changes(self.changes, self.runs, self.errors, session.selection.run_key)


class Said(Found):
    """A worker has something to tell the reviewer (a theme that could not be saved...)."""

    def __init__(self, message: str, title: str, severity: str = "warning") -> None:
        super().__init__()
        self.message = message
        self.title = title
        self.severity = severity

    def take(self, session: ReviewSession) -> Outcome:
        """Say it."""
        return saying(self.message, self.title, self.severity, 15)
