"""A brief's Markdown as lines of styled text, for one read-only text view.

Textual's ``Markdown`` widget mounts a widget per block: a 2 KB brief took about 30 ms to show,
on every move to a run of another task (the slowest part of a key press). The Brief pane only
reads, so the brief is turned into :class:`textual.content.Content` lines once (in a worker) and
shown in a :class:`reviewer.ui.widgets.text_view.TextView`, which wraps them at the pane's width
and can find text in them like the other panes.

Headings, paragraphs (bold, italic, struck, inline code), bullet and numbered lists (nested),
block quotes, code blocks (coloured by the language they name, plain when they name none),
tables, rules, images and raw HTML (as text) are drawn. Links show their text and their address
and are never followed: nothing in the lines is clickable. The source is recorded text: it is
only ever split into plain strings, never read as markup.
"""

from __future__ import annotations

import threading
from dataclasses import field
from typing import TYPE_CHECKING, Sequence

from textual.content import Content

from reviewer.model.records import record
from reviewer.model.sanitize import clean

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token
    from textual.highlight import HighlightTheme

HEADING_STYLES = {
    "h1": "bold $markdown-h1-color",
    "h2": "bold underline $markdown-h2-color",
    "h3": "bold $markdown-h3-color",
    "h4": "bold $markdown-h4-color",
    "h5": "italic $markdown-h5-color",
    "h6": "italic $markdown-h6-color",
}
EMPHASIS = {"strong_open": "bold", "em_open": "italic", "s_open": "strike"}
EMPHASIS_END = {"strong_close": "bold", "em_close": "italic", "s_close": "strike"}
MUTED = "$text-muted"
INLINE_CODE = "bold $text-accent"
LINK = "underline $text-primary"
QUOTE = "▌ "
BULLETS = ("• ", "◦ ", "▪ ")
RULE_WIDTH = 40
CODE_INDENT = "  "

OPENS_BLOCK = frozenset({"heading_open", "paragraph_open", "fence", "code_block", "hr", "html_block", "bullet_list_open",
                         "ordered_list_open", "list_item_open", "blockquote_open", "table_open"})
"""Tokens that start a block: the blank line due after the last block goes before them."""

_parsers = threading.local()


def parser() -> MarkdownIt:
    """A GitHub-like Markdown parser (tables, strikethrough), one per thread."""
    md = getattr(_parsers, "md", None)
    if md is None:
        from markdown_it import MarkdownIt  # loads with the first brief drawn, after the first screen

        md = _parsers.md = MarkdownIt("gfm-like", {"linkify": False}).disable("linkify")
    return md


@record(frozen=False, slots=False)
class Frame:
    """A container the lines are inside: a list item or a block quote."""

    first: Content
    """Its prefix on the first line written inside it ("• ", "1. ", "▌ ")."""
    rest: Content
    """Its prefix on every later line (spaces as wide as the marker; the quote bar again)."""
    used: bool = False


@record(frozen=False, slots=False)
class ListState:
    """A list being drawn: numbered from ``next`` (None for bullets), at nesting ``depth``."""

    next: int | None
    depth: int


@record(frozen=False, slots=False)
class Lines:
    """The lines drawn so far and, for each, the prefix its wrapped rows repeat."""

    lines: list[Content] = field(default_factory=list)
    hangs: list[Content] = field(default_factory=list)


