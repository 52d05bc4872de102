"""The question before a re-score (``R``): what will run, in the sandbox, with which repair; or why
it cannot run, with only Close."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from reviewer.model.sanitize import plain
from reviewer.review.rescoring import Plan, Refusal
from reviewer.ui.bindings import CONFIRM_BINDINGS


class RescoreDialog(ModalScreen[bool]):
    """What a re-score will run, asked before it runs; or why it cannot, with only Close."""

    BINDINGS = CONFIRM_BINDINGS
    DEFAULT_CSS = """
    RescoreDialog { align: center middle; }
    #rescore-box { width: 100; max-width: 96%; height: auto; max-height: 90%; }
    #rescore-text { height: auto; max-height: 55vh; margin: 1 0 0 0; }
    #rescore-buttons { height: auto; align-horizontal: right; }
    #rescore-buttons Button { margin-left: 2; }
    """

    def __init__(self, plan: Plan | Refusal) -> None:
        super().__init__()
        self.plan = plan

    def compose(self) -> ComposeResult:
        """The text and the buttons."""
        refused = isinstance(self.plan, Refusal)
        lines = [plain(self.plan.reason)] if isinstance(self.plan, Refusal) else self.plan.lines()
        with Vertical(id="rescore-box", classes="dialog") as box:
            observe = isinstance(self.plan, Plan) and self.plan.observe
            box.border_title = Content("Cannot re-score" if refused else
                                       "Observe the program?" if observe else "Re-score with the proposed repair?")
            with VerticalScroll(id="rescore-text"):
                yield Static(Content("\n".join(lines)), id="rescore-body", markup=False)
            with Horizontal(id="rescore-buttons"):
                if not refused:
                    yield Button("Observe" if observe else "Re-score", id="rescore-yes", variant="primary")
                yield Button("Close" if refused else "Cancel", id="rescore-no")
            keys = ("[b]escape[/b] close" if refused else
                    f"[b]y[/b] {'observe' if observe else 're-score'}  [b]n[/b] or [b]escape[/b] cancel")
            yield Static(Content.from_markup(keys), classes="dialog-keys")

    def on_mount(self) -> None:
        """Focus the first button (enter re-scores, or closes a refusal)."""
        self.query(Button).first().focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button was pressed."""
        event.stop()
        self.dismiss(event.button.id == "rescore-yes")

    def action_answer(self, yes: bool) -> None:
        """``y`` or ``n``/escape (a refusal only closes)."""
        self.dismiss(yes and isinstance(self.plan, Plan))
