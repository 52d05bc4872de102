"""A yes/no question before a change that touches many labels."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from reviewer.ui.bindings import CONFIRM_BINDINGS


class ConfirmDialog(ModalScreen[bool]):
    """Ask one question; ``y`` (or enter on Yes) says yes, ``n``/escape says no.

    Args:
        title: the box's title.
        question: the question, plain text (never parsed as markup).
    """

    BINDINGS = CONFIRM_BINDINGS

    def __init__(self, title: str, question: str) -> None:
        super().__init__()
        self.title_text = title
        self.question = question

    def compose(self) -> ComposeResult:
        """The question and two buttons."""
        with Vertical(id="confirm-box", classes="dialog") as box:
            box.border_title = Content(self.title_text)
            yield Static(Content(self.question), id="confirm-question", markup=False)
            with Horizontal(id="confirm-buttons"):
                yield Button("Yes", id="confirm-yes", variant="primary")
                yield Button("No", id="confirm-no")
            yield Static(Content.from_markup("[b]y[/b] yes  [b]n[/b] or [b]escape[/b] no  [b]enter[/b] the focused button"),
                         classes="dialog-keys")

    def on_mount(self) -> None:
        """Focus Yes, so enter confirms."""
        self.query_one("#confirm-yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button was pressed."""
        event.stop()
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)
