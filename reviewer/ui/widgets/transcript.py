"""The Transcript pane: the retry transcript turn by turn, nudges standing out."""

from __future__ import annotations

from dataclasses import dataclass, field

from textual import work
from textual.app import ComposeResult
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from reviewer.model import Turn
from reviewer.model.sanitize import cap_text, clean
from reviewer.ui.render import one_line
from reviewer.ui.state import RunDetail, Selection
from reviewer.ui.widgets.pane import HIDDEN_BANNER, Pane
from reviewer.ui.widgets.text_view import TextView

ROLE_STYLES = {
    "system": "$text-muted",
    "user": "bold $text-primary",
    "assistant": "bold $text-accent",
    "tool": "$text-secondary",
    "harness": "bold $text-secondary",
}
NUDGE_STYLE = "bold $text-warning"
TURN_LINES = 400
TURN_LINE = 1_000


@dataclass(slots=True)
class TranscriptLines:
    """The transcript as display lines, with each line's turn and each turn's span."""

    run_key: str
    lines: list[Content] = field(default_factory=list)
    turn_of_line: list[int] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    hidden: bool = False


def body(text: str, indent: str, style: str, out: TranscriptLines, index: int) -> None:
    """Append a block of sanitised, capped text, indented."""
    cleaned = clean(text[: TURN_LINES * TURN_LINE])
    out.hidden = out.hidden or cleaned.hidden
    capped = cap_text(cleaned.text.rstrip("\n").expandtabs(4), TURN_LINES, TURN_LINE)
    if not capped.text:
        return
    for line in capped.text.split("\n"):
        out.lines.append(Content.styled(indent + line, style) if style else Content(indent + line))
        out.turn_of_line.append(index)
    if capped.cut_lines:
        out.lines.append(Content.styled(f"{indent}\u2026 {capped.cut_lines:,} more lines", "italic $text-warning"))
        out.turn_of_line.append(index)


def turn_header(turn: Turn) -> Content:
    """``4 assistant · attempt 2`` (nudges: ``↻ carry on``)."""
    parts: list[Content | tuple[str, str] | str] = [(f"{turn.index + 1:>3} ", "$text-muted")]
    parts.append((one_line(turn.role, 20), ROLE_STYLES.get(turn.role, "bold")))
    if turn.nudge:
        parts += ["  ", ("\u21bb carry on", f"reverse {NUDGE_STYLE}"), ("  harness nudge", NUDGE_STYLE)]
    if turn.attempt is not None:
        parts += ["  ", (f"\u2192 attempt {turn.attempt}", "$text-success")]
    return Content.assemble(*parts)


def build_lines(run_key: str, turns: tuple[Turn, ...]) -> TranscriptLines:
    """Every turn: a header, its text, its tool calls with their output."""
    out = TranscriptLines(run_key)
    for turn in turns:
        start = len(out.lines)
        out.lines.append(turn_header(turn))
        out.turn_of_line.append(turn.index)
        body(turn.text, "    ", NUDGE_STYLE if turn.nudge else "", out, turn.index)
        for call in turn.tool_calls:
            out.lines.append(Content.assemble(
                "    ", ("\u2699 ", "$text-secondary"), (one_line(call.name, 60), "bold $text-secondary"),
                " ", (one_line(call.arguments, 400), "$text-muted"),
            ))
            out.turn_of_line.append(turn.index)
            body(call.output, "      \u2502 ", "$text-muted", out, turn.index)
        out.spans.append((start, len(out.lines) - 1))
        out.lines.append(Content(""))
        out.turn_of_line.append(turn.index)
    return out


INLINE_CHARS = 8_000
"""Transcripts up to this many characters are built at once, longer ones in a worker."""


