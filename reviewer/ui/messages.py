"""What the app's workers report. Every worker posts one of these; none touches the app itself.

Messages that supersede an older one of their kind (a newer count, a newer view) declare
``can_replace``, so a burst collapses to the newest.
"""

from __future__ import annotations

from typing import Mapping

from textual.message import Message

from reviewer.analysis.evidence import Evidence
from reviewer.model import LoadError, Run
from reviewer.review.folder import Scan
from reviewer.review.listing import Tally
from reviewer.review.reviewers import ReviewersSnapshot
from reviewer.review.rows import Rows
from reviewer.review.selection import Move, Selection
from reviewer.review.view import FailureView
from reviewer.store.gitcommit import CommitResult
from reviewer.store.gitrepo import RepoInfo, RunCommit
from reviewer.store.sessions import Changes
from reviewer.ui.render.panes import Rendered


class Scanned(Message):
    """The folder was scanned and this reviewer's labels loaded."""

    def __init__(self, scan: Scan) -> None:
        super().__init__()
        self.scan = scan


class Counted(Message):
    """Every run counted so far by the counting worker (cumulative: a newer one replaces it)."""

    def __init__(self, counted: Mapping[str, tuple[str, ...]], errors: Mapping[str, str], done: bool) -> None:
        super().__init__()
        self.counted = counted
        self.errors = errors
        self.done = done

    def can_replace(self, message: Message) -> bool:
        """A newer count holds everything an older one did."""
        return isinstance(message, Counted)


class Seeked(Message):
    """A move that needed uncounted runs, answered, with what was counted on the way."""

    def __init__(self, kind: str, asked: Selection, move: Move, found: dict[str, tuple[str, ...]]) -> None:
        super().__init__()
        self.kind = kind
        self.asked = asked
        self.move = move
        self.found = found


class ViewReady(Message):
    """A selection's view was read and its heavy parts rendered."""

    def __init__(self, view: FailureView, rendered: Rendered) -> None:
        super().__init__()
        self.view = view
        self.rendered = rendered

    def can_replace(self, message: Message) -> bool:
        """Only the newest view matters."""
        return isinstance(message, ViewReady)


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


class Tallied(Message):
    """Totals of a big list, recounted in a worker."""

    def __init__(self, order: list[str], tally: Tally) -> None:
        super().__init__()
        self.order = order
        self.tally = tally


class StaleChecked(Message):
    """Which of this reviewer's labels are stale (their evidence changed)."""

    def __init__(self, stale: Mapping[str, bool]) -> None:
        super().__init__()
        self.stale = stale


class ReviewersRead(Message):
    """Every reviewer's labels, as read from the folder."""

    def __init__(self, snapshot: ReviewersSnapshot) -> None:
        super().__init__()
        self.snapshot = snapshot


class RepoRead(Message):
    """The repository line (``info`` None outside git), or why git is off."""

    def __init__(self, info: RepoInfo | None, unsafe: str = "", error: str = "") -> None:
        super().__init__()
        self.info = info
        self.unsafe = unsafe
        self.error = error


class ProvenanceRead(Message):
    """Each run's last commit."""

    def __init__(self, provenance: dict[str, RunCommit]) -> None:
        super().__init__()
        self.provenance = provenance


class Committed(Message):
    """A commit of this reviewer's labels finished (``error`` when it failed)."""

    def __init__(self, result: CommitResult | None, error: str = "", unsafe: str = "") -> None:
        super().__init__()
        self.result = result
        self.error = error
        self.unsafe = unsafe


class FolderChanged(Message):
    """A live look at the folder found new, changed or removed runs."""

    def __init__(self, changes: Changes, runs: list[Run], errors: list[LoadError]) -> None:
        super().__init__()
        self.changes = changes
        self.runs = runs
        self.errors = errors


class Said(Message):
    """A worker has something to tell the reviewer (a theme that could not be saved...)."""

    def __init__(self, message: str, title: str, severity: str = "warning") -> None:
        super().__init__()
        self.message = message
        self.title = title
        self.severity = severity
