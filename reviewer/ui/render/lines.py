"""Turning recorded text into display lines: sanitised, capped, highlighted, diffed.

Everything here is pure and may run in a worker thread. Every input passes through
:func:`reviewer.model.sanitize.clean` first; lines come out as :class:`textual.content.Content`
built from plain strings (never parsed as markup). Terminal output keeps only SGR colours.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import field
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence, overload

from rich.ansi import AnsiDecoder
from rich.text import Text
from textual.content import Content

from reviewer.model.records import record
from reviewer.model.sanitize import TAB_STOP, clean, clean_and_cap
from reviewer.model.wording import count
from reviewer.ui.render.language import language_for

if TYPE_CHECKING:
    from textual.highlight import HighlightTheme

LINE_CAP = 4_000
"""Characters of one line rendered before a truncation marker (``e`` shows more)."""
MAX_LINES = 50_000
"""Lines rendered per file or output before the rest is cut."""
TAB_SIZE = TAB_STOP
MARKER = re.compile(r" \u2026\[line truncated: [\d,]+ more characters\]$")
MARKER_STYLE = "bold $text-warning on $warning-muted"
CUT_STYLE = "italic $text-warning"


class LazyLines(Sequence[Content]):
    """Plain display lines made into Content only when a line is looked at.

    A 20,000-line file shows 50 lines at a time: building 20,000 Content objects before the
    first of them is on screen would cost most of the time to open it.
    """

    __slots__ = ("texts", "line_cap", "made")

    def __init__(self, texts: list[str], line_cap: int) -> None:
        self.texts = texts
        """The sanitised, capped lines as strings."""
        self.line_cap = line_cap
        self.made: dict[int, Content] = {}

    def __len__(self) -> int:
        return len(self.texts)

    @overload
    def __getitem__(self, index: int) -> Content: ...

    @overload
    def __getitem__(self, index: slice) -> list[Content]: ...

    def __getitem__(self, index: int | slice) -> Content | list[Content]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.texts)))]
        if index < 0:
            index += len(self.texts)
        made = self.made.get(index)
        if made is None:
            made = self.made[index] = mark_cuts(Content(self.texts[index]), self.line_cap)
        return made

    def __iter__(self) -> Iterator[Content]:
        for i in range(len(self.texts)):
            yield self[i]


def plain_texts(lines: Sequence[Content]) -> Iterable[str]:
    """The lines as plain strings (without making Content of lazy lines)."""
    return lines.texts if isinstance(lines, LazyLines) else (line.plain for line in lines)


@record
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

    lines: Sequence[Content] = field(default_factory=list)
    hidden: bool = False
    controls: bool = False
    cut_chars: int = 0
    cut_lines: int = 0
    width: int = 0
    notes: tuple[str, ...] = ()


def mark_cuts(line: Content, line_cap: int) -> Content:
    """Style a truncation marker that :func:`cap_text` appended to an over-long line (see :mod:`reviewer.model.sanitize`)."""
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
    return [Content.styled(f"\u2026 {count(cut_lines, 'more line')} not shown", CUT_STYLE)]


def finish(lines: list[Content] | LazyLines, cleaned_hidden: bool, controls: bool, capped_lines: int,
           capped_chars: int, notes: tuple[str, ...]) -> Prepared:
    """Assemble a Prepared from lines and what was found."""
    tail = tail_note(capped_lines)
    if isinstance(lines, LazyLines):
        for note in tail:
            lines.made[len(lines.texts)] = note
            lines.texts.append(note.plain)
        width = max(map(len, lines.texts), default=0)
    else:
        lines = lines + tail
        width = max((len(line) for line in lines), default=0)
    return Prepared(lines, cleaned_hidden, controls, capped_chars, capped_lines, width, notes)


def split_lines(content: Content) -> list[Content]:
    """Split Content at every newline, keeping blank lines and styles."""
    offsets: list[int] = []
    for found in re.finditer("\n", content.plain):
        offsets += [found.start(), found.end()]
    return content.divide(offsets)[0::2] if offsets else [content]


def plain_lines(text: str, line_cap: int = LINE_CAP, notes: tuple[str, ...] = ()) -> Prepared:
    """Sanitised, capped lines without colour."""
    cleaned, capped = clean_and_cap(text, False, MAX_LINES, line_cap, TAB_SIZE)
    lines = LazyLines(capped.text.split("\n"), line_cap)
    return finish(lines, cleaned.hidden, cleaned.controls, capped.cut_lines, capped.cut_chars, notes)


def code_lines(text: str, path: str, line_cap: int = LINE_CAP, notes: tuple[str, ...] = (),
               theme: type[HighlightTheme] | None = None) -> Prepared:
    """Sanitised, capped lines highlighted by the language the file name says (plain if unknown).

    ``theme`` gives the token colours (the app's current theme: see ``reviewer.ui.theming``; None:
    Textual's own). Pygments loads with the first file coloured, after the first screen.
    """
    cleaned, capped = clean_and_cap(text, False, MAX_LINES, line_cap, TAB_SIZE)
    texts = capped.text.split("\n")
    lines = [Content(line) for line in texts]
    language = language_for(path)
    if language is not None:
        from textual.highlight import HighlightTheme, highlight

        try:
            coloured = split_lines(highlight(capped.text, language=language, theme=theme or HighlightTheme,
                                             tab_size=TAB_SIZE))[: len(texts)]
        except Exception:  # a lexer bug must not cost the reviewer the file
            coloured = []
        if [line.plain for line in coloured] == texts:
            lines = coloured
    lines = [mark_cuts(line, line_cap) for line in lines]
    return finish(lines, cleaned.hidden, cleaned.controls, capped.cut_lines, capped.cut_chars, notes)


def ansi_lines(text: str, line_cap: int = LINE_CAP, notes: tuple[str, ...] = ()) -> Prepared:
    """Terminal output: sanitised keeping SGR colours only, capped, as styled lines."""
    cleaned, capped = clean_and_cap(text, True, MAX_LINES, line_cap, TAB_SIZE)
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
    old_clean, old_capped = clean_and_cap(old, False, MAX_LINES, line_cap, TAB_SIZE)
    new_clean, new_capped = clean_and_cap(new, False, MAX_LINES, line_cap, TAB_SIZE)
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

