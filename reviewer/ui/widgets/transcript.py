"""The Transcript pane: the retry transcript turn by turn, nudges standing out."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from reviewer.model.sanitize import one_line
from reviewer.review.view import FailureView
from reviewer.ui.render.badges import Piece
from reviewer.ui.render.banners import HIDDEN_BANNER
from reviewer.ui.render.transcript import NUDGE_STYLE, TranscriptLines
from reviewer.ui.widgets.pane import Pane
from reviewer.ui.widgets.text_view import TextView


def transcript_header(view: FailureView) -> Content:
    """``turn 4/6  ↻ 2 nudges  h/l step``."""
    total = len(view.turns)
    turn = view.selection.turn
    nudges = sum(1 for t in view.turns if t.nudge)
    parts: list[Piece] = [(f"turn {'–' if turn is None else turn + 1}/{total}", "bold")]
    if nudges:
        parts += ["  ", (f"\u21bb {nudges} nudge{'s' if nudges != 1 else ''}", NUDGE_STYLE)]
    parts += ["  ", ("h/l step", "$text-muted")]
    return Content.assemble(*parts)


class TranscriptPane(Pane):
    """The conversation that produced the attempts."""

    TITLE = "Transcript"

    class TurnPicked(Message):
        """A line of a turn was clicked."""

        def __init__(self, turn: int) -> None:
            super().__init__()
            self.turn = turn

    def __init__(self, id: str = "transcript") -> None:
        super().__init__(id=id)
        self.built: TranscriptLines | None = None
        self.shown_run = ""
        self.view = TextView(wrap=True, id="transcript-view")
        """The text view."""

    def compose_body(self) -> ComposeResult:
        """A wrapping text view."""
        yield self.view

    def focus_target(self) -> Widget:
        """Focus the transcript."""
        return self.view

    def show(self, view: FailureView, built: TranscriptLines | None) -> None:
        """The turns (drawn again only for another run) with the current turn marked."""
        run_key = view.run.key if view.run is not None else ""
        self.set_header(transcript_header(view))
        if built is not self.built or run_key != self.shown_run:
            self.built, self.shown_run = built, run_key
            banner = [f"\u26a0 {one_line(view.transcript_error, 300)}"] if view.transcript_error else []
            if built is None:
                message = "cannot read the transcript" if view.transcript_error else "no transcript recorded"
                self.view.set_lines([Content.styled(message, "$text-muted")])
            else:
                self.view.set_lines(built.lines)
                if built.hidden:
                    banner.append(HIDDEN_BANNER.replace("this file", "this transcript"))
            self.set_banner(banner)
        turn = view.selection.turn
        if built is None or turn is None or not 0 <= turn < len(built.spans):
            self.view.set_marked(None, scroll=False)
            return
        start, end = built.spans[turn]
        self.view.set_marked(start, frozenset(range(start, end + 1)))

    def on_text_view_line_clicked(self, message: TextView.LineClicked) -> None:
        """Click a line to make its turn current."""
        built = self.built
        if built is not None and 0 <= message.line < len(built.turn_of_line):
            message.stop()
            self.post_message(self.TurnPicked(built.turn_of_line[message.line]))
