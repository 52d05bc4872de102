"""The transcript as display lines: turn headers, texts, tool calls with their output, nudges.

Pure (safe in a worker): every recorded string is sanitised and capped, and enters a Content
as plain text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from textual.content import Content

from reviewer.model import Turn
from reviewer.model.sanitize import cap_text, clean, one_line

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