class TranscriptPane(Pane):
    """The conversation that produced the attempts."""

    TITLE = "Transcript"

    class Built(Message):
        """Transcript lines built in a worker."""

        def __init__(self, built: TranscriptLines) -> None:
            super().__init__()
            self.built = built

    def __init__(self, id: str = "transcript") -> None:
        super().__init__(id=id)
        self.built: TranscriptLines | None = None
        self.wanted = ""
        self.placeholder_for = ""

    def compose_body(self) -> ComposeResult:
        """A wrapping text view."""
        yield TextView(wrap=True, id="transcript-view")

    @property
    def view(self) -> TextView:
        """The text view."""
        return self.query_one("#transcript-view", TextView)

    def focus_target(self) -> Widget:
        """Focus the transcript."""
        return self.view

    def detail_changed(self, detail: RunDetail | None) -> None:
        """Build the lines for a newly loaded run."""
        if detail is None or detail.run.key == self.wanted:
            return
        self.wanted = detail.run.key
        self.built = None
        self.set_banner([f"\u26a0 {one_line(detail.transcript_error, 300)}"] if detail.transcript_error else [])
        if not detail.turns:
            message = "cannot read the transcript" if detail.transcript_error else "no transcript recorded"
            self.view.set_lines([Content.styled(message, "$text-muted")])
            self.draw_header(self.review.selection)
            return
        if sum(len(turn.text) for turn in detail.turns) <= INLINE_CHARS:
            # a short transcript is built here: a worker's round trip would cost more than it
            self.on_transcript_pane_built(self.Built(build_lines(detail.run.key, detail.turns)))
            return
        self.view.show_notice("loading\u2026")
        self.build(detail.run.key, detail.turns)

    @work(thread=True, exclusive=True, group="transcript", description="build transcript lines")
    def build(self, run_key: str, turns: tuple[Turn, ...]) -> None:
        """Prepare the lines (worker thread)."""
        self.post_message(self.Built(build_lines(run_key, turns)))

    def on_transcript_pane_built(self, message: Built) -> None:
        """Show built lines if still wanted."""
        if message.built.run_key != self.wanted:
            return
        self.built = message.built
        self.view.set_lines(message.built.lines)
        if message.built.hidden:
            self.set_banner([HIDDEN_BANNER.replace("this file", "this transcript")])
        self.selection_changed(self.review.selection)

    def settled(self, selection: Selection) -> bool:
        """The selected run's transcript (or that it has none) is on screen."""
        detail = self.review.detail
        if detail is None or detail.run.key != selection.run_key:
            return selection.run_key not in self.review.runs_by_key
        if not detail.turns:
            return self.wanted == selection.run_key
        return self.built is not None and self.built.run_key == selection.run_key

    def selection_changed(self, selection: Selection) -> None:
        """Mark the current turn and bring it into view."""
        self.draw_header(selection)
        built = self.built
        if built is None or built.run_key != selection.run_key:
            if selection.run_key != self.wanted and self.placeholder_for != selection.run_key:
                self.placeholder_for = selection.run_key
                self.view.show_notice("loading\u2026")
            return
        if selection.turn is None or not 0 <= selection.turn < len(built.spans):
            self.view.set_marked(None, scroll=False)
            return
        start, end = built.spans[selection.turn]
        self.view.set_marked(start, frozenset(range(start, end + 1)))

    def draw_header(self, selection: Selection) -> None:
        """``turn 4/6``."""
        detail = self.review.detail
        if detail is None or detail.run.key != selection.run_key:
            self.set_header(Content.styled("loading\u2026", "$text-muted"))
            return
        total = len(detail.turns)
        current = "\u2013" if selection.turn is None else str(selection.turn + 1)
        nudges = sum(1 for t in detail.turns if t.nudge)
        parts: list[Content | tuple[str, str] | str] = [(f"turn {current}/{total}", "bold")]
        if nudges:
            parts += ["  ", (f"\u21bb {nudges} nudge{'s' if nudges != 1 else ''}", NUDGE_STYLE)]
        parts += ["  ", ("h/l step", "$text-muted")]
        self.set_header(Content.assemble(*parts))

    def on_text_view_line_clicked(self, message: TextView.LineClicked) -> None:
        """Click a line to make its turn current."""
        built = self.built
        if built is None or not 0 <= message.line < len(built.turn_of_line):
            return
        self.review.select_turn(built.turn_of_line[message.line])