class Renderer:
    """Walks markdown-it's tokens and writes lines."""

    def __init__(self, theme: type[HighlightTheme] | None) -> None:
        self.theme = theme
        self.out = Lines()
        self.frames: list[Frame] = []
        self.lists: list[ListState] = []
        self.blank = False
        """A blank line is due before the next block."""

    # ---- writing ------------------------------------------------------------------------------

    def prefix(self) -> tuple[Content, Content]:
        """The prefix of the next line and of its continuation rows (and the frames are used)."""
        head = Content("")
        hang = Content("")
        for frame in self.frames:
            head += frame.rest if frame.used else frame.first
            hang += frame.rest
            frame.used = True
        return head, hang

    def write(self, line: Content, indent: str = "") -> None:
        """A line inside the current containers (``indent``: more for its wrapped rows)."""
        head, hang = self.prefix()
        self.out.lines.append(head + line)
        self.out.hangs.append(hang + indent)

    def space(self) -> None:
        """The blank line due between two blocks (inside a quote it keeps the quote's bar)."""
        if self.blank and self.out.lines:
            bars = Content("").join(f.rest for f in self.frames if f.rest.plain.strip()).rstrip()
            self.out.lines.append(bars)
            self.out.hangs.append(bars)
        self.blank = False

    # ---- blocks -------------------------------------------------------------------------------

    def render(self, tokens: Sequence[Token]) -> Lines:
        """All the lines of a document."""
        i = 0
        while i < len(tokens):
            i = self.block(tokens, i)
        return self.out

    def block(self, tokens: Sequence[Token], i: int) -> int:
        """Draw the block starting at ``tokens[i]``; the index after it."""
        token = tokens[i]
        kind = token.type
        if kind in OPENS_BLOCK:
            self.space()
        if kind == "heading_open":
            text = self.inline(tokens[i + 1])
            self.write(text.stylize_before(HEADING_STYLES.get(token.tag, "bold")))
            self.blank = True
            return i + 3
        if kind == "paragraph_open":
            for line in self.inline_lines(tokens[i + 1]):
                self.write(line)
            self.blank = not token.hidden  # tight lists keep their items together
            return i + 3
        if kind in ("fence", "code_block"):
            self.code(token)
            self.blank = True
            return i + 1
        if kind == "hr":
            self.write(Content.styled("\u2500" * RULE_WIDTH, MUTED))
            self.blank = True
            return i + 1
        if kind == "html_block":
            for html_line in token.content.rstrip("\n").split("\n"):
                self.write(Content.styled(html_line, MUTED))
            self.blank = True
            return i + 1
        if kind in ("bullet_list_open", "ordered_list_open"):
            start = token.attrGet("start") if kind == "ordered_list_open" else None
            first = int(start) if isinstance(start, (int, str)) and str(start).isdigit() else 1
            self.lists.append(ListState(first if kind == "ordered_list_open" else None, len(self.lists)))
            return i + 1
        if kind in ("bullet_list_close", "ordered_list_close"):
            self.lists.pop()
            self.blank = self.blank or not self.lists  # a nested list ends inside its item
            return i + 1
        if kind == "list_item_open":
            state = self.lists[-1] if self.lists else ListState(None, 0)
            if state.next is None:
                marker = BULLETS[state.depth % len(BULLETS)]
            else:
                marker = f"{state.next}. "
                state.next += 1
            self.frames.append(Frame(Content.styled(marker, MUTED), Content(" " * len(marker))))
            return i + 1
        if kind == "list_item_close":
            self.frames.pop()
            return i + 1
        if kind == "blockquote_open":
            bar = Content.styled(QUOTE, MUTED)
            self.frames.append(Frame(bar, bar))
            return i + 1
        if kind == "blockquote_close":
            self.frames.pop()
            self.blank = True
            return i + 1
        if kind == "table_open":
            return self.table(tokens, i)
        if kind == "inline":
            for line in self.inline_lines(token):
                self.write(line)
            return i + 1
        return i + 1  # closing tags and anything unknown draw nothing

    def code(self, token: Token) -> None:
        """A code block, coloured by the language its fence names (plain text otherwise)."""
        words = (token.info or "").split()
        language = words[0] if words else "text"
        source = token.content.rstrip("\n")
        from textual.highlight import HighlightTheme, highlight

        try:
            coloured = highlight(source, language=language, theme=self.theme or HighlightTheme)
        except Exception:  # an odd language name: plain text, never a crash
            coloured = Content(source)
        for line in coloured.split("\n") if source else [Content("")]:
            self.write(Content(CODE_INDENT) + line, CODE_INDENT)

    def table(self, tokens: Sequence[Token], i: int) -> int:
        """A table: columns padded to their widest cell, the header row bold and underlined."""
        rows: list[list[Content]] = []
        header_rows = 0
        in_head = False
        row: list[Content] = []
        while i < len(tokens) and tokens[i].type != "table_close":
            kind = tokens[i].type
            if kind == "thead_open":
                in_head = True
            elif kind == "thead_close":
                in_head = False
            elif kind == "tr_open":
                row = []
            elif kind == "tr_close":
                rows.append(row)
                header_rows += in_head
            elif kind == "inline":
                row.append(self.inline(tokens[i]))
            i += 1
        columns = max((len(r) for r in rows), default=0)
        widths = [max((len(r[c]) for r in rows if c < len(r)), default=0) for c in range(columns)]
        sep = Content.styled(" \u2502 ", MUTED)
        last = " " * (sum(widths[:-1]) + len(sep) * (columns - 1))  # a long last cell wraps under itself
        for n, cells in enumerate(rows):
            cells = cells + [Content("")] * (columns - len(cells))
            line = sep.join(cell.pad_right(width - len(cell)) for cell, width in zip(cells, widths))
            if n < header_rows:  # underlined rather than ruled: a rule line would wrap on its own
                line = line.stylize_before("bold underline")
            self.write(line, last)
        self.blank = True
        return i + 1

    # ---- inline -------------------------------------------------------------------------------

    def inline_lines(self, token: Token) -> list[Content]:
        """An inline run split at hard line breaks."""
        return self.inline(token).split("\n")

    def inline(self, token: Token) -> Content:
        """The styled text of an inline token (soft breaks become spaces, hard ones newlines)."""
        parts: list[tuple[str, str] | str] = []
        styles: list[str] = []
        links: list[str] = []
        for child in token.children or ():
            kind = child.type
            style = " ".join(styles)
            if kind == "text":
                parts.append((child.content, style))
            elif kind == "softbreak":
                parts.append(" ")
            elif kind == "hardbreak":
                parts.append("\n")
            elif kind == "code_inline":
                parts.append((child.content, f"{style} {INLINE_CODE}".strip()))
            elif kind == "html_inline":
                parts.append((child.content, f"{style} {MUTED}".strip()))
            elif kind == "image":
                alt = child.content or "".join(c.content for c in child.children or ())
                src = str(child.attrGet("src") or "")
                parts.append((f"[image: {alt}]" + (f" ({src})" if src else ""), MUTED))
            elif kind in EMPHASIS:
                styles.append(EMPHASIS[kind])
            elif kind == "link_open":
                styles.append(LINK)
                links.append(str(child.attrGet("href") or ""))
            elif kind == "link_close":
                if LINK in styles:
                    styles.remove(LINK)
                href = links.pop() if links else ""
                if href:
                    parts.append((f" ({href})", MUTED))
            elif kind in EMPHASIS_END:
                wanted = EMPHASIS_END[kind]
                for n in range(len(styles) - 1, -1, -1):  # the innermost one still open
                    if styles[n] == wanted:
                        del styles[n]
                        break
        return Content.assemble(*[p if isinstance(p, str) or p[1] else p[0] for p in parts])


def markdown_lines(source: str, theme: type[HighlightTheme] | None = None) -> tuple[list[Content], list[Content]]:
    """A brief's lines and, for each, the prefix its wrapped rows repeat.

    The source is sanitised here too (the Brief pane hands over text sanitised already, which
    this leaves as it is): no escape or control character can reach a line. ``theme`` colours code
    blocks (None: Textual's own colours).
    """
    tokens = parser().parse(clean(source).text)
    out = Renderer(theme).render(tokens)
    return out.lines, out.hangs
