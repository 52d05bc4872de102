"""``H``: the history of the current failure's label in git (who set which verdict, when, where).

The history is read in a worker (one ``git log`` per session, see
:mod:`reviewer.store.git.history`); the screen says "loading…" until it arrives. Authors and
notes come from commits and label files other people wrote: they are shown sanitised, as
plain content, never as markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Mapping

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.worker import get_current_worker

from reviewer.model.sanitize import one_line
from reviewer.review.analyses import Unavailable
from reviewer.ui.render.badges import verdict_badge
from reviewer.ui.widgets.text_view import TextView

if TYPE_CHECKING:
    from reviewer.review.analyses import HistoryEntry

CLOSE: list[BindingType] = [
    Binding("escape", "dismiss", "Close", show=False),
    Binding("q", "dismiss", "Close", show=False),
    Binding("H", "dismiss", "Close", show=False),
]


def when(date: str) -> str:
    """``2026-11-02 14:03`` from an ISO 8601 date."""
    return one_line(date, 40).replace("T", " ")[:16]


def entry_line(entry: HistoryEntry, symbols: Mapping[str, str] | None = None) -> Content:
    """One change: commit, date, author, whose labels, verdict (or removed), note."""
    verdict = verdict_badge(entry.verdict.value, symbols) if entry.verdict else ("\u2715 removed", "$text-error")
    parts: list[Content | tuple[str, str] | str] = [
        (entry.short, "bold"), "  ", (when(entry.date), "$text-muted"), "  ",
        (f"{one_line(entry.author, 120):<24}", ""), "  ",
        (f"{one_line(entry.reviewer, 120):<16}", "$text-accent"), "  ", verdict,
    ]
    if entry.note:
        parts += ["  \u2014 ", (one_line(entry.note, 160), "$text-muted")]
    return Content.assemble(*parts)


BLINDED = ("Blind mode: only your own changes show until you decide this failure "
           "(r on the review screen shows the other reviewers' verdicts).")


def history_lines(entries: list[HistoryEntry], symbols: Mapping[str, str] | None = None,
                  blinded: bool = False) -> list[Content]:
    """The whole list, newest first, with a heading; a sentence when it is empty; what blind mode hides."""
    tail = [Content.styled(BLINDED, "$text-muted")] if blinded else []
    if not entries:
        return [Content.styled("No committed change to this label yet (labels not committed do not show here).",
                               "$text-muted"), *tail]
    head = Content.styled(f"{'commit':<7}  {'date':<16}  {'author':<24}  {'labels of':<16}  verdict", "bold underline")
    return [head, *(entry_line(e, symbols) for e in reversed(entries)), *tail]


class HistoryScreen(ModalScreen[None]):
    """The label history of one failure, loaded in a worker."""

    BINDINGS = CLOSE

    def __init__(self, failure_id: str, read: Callable[[str], list[HistoryEntry]], symbols: Mapping[str, str],
                 blinded: bool = False) -> None:
        super().__init__()
        self.read = read
        self.blinded = blinded
        """Blind mode hides the other reviewers' changes (``read`` leaves them out): say so."""
        self.symbols = symbols
        self.failure_id = failure_id
        self.entries: list[HistoryEntry] | None = None
        """The history once loaded (None while loading or after an error)."""

    def compose(self) -> ComposeResult:
        """A titled box with a scrolling list."""
        with Vertical(id="history-box") as box:
            box.border_title = Content("Label history")
            box.border_subtitle = Content(one_line(self.failure_id, 100))
            yield TextView(wrap=True, id="history-view")

    def on_mount(self) -> None:
        """Show "loading…" and read the history."""
        view = self.query_one(TextView)
        view.show_notice("loading\u2026")
        view.focus()
        self.load()

    @work(thread=True, exclusive=True, group="git-history")
    def load(self) -> None:
        """Read the failure's label history from git (worker thread)."""
        try:
            entries = self.read(self.failure_id)
        except Unavailable as exc:
            self.app.call_from_thread(self.failed, str(exc))
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.loaded, entries)

    def loaded(self, entries: list[HistoryEntry]) -> None:
        """Show the history (unless the screen was closed meanwhile)."""
        self.entries = entries
        self.show(history_lines(entries, self.symbols, self.blinded))

    def failed(self, message: str) -> None:
        """Say why there is no history."""
        self.show([Content.styled(one_line(message, 400), "$text-error")])

    def show(self, lines: list[Content]) -> None:
        """Fill the list if the screen is still open."""
        if not self.is_mounted:
            return
        try:
            self.query_one(TextView).set_lines(lines)
        except NoMatches:
            return
