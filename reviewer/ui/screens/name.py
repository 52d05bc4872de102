"""Who is labelling? Asked on the first launch in a folder where others have labelled and the
name was only guessed (git's user.name, the login); the answer is saved in config.toml."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class NameScreen(ModalScreen[str | None]):
    """A name, prefilled with the guess; enter saves it, escape keeps the guess for this time."""

    BINDINGS = [Binding("escape", "cancel", "Keep the guess", priority=True)]

    def __init__(self, prompt: str, suggestion: str) -> None:
        super().__init__()
        self.prompt = prompt
        self.suggestion = suggestion

    def compose(self) -> ComposeResult:
        """The question, the name and the keys."""
        with Vertical(id="name-box", classes="dialog") as box:
            box.border_title = Content("Who is labelling?")
            yield Static(Content(self.prompt), classes="dialog-subject", markup=False)
            yield Input(value=self.suggestion, placeholder="your name", id="name-input")
            yield Static(Content.from_markup("[b]enter[/b] label as this name (saved in config.toml)  "
                                             "[b]escape[/b] keep the guess for now"), classes="dialog-keys")

    def on_mount(self) -> None:
        """Type at once."""
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: this name."""
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        """Escape: keep the guessed name, ask again next time."""
        self.dismiss(None)
