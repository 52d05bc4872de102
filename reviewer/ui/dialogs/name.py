"""Who is labelling? Asked on the first launch in a folder where others have labelled and the
name was only guessed (git's user.name, the login), the answer saved in config.toml; and in every
browser tab of ``reviewer serve`` (unless it was started with ``--reviewer``), where the name is
required and kept for that tab only."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

KEYS = "[b]enter[/b] label as this name (saved in config.toml)  [b]escape[/b] keep the guess for now"
REQUIRED_KEYS = "[b]enter[/b] label as this name"


class NameDialog(ModalScreen[str | None]):
    """A name, prefilled with the guess; enter saves it, escape keeps the guess for this time.

    Args:
        prompt: the question (plain text).
        suggestion: the name to prefill.
        required: there is no guess to keep: escape does not close the question.
        check: why a typed name cannot be used (None when it can); shown under the name.
    """

    BINDINGS = [Binding("escape", "cancel", "Keep the guess", priority=True)]

    def __init__(self, prompt: str, suggestion: str, required: bool = False,
                 check: Callable[[str], str | None] | None = None) -> None:
        super().__init__()
        self.prompt = prompt
        self.suggestion = suggestion
        self.required = required
        self.check = check

    def compose(self) -> ComposeResult:
        """The question, the name and the keys."""
        with Vertical(id="name-box", classes="dialog") as box:
            box.border_title = Content("Who is labelling?")
            yield Static(Content(self.prompt), classes="dialog-subject", markup=False)
            yield Input(value=self.suggestion, placeholder="your name", id="name-input")
            yield Static(Content(""), id="name-problem", markup=False)
            yield Static(Content.from_markup(REQUIRED_KEYS if self.required else KEYS), classes="dialog-keys")

    def on_mount(self) -> None:
        """Type at once."""
        self.query_one(Input).focus()

    def say(self, problem: str) -> None:
        """Show why the name cannot be used (the question stays)."""
        self.query_one("#name-problem", Static).update(Content.styled(problem, "bold $text-warning"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: this name (unless it cannot be used)."""
        event.stop()
        name = event.value.strip()
        problem = self.check(name) if self.check else None
        if problem is None and self.required and not name:
            problem = "type your name: your labels are saved under it"
        if problem:
            self.say(problem)
            return
        self.dismiss(name or None)

    def action_cancel(self) -> None:
        """Escape: keep the guessed name, ask again next time (when there is a guess to keep)."""
        if self.required:
            self.say("type your name first: your labels are saved under it")
            return
        self.dismiss(None)
