"""What the session's actions answer: things to tell the reviewer, and where to go next.

The session never talks to the screen. Each action returns an :class:`Outcome`: notices (a
message with a title and a severity, shown by the app as a toast) and, when the action moves
the reviewer, the move. Status-line pieces are :data:`Part` tuples of text and a style made of
words the app maps to its theme: ``bold``, ``italic``, ``muted``, ``accent``, ``warning``,
``error``, ``success``, ``primary``.
"""

from __future__ import annotations

import enum

from reviewer.model.records import record
from reviewer.review.selection import Move

Part = tuple[str, str]
"""A piece of a status line: (text, style words)."""
SEPARATOR: Part = ("  \u00b7  ", "")


@record
class Notice:
    """Something to tell the reviewer."""

    message: str
    title: str = ""
    severity: str = "information"
    """``information``, ``warning`` or ``error``."""
    timeout: float | None = None
    bell: bool = False


class Work(str, enum.Enum):
    """What the app is to start or redraw after an action (beyond the status line, always redrawn)."""

    SELECTION = "show the new selection"
    RELABEL = "redraw what shows labels (another reviewer's, or staleness)"
    LIST = "rebuild the run list"
    COUNTS = "repaint the run list's counts"
    VIEW = "read the view on screen again"
    COUNT = "count the runs not counted yet"
    SAVE_INDEX = "write the index cache"
    REVIEWERS = "read every reviewer's labels"
    REPOSITORY = "read the repository line"
    PROVENANCE = "read each run's last commit"
    RETRY = "retry saving decisions kept in memory"
    COMMIT = "commit this reviewer's label files"


@record
class Outcome:
    """The answer of an action.

    Attributes:
        notices: what to tell the reviewer.
        move: where to go next (None: stay).
        labels_changed: labels changed: repaint what shows them, read the others' labels again soon.
        work: what the app is to start or redraw.
    """

    notices: tuple[Notice, ...] = ()
    move: Move | None = None
    labels_changed: bool = False
    work: frozenset[Work] = frozenset()

    @property
    def retry(self) -> bool:
        """A decision is kept in memory: saving it is retried until it is on disk."""
        return Work.RETRY in self.work

    def then(self, other: "Outcome") -> "Outcome":
        """Both outcomes: notices of both, the later move, every flag and work item."""
        return Outcome(self.notices + other.notices, other.move if other.move is not None else self.move,
                       self.labels_changed or other.labels_changed, self.work | other.work)


def asking_for(*work: Work) -> Outcome:
    """An outcome that only asks for work."""
    return Outcome(work=frozenset(work))


NOTHING = Outcome()


def saying(message: str, title: str = "", severity: str = "information", timeout: float | None = None,
           bell: bool = False) -> Outcome:
    """An outcome that only says something."""
    return Outcome((Notice(message, title, severity, timeout, bell),))

