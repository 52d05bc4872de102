"""``S``: the numbers ground truth is for, drawn as bars.

Per task and per model: failures, labelled, and the specification / capability shares of the
labelled ones; the verifier's false-negative rate with its 95% Wilson interval; each
reviewer's progress. The same text as ``reviewer stats`` (computed in a worker from the final
verdicts on disk), with the bars coloured. Escape closes.
"""

from __future__ import annotations

import re
from typing import Callable

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.worker import get_current_worker

from reviewer.model.sanitize import one_line
from reviewer.ui.bindings import STATS_BINDINGS
from reviewer.ui.widgets.text_view import TextView

SPEC_BAR = re.compile(r"[█▏▎▍▌▋▊▉]+")
CAP_BAR = re.compile(r"░+")
INTERVAL = re.compile(r"[├┤●─]+")
HEADINGS = ("task ", "model ", "verifier false-negative rate", "progress per reviewer")
MAX_WIDTH = 120


def styled_line(line: str, first: bool = False) -> Content:
    """A line of the plain statistics text with its bars and headings styled."""
    content = Content(line)
    if first or line.startswith(HEADINGS):
        content = content.stylize("bold")
    for pattern, style in ((SPEC_BAR, "$text-accent"), (CAP_BAR, "$text-warning"), (INTERVAL, "bold $text-primary")):
        for found in pattern.finditer(line):
            content = content.stylize(style, found.start(), found.end())
    return content


def stats_lines(text: str) -> list[Content]:
    """The statistics text as display lines."""
    return [styled_line(line, i == 0) for i, line in enumerate(text.rstrip("\n").split("\n"))]


class StatsScreen(ModalScreen[None]):
    """Statistics of the folder's final verdicts."""

    BINDINGS = STATS_BINDINGS

    class Computed(Message):
        """The statistics text, or why it could not be computed."""

        def __init__(self, text: str, error: str = "") -> None:
            super().__init__()
            self.text = text
            self.error = error

    def __init__(self, read: Callable[[int], str]) -> None:
        super().__init__()
        self.read = read
        """Renders the statistics at a width (worker thread)."""

    def compose(self) -> ComposeResult:
        """A titled box with a scrolling text view."""
        with Vertical(id="stats-box") as box:
            box.border_title = Content("Statistics")
            box.border_subtitle = Content("r recompute \u00b7 escape close")
            yield TextView(wrap=True, id="stats-view")

    def on_mount(self) -> None:
        """Compute in a worker; say so meanwhile."""
        view = self.query_one(TextView)
        view.show_notice("computing the statistics\u2026")
        view.focus()
        self.action_recompute()

    def action_recompute(self) -> None:
        """Compute again (labels may have changed)."""
        width = max(60, min(MAX_WIDTH, self.app.size.width - 10))
        self.compute(width)

    @work(thread=True, exclusive=True, group="stats")
    def compute(self, width: int) -> None:
        """Gather the failures and verdicts and render the statistics (worker thread)."""
        try:
            text = self.read(width)
        except Exception as exc:  # noqa: BLE001 - shown on the screen, never a crash
            text, error = "", f"{type(exc).__name__}: {exc}"
        else:
            error = ""
        if not get_current_worker().is_cancelled:
            self.post_message(self.Computed(text, error))

    def on_stats_screen_computed(self, message: Computed) -> None:
        """Show the lines."""
        view = self.query_one(TextView)
        if message.error:
            view.show_notice(f"the statistics could not be computed: {one_line(message.error, 300)}", "$text-error")
            return
        view.set_lines(stats_lines(message.text))
