"""The transcript as display lines: turn headers, texts, tool calls with their output, nudges.

Pure (safe in a worker): every recorded string is sanitised and capped, and enters a Content
as plain text.
"""

from __future__ import annotations

import json
from dataclasses import field
from typing import TYPE_CHECKING, Any

from textual.content import Content

from reviewer.model import ToolCall, Turn
from reviewer.model.records import record
from reviewer.model.sanitize import cap_text, clean, one_line
from reviewer.model.wording import count
from reviewer.ui.render.language import language_for
from reviewer.ui.render.lines import code_lines, plain_lines

if TYPE_CHECKING:
    from textual.highlight import HighlightTheme

ROLE_STYLES = {
    "system": "$text-muted",
    "user": "bold $text-primary",
    "assistant": "bold $text-accent",
    "tool": "$text-secondary",
    "harness": "bold $text-secondary",
}
NUDGE_STYLE = "bold $text-warning"
TURN_LINES = 400
ARGUMENTS_CAP = 200_000
"""Tool-call arguments longer than this are shown as text, not parsed."""
PATH_KEYS = ("path", "file", "filename", "file_path", "filepath")
CODE_KEYS = ("content", "contents", "code", "text", "new_str", "file_text", "source", "patch")
TURN_LINE = 1_000


@record(frozen=False)
class TranscriptLines:
    """The transcript as display lines, with each line's turn and each turn's span."""

    run_key: str
    lines: list[Content] = field(default_factory=list)
    turn_of_line: list[int] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    hidden: bool = False
    plain: bool = False
    """Its code drawn without colours (the first screen's)."""


def body(text: str, indent: str, style: str, out: TranscriptLines, index: int) -> None:
    """Append a block of sanitised, capped text, indented."""
    cleaned = clean(text[: TURN_LINES * TURN_LINE])
    out.hidden = out.hidden or cleaned.hidden
    capped = cap_text(cleaned.text.rstrip("\n"), TURN_LINES, TURN_LINE)
    if not capped.text:
        return
    for line in capped.text.split("\n"):
        out.lines.append(Content.styled(indent + line, style) if style else Content(indent + line))
        out.turn_of_line.append(index)
    if capped.cut_lines:
        out.lines.append(Content.styled(f"{indent}\u2026 {count(capped.cut_lines, 'more line')}", "italic $text-warning"))
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


def arguments_of(raw: str) -> dict[str, Any] | None:
    """A tool call's arguments as a JSON object, or None when they are not one (or too big to parse)."""
    if len(raw) > ARGUMENTS_CAP or not raw.lstrip().startswith("{"):
        return None
    try:
        found = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return found if isinstance(found, dict) else None


def call_lines(call: ToolCall, out: TranscriptLines, index: int, theme: type[HighlightTheme] | None) -> None:
    """``⚙ write_file`` then each argument: short ones on a line, long text as a block; code (the
    text of a call that names a file) highlighted by that file's name."""
    out.lines.append(Content.assemble("    ", ("\u2699 ", "$text-secondary"), (one_line(call.name, 60), "bold $text-secondary")))
    out.turn_of_line.append(index)
    args = arguments_of(call.arguments)
    if args is None:
        body(call.arguments, "      ", "$text-muted", out, index)
        return
    path = next((v for k, v in args.items() if k in PATH_KEYS and isinstance(v, str)), "")
    for key, value in args.items():
        if isinstance(value, str) and ("\n" in value or len(value) > 100):
            out.lines.append(Content.styled(f"      {one_line(key, 40)}:", "$text-muted"))
            out.turn_of_line.append(index)
            block(value, path if key in CODE_KEYS else "", out, index, theme)
        else:
            shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            out.lines.append(Content.assemble(("      " + one_line(key, 40) + ": ", "$text-muted"), one_line(shown, 300)))
            out.turn_of_line.append(index)


def block(text: str, path: str, out: TranscriptLines, index: int, theme: type[HighlightTheme] | None) -> None:
    """A long argument as indented lines, highlighted as code when ``path`` names its language (and
    there is a theme: None draws it plain)."""
    coloured = theme is not None and bool(path) and language_for(path) is not None
    prepared = code_lines(text[: TURN_LINES * TURN_LINE], path, TURN_LINE, theme=theme) if coloured \
        else plain_lines(text[: TURN_LINES * TURN_LINE], TURN_LINE)
    out.hidden = out.hidden or prepared.hidden
    bar = Content.styled("        \u2502 ", "$text-muted")
    for line in list(prepared.lines)[:TURN_LINES]:
        out.lines.append(bar + line)
        out.turn_of_line.append(index)


def build_lines(run_key: str, turns: tuple[Turn, ...], theme: type[HighlightTheme] | None) -> TranscriptLines:
    """Every turn: a header, its text, its tool calls with their output (code coloured by ``theme``;
    None: plain, for the first screen)."""
    out = TranscriptLines(run_key, plain=theme is None)
    for turn in turns:
        start = len(out.lines)
        out.lines.append(turn_header(turn))
        out.turn_of_line.append(turn.index)
        body(turn.text, "    ", NUDGE_STYLE if turn.nudge else "", out, turn.index)
        for call in turn.tool_calls:
            call_lines(call, out, turn.index, theme)
            body(call.output, "      \u2502 ", "$text-muted", out, turn.index)
        out.spans.append((start, len(out.lines) - 1))
        out.lines.append(Content(""))
        out.turn_of_line.append(turn.index)
    return out
