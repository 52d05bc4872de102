"""The load-errors screen: everything in the folder that did not load, and why."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen

from reviewer.model import LoadError
from reviewer.model.sanitize import one_line
from reviewer.model.wording import count
from reviewer.ui.screens.help import CLOSE, CLOSE_HINT
from reviewer.ui.widgets.text_view import TextView


class ErrorsScreen(ModalScreen[None]):
    """A list of load errors (path: reason), sanitised."""

    BINDINGS = CLOSE

    def __init__(self, errors: list[LoadError]) -> None:
        super().__init__()
        self.errors = errors

    def compose(self) -> ComposeResult:
        """A titled box with a scrolling list."""
        with Vertical(id="errors-box") as box:
            box.border_title = Content(f"{count(len(self.errors), 'item')} not loaded" if self.errors else "Load errors")
            box.border_subtitle = Content(CLOSE_HINT)
            yield TextView(id="errors-view")

    def on_mount(self) -> None:
        """Fill the list."""
        lines = [
            Content.assemble((one_line(e.path, 200), "bold $text-error"), ": ", one_line(e.reason, 400))
            for e in self.errors
        ] or [Content("everything loaded")]
        view = self.query_one(TextView)
        view.set_lines(lines)
        view.focus()
