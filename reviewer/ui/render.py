"""Turning recorded text into display lines: sanitised, capped, highlighted, diffed.

Everything here is pure and may run in a worker thread. Every input passes through
:func:`reviewer.model.sanitize.clean` first; lines come out as :class:`textual.content.Content`
built from plain strings (never parsed as markup). Terminal output keeps only SGR colours.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from pygments.lexers import get_lexer_for_filename
from pygments.util import ClassNotFound
from rich.ansi import AnsiDecoder
from rich.text import Text
from textual.content import Content
from textual.highlight import HighlightTheme, highlight

from reviewer.model.sanitize import cap_text, clean

LINE_CAP = 4_000
"""Characters of one line rendered before a truncation marker (``e`` shows more)."""
MAX_LINES = 50_000
"""Lines rendered per file or output before the rest is cut."""
TAB_SIZE = 4
MARKER = re.compile(r" \u2026\[line truncated: [\d,]+ more characters\]$")
MARKER_STYLE = "bold $text-warning on $warning-muted"
CUT_STYLE = "italic $text-warning"


@dataclass(frozen=True, slots=True)
class Prepared:
    """Display lines and what the sanitiser and the caps found.

    Attributes:
        lines: one Content per line.
        hidden: bidi or invisible characters were found (shown as ⟨…⟩).
        controls: escape or control characters were found (made visible).
        cut_chars: characters left out of over-long lines.
        cut_lines: lines left out at the end.
        width: the widest line, in characters (for horizontal scrolling).
        notes: other facts worth a banner (binary, not UTF-8, read cut).
    """

    lines: list[Content] = field(default_factory=list)
    hidden: bool = False
    controls: bool = False
    cut_chars: int = 0
    cut_lines: int = 0
    width: int = 0
    notes: tuple[str, ...] = ()


def language_for(path: str) -> str | None:
    """The Pygments language for a file name, or None (plain text). Never guesses from content."""
    try:
        lexer = get_lexer_for_filename(path.rsplit("/", 1)[-1] or path)
    except ClassNotFound:
        return None
    except Exception:  # a hostile name must never break the pane
        return None
    return lexer.aliases[0] if lexer.aliases else None


def mark_cuts(line: Content, line_cap: int) -> Content:
    """Style a truncation marker that :func:`cap_text` appended to an over-long line."""
    if len(line) <= line_cap:
        return line
    found = MARKER.search(line.plain)
    if found is None:
        return line
    return line.stylize(MARKER_STYLE, found.start() + 1, found.end())


def tail_note(cut_lines: int) -> list[Content]:
    """A last line saying how many lines were left out."""
    if not cut_lines:
        return []
    return [Content.styled(f"\u2026 {cut_lines:,} more lines not shown", CUT_STYLE)]


def finish(lines: list[Content], cleaned_hidden: bool, controls: bool, capped_lines: int,
           capped_chars: int, notes: tuple[str, ...]) -> Prepared:
    """Assemble a Prepared from lines and what was found."""
    lines = lines + tail_note(capped_lines)
    width = max((len(line) for line in lines), default=0)
    return Prepared(lines, cleaned_hidden, controls, capped_chars, capped_lines, width, notes)


def body_of(text: str) -> str:
    """Text without its final newline: a file ``a\\n`` has one line, not two."""
    return text[:-1] if text.endswith("\n") else text


def split_lines(content: Content) -> list[Content]:
    """Split Content at every newline, keeping blank lines and styles."""
    offsets: list[int] = []
    for found in re.finditer("\n", content.plain):
        offsets += [found.start(), found.end()]
    return content.divide(offsets)[0::2] if offsets else [content]


def plain_lines(text: str, line_cap: int = LINE_CAP, notes: tuple[str, ...] = ()) -> Prepared:
    """Sanitised, capped lines without colour."""
    cleaned = clean(text)
    capped = cap_text(body_of(cleaned.text).expandtabs(TAB_SIZE), MAX_LINES, line_cap)
    lines = [mark_cuts(Content(line), line_cap) for line in capped.text.split("\n")]
    return finish(lines, cleaned.hidden, cleaned.controls, capped.cut_lines, capped.cut_chars, notes)


def code_lines(text: str, path: str, line_cap: int = LINE_CAP, notes: tuple[str, ...] = (),
               theme: type[HighlightTheme] = HighlightTheme) -> Prepared:
    """Sanitised, capped lines highlighted by the language the file name says (plain if unknown).

    ``theme`` gives the token colours (the app's current theme: see ``reviewer.ui.theming``).
    """
    cleaned = clean(text)
    capped = cap_text(body_of(cleaned.text).expandtabs(TAB_SIZE), MAX_LINES, line_cap)
    texts = capped.text.split("\n")
    lines = [Content(line) for line in texts]
    language = language_for(path)
    if language is not None:
        try:
            coloured = split_lines(highlight(capped.text, language=language, theme=theme, tab_size=TAB_SIZE))[: len(texts)]
        except Exception:  # a lexer bug must not cost the reviewer the file
            coloured = []
        if [line.plain for line in coloured] == texts:
            lines = coloured
    lines = [mark_cuts(line, line_cap) for line in lines]
    return finish(lines, cleaned.hidden, cleaned.controls, capped.cut_lines, capped.cut_chars, notes)


def ansi_lines(text: str, line_cap: int = LINE_CAP, notes: tuple[str, ...] = ()) -> Prepared:
    """Terminal output: sanitised keeping SGR colours only, capped, as styled lines."""
    cleaned = clean(text, keep_sgr=True)
    capped = cap_text(body_of(cleaned.text).expandtabs(TAB_SIZE), MAX_LINES, line_cap)
    decoder = AnsiDecoder()
    lines = []
    for raw in capped.text.split("\n"):
        decoded = decoder.decode_line(raw)
        lines.append(mark_cuts(safe_content(decoded), line_cap))
    return finish(lines, cleaned.hidden, cleaned.controls, capped.cut_lines, capped.cut_chars, notes)


def safe_content(text: Text) -> Content:
    """Content from decoded terminal text, with any escape byte left over made visible.

    A cap can cut an SGR sequence in half; its ESC must still never reach the terminal.
    Links (OSC 8) cannot survive :func:`clean`, but styles with links are dropped anyway.
    """
    plain = text.plain
    if "\x1b" in plain:
        plain = plain.replace("\x1b", "\u241b")
    spans = [span for span in text.spans if not (hasattr(span.style, "link") and getattr(span.style, "link", None))]
    return Content.from_rich_text(Text(plain, spans=spans, style=text.style, end=""))


DIFF_STYLES = {"+": "$text-success", "-": "$text-error", "@": "$text-accent"}


def diff_lines(
    old: str, new: str, old_label: str, new_label: str, line_cap: int = LINE_CAP
) -> Prepared:
    """A unified diff of two sanitised, capped texts, coloured by line kind."""
    old_clean = clean(old)
    new_clean = clean(new)
    old_capped = cap_text(body_of(old_clean.text).expandtabs(TAB_SIZE), MAX_LINES, line_cap)
    new_capped = cap_text(body_of(new_clean.text).expandtabs(TAB_SIZE), MAX_LINES, line_cap)
    diff = list(
        difflib.unified_diff(
            old_capped.text.split("\n"),
            new_capped.text.split("\n"),
            clean(old_label).text,
            clean(new_label).text,
            lineterm="",
        )
    )
    lines = []
    for i, line in enumerate(diff):
        style = "bold" if i < 2 else DIFF_STYLES.get(line[:1], "")
        lines.append(mark_cuts(Content.styled(line, style) if style else Content(line), line_cap))
    if not diff:
        lines = [Content.styled("no changes: the file is the same in both attempts", CUT_STYLE)]
    return finish(
        lines,
        old_clean.hidden or new_clean.hidden,
        old_clean.controls or new_clean.controls,
        0,
        old_capped.cut_chars + new_capped.cut_chars,
        (),
    )


def one_line(text: str, limit: int = 200) -> str:
    """Sanitised text squeezed onto one line (for headers, rows and notifications)."""
    flat = clean(text[: limit * 4 + 16]).text.replace("\n", " \u23ce ").replace("\t", " ")
    return flat if len(flat) <= limit else flat[: limit - 1] + "\u2026"
