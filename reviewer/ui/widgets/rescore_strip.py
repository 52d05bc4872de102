"""The re-score strip above the status line: what is running, how far it got, how to cancel it.

Hidden while no re-score runs. It draws what it is handed; the screen updates it from the
worker's progress messages and a clock.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from reviewer.model.sanitize import one_line

BAR = 16


def bar(fraction: float, width: int = BAR) -> str:
    """``███████░░░░░░░░░░░░░``."""
    filled = max(0, min(width, round(fraction * width)))
    return "\u2588" * filled + "\u2591" * (width - filled)


class RescoreStrip(Static):
    """``↻ re-scoring ███░░░ repaired run · 3.2 s · escape/R cancels · test_single_node``."""

    DEFAULT_CSS = """
    RescoreStrip {
        height: 1;
        padding: 0 1;
        background: $boost;
        color: $text;
    }
    """

    def __init__(self) -> None:
        super().__init__(Content(""), id="rescore-strip", markup=False)
        self.display = False  # nothing runs yet (set before mounting: no restyle)

    def running(self, subject: str, phase: str, fraction: float, seconds: float, cancel_keys: str) -> None:
        """Show a running re-score."""
        self.display = True
        self.update(Content.assemble(
            ("\u21bb re-scoring ", "bold $text-accent"), (bar(fraction), "$text-accent"),
            f"  {one_line(phase.partition(' (')[0], 30)} \u00b7 {seconds:.1f} s \u00b7 ", (cancel_keys, "bold"),
            (" cancels \u00b7 ", "$text-muted"), (one_line(subject, 60), "bold")))

    def done(self) -> None:
        """No re-score runs any more."""
        self.display = False
