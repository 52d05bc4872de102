"""A read-only text view on Textual's line API: only the visible lines are ever rendered.

Shared by the Code, Grader and Transcript panes. Lines are held as
:class:`textual.content.Content` (built from plain strings, never markup); each frame renders
just the rows on screen, cropped to the visible columns, so a 20,000-line file or a line of
millions of characters scrolls at the same speed as a short one. What a find (``ctrl+f``) has
found is kept by a :class:`~reviewer.ui.widgets.text_find.TextFind`.
"""

from __future__ import annotations

from typing import Sequence

from rich.segment import Segment
from textual import events
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.widget import Widget

from reviewer.ui.bindings import TEXT_VIEW_BINDINGS
from reviewer.ui.render.lines import plain_texts
from reviewer.ui.render.wrap import Row, fold
from reviewer.ui.widgets.text_find import TextFind


class TextView(ScrollView, can_focus=True):
    """Scrollable lines of Content with an optional gutter, a marked line and find highlights."""

    COMPONENT_CLASSES = {
        "text-view--gutter",
        "text-view--marked",
        "text-view--match",
        "text-view--current-match",
    }

    DEFAULT_CSS = """
    TextView {
        background: $surface;
        color: $foreground;
        scrollbar-size: 1 1;
    }
    TextView > .text-view--gutter { color: $foreground 50%; }
    TextView > .text-view--marked { background: $primary 25%; }
    TextView > .text-view--match { background: $warning 40%; }
    TextView > .text-view--current-match { background: $warning; color: $text; }
    """

    BINDINGS = TEXT_VIEW_BINDINGS

    class LineClicked(Message):
        """A line was clicked."""

        def __init__(self, view: "TextView", line: int) -> None:
            super().__init__()
            self.view = view
            """The view that was clicked."""
            self.line = line
            """The logical line index."""

        @property
        def control(self) -> "TextView":
            """The view that was clicked."""
            return self.view

    def __init__(self, *, line_numbers: bool = False, wrap: bool = False, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.line_numbers = line_numbers
        """Show line numbers."""
        self.numbered = line_numbers
        """Line numbers are shown for the current lines (not for a notice)."""
        self.wrap = wrap
        """Fold long lines at the view's width instead of scrolling sideways."""
        if wrap:
            self.styles.overflow_x = "hidden"
        self.lines: Sequence[Content] = []
        """The logical lines."""
        self.hangs: Sequence[Content] | None = None
        """What each line's wrapped rows start with (None: the line's own indent)."""
        self.marked: int | None = None
        """A logical line to show highlighted (the current failure or turn)."""
        self.marked_lines: frozenset[int] = frozenset()
        """Further logical lines shown highlighted (a whole turn)."""
        self.finding = TextFind()
        """What a find has found in these lines."""
        self._width = 0
        self._rows: list[Row] | None = None
        self._first_row: list[int] = []
        self._wrapped_at = -1
        self._cache: LRUCache[tuple[int, int, int, int], Strip] = LRUCache(512)
        self._styles: dict[str, VisualStyle] = {}
        self._version = 0

    def on_mount(self) -> None:
        """Re-render when the theme changes (styles hold theme variables)."""
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, _theme: object) -> None:
        self._styles.clear()
        self.invalidate()

    # ---- content -------------------------------------------------------------------------

    def set_lines(self, lines: Sequence[Content], width: int | None = None, keep_scroll: bool = False,
                  hangs: Sequence[Content] | None = None) -> None:
        """Replace the lines (``width``: the widest line in characters, measured if None;
        ``hangs``: what each line's wrapped rows start with)."""
        self.numbered = self.line_numbers
        self.lines = lines
        self.hangs = hangs if hangs is not None and len(hangs) == len(lines) else None
        self._width = width if width is not None else max((len(line) for line in lines), default=0)
        self.finding.lines_changed(plain_texts(lines))
        self._rows = None
        self._wrapped_at = -1
        self._update_virtual_size()
        if not keep_scroll:
            self.scroll_to(0, 0, animate=False, force=True)
        self.invalidate()

    def show_notice(self, text: str, style: str = "$text-muted") -> None:
        """Show a one-line message instead of content (no line number)."""
        self.set_lines([Content.styled(text, style)])
        self.numbered = False
        self._update_virtual_size()

    def plain_lines(self) -> list[str]:
        """The lines as plain text (for tests and copying)."""
        return list(plain_texts(self.lines))

    def invalidate(self) -> None:
        """Drop cached rows and repaint."""
        self._version += 1
        self._cache.clear()
        self.refresh()

    def set_marked(self, line: int | None, lines: frozenset[int] = frozenset(), scroll: bool = True) -> None:
        """Highlight a line (and optionally a group of lines) and scroll it into view."""
        self.marked = line
        self.marked_lines = lines
        self.invalidate()
        if scroll and line is not None:
            self.scroll_to_line(line)

    @property
    def gutter_width(self) -> int:
        """Cells taken by line numbers."""
        return len(str(len(self.lines))) + 2 if self.numbered else 0

    def _text_width(self) -> int:
        return max(1, self.scrollable_content_region.width - self.gutter_width)

    def _ensure_rows(self) -> list[Row] | None:
        """Wrapped rows for the current width (None when not wrapping)."""
        if not self.wrap or not self.scrollable_content_region.width:
            return None  # not wrapping, or not laid out yet (wrapped on the first resize)
        width = self._text_width()
        if self._rows is None or self._wrapped_at != width:
            rows: list[Row] = []
            first: list[int] = []
            hangs = self.hangs
            for index, line in enumerate(self.lines):
                first.append(len(rows))
                rows.extend(Row(index, part) for part in fold(line, width, hangs[index] if hangs is not None else None))
            self._rows, self._first_row, self._wrapped_at = rows, first, width
        return self._rows

    def row_count(self) -> int:
        """Rows on screen when fully scrolled through."""
        rows = self._ensure_rows()
        return len(rows) if rows is not None else len(self.lines)

    def row_of_line(self, line: int) -> int:
        """The first row showing a logical line."""
        rows = self._ensure_rows()
        if rows is None:
            return line
        return self._first_row[line] if 0 <= line < len(self._first_row) else 0

    def line_of_row(self, row: int) -> int:
        """The logical line a row shows (-1 past the end)."""
        rows = self._ensure_rows()
        if rows is None:
            return row if 0 <= row < len(self.lines) else -1
        return rows[row].line if 0 <= row < len(rows) else -1

    def _update_virtual_size(self) -> None:
        if self.wrap:
            size = Size(self._text_width() + self.gutter_width, self.row_count())
        else:
            size = Size(self._width + self.gutter_width + 1, len(self.lines))
        if size == self.virtual_size:
            return
        scroll_update = getattr(self, "_scroll_update", None)
        if scroll_update is None or not self.container_size:
            self.virtual_size = size
            return
        # Setting ``virtual_size`` asks for a layout pass over the whole screen, which then
        # paints every widget again: tens of milliseconds on every key that shows new text.
        # Only this view and its scrollbars change; a scrollbar appearing or going still asks
        # for a layout (``show_*_scrollbar`` do).
        self.set_reactive(Widget.virtual_size, size)
        scroll_update(size)
        self.refresh()

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        """A scrollbar that appears after a scroll starts at that scroll (Textual leaves it at the top)."""
        if shown:
            self.vertical_scrollbar.position = self.scroll_y

    def on_focus(self, _event: events.Focus) -> None:
        """Focus changes the styles: redraw."""
        self.invalidate()

    def on_blur(self, _event: events.Blur) -> None:
        """Focus changes the styles: redraw."""
        self.invalidate()

    def on_resize(self, _event: events.Resize) -> None:
        """Re-wrap at the new width; place the marked line again for the new height (whatever came first)."""
        if self.wrap:
            self._rows = None
            self._update_virtual_size()
        self.invalidate()
        if self.marked is not None:
            self.scroll_to_line(self.marked)

    def scroll_to_line(self, line: int, column: int = 0, center: bool = True) -> None:
        """Bring a logical line (and a column of it) into view; column 0 also scrolls back to the
        left edge. Now when laid out (in the same paint as new lines), again after the next layout
        (which moves nothing unless a scrollbar came or went)."""
        if self.scrollable_content_region.height:
            self._scroll_to_line(line, column, center)
        self.call_after_refresh(self._scroll_to_line, line, column, center)

    def scroll_to_span(self, first: int, last: int) -> None:
        """Scroll so that lines ``first`` to ``last`` show (their start when they do not all fit);
        now when laid out, again after the next layout."""
        if self.scrollable_content_region.height:
            self._scroll_to_span(first, last)
        self.call_after_refresh(self._scroll_to_span, first, last)

    def _scroll_to_span(self, first: int, last: int) -> None:
        if first >= len(self.lines):
            return
        top, bottom = self.row_of_line(first), self.row_of_line(min(last, len(self.lines) - 1))
        height = max(1, self.scrollable_content_region.height)
        y = self.scroll_offset.y
        if bottom >= y + height:
            y = bottom - height + 1
        if top < y:
            y = top
        self.scroll_to(None, max(0, y), animate=False, immediate=True, force=True)

    def _scroll_to_line(self, line: int, column: int, center: bool) -> None:
        if line >= len(self.lines):
            return
        row = self.row_of_line(line)
        height = max(1, self.scrollable_content_region.height)
        y = max(0, row - height // 3) if center else row
        if self.scroll_offset.y <= row < self.scroll_offset.y + height and not center:
            y = self.scroll_offset.y
        x = None
        if not self.wrap:
            width = self._text_width()
            if column == 0:
                x = 0
            elif not self.scroll_offset.x <= column < self.scroll_offset.x + width:
                x = max(0, column - width // 3)
        self.scroll_to(x, y, animate=False, immediate=True, force=True)

    # ---- find ----------------------------------------------------------------------------

    @property
    def find_query(self) -> str:
        """The text being found, "" when find is off."""
        return self.finding.query

    @property
    def matches(self) -> list[tuple[int, int]]:
        """(line, column) of every match of the find query."""
        return self.finding.matches

    @property
    def current_match(self) -> int:
        """Index into :attr:`matches` of the match jumped to (-1: none)."""
        return self.finding.current

    def find(self, query: str) -> int:
        """Highlight every match of ``query`` (case-insensitive); jump to the first one on screen or
        below. Returns the count."""
        place = self.finding.search(plain_texts(self.lines), query, self.line_of_row(int(self.scroll_offset.y)))
        if place is not None:
            self.scroll_to_line(*place)
        self.invalidate()
        return len(self.finding.matches)

    def find_step(self, step: int = 1) -> int:
        """Jump to the next (+1) or previous (-1) match; returns its 1-based number (0: none)."""
        place = self.finding.step(step)
        if place is None:
            return 0
        self.scroll_to_line(*place)
        self.invalidate()
        return self.finding.current + 1

    def clear_find(self) -> None:
        """Turn find highlights off."""
        self.finding.clear()
        self.invalidate()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Find keys only act while a find is active; otherwise the key goes to the app."""
        if action in ("find_step", "clear_find"):
            return bool(self.finding.query)
        return True

    def action_find_step(self, step: int) -> None:
        """Jump to another match."""
        self.find_step(step)

    def action_clear_find(self) -> None:
        """Turn find off."""
        self.clear_find()

    # ---- rendering -----------------------------------------------------------------------

    def _style(self, style: str | VisualStyle) -> VisualStyle:
        if isinstance(style, VisualStyle):
            return style
        cached = self._styles.get(style)
        if cached is None:
            try:
                cached = VisualStyle.parse(style)
            except Exception:
                cached = VisualStyle()
            self._styles[style] = cached
        return cached

    def render_line(self, y: int) -> Strip:
        """Render one visible row."""
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        key = (scroll_y + y, scroll_x, width, self._version)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._render_row(scroll_y + y, scroll_x, width)
            self._cache[key] = cached
        return cached

    def _render_row(self, row: int, scroll_x: int, width: int) -> Strip:
        base = self.visual_style
        rows = self._ensure_rows()
        if rows is not None:
            if row >= len(rows):
                return Strip.blank(width, base.rich_style)
            line, content = rows[row].line, rows[row].content
            first = self._first_row[line] == row
            scroll_x = 0
        else:
            if row >= len(self.lines):
                return Strip.blank(width, base.rich_style)
            line, content, first = row, self.lines[row], True
        if line == self.marked or line in self.marked_lines:
            base = base + self.get_visual_style("text-view--marked", partial=True)
        segments: list[Segment] = []
        if self.numbered:
            number = f"{line + 1:>{self.gutter_width - 2}}  " if first else " " * self.gutter_width
            gutter_style = base + self.get_visual_style("text-view--gutter", partial=True)
            segments.append(Segment(number, gutter_style.rich_style))
        visible = content[scroll_x : scroll_x + width + 1] if scroll_x or len(content) > width + 1 else content
        if self.finding.query:
            visible = self._mark_matches(visible, line, scroll_x)
        for text, style in visible.render(base, end="", parse_style=self._style):
            segments.append(Segment(text, style.rich_style))
        return Strip(segments).crop_extend(0, width, base.rich_style)

    def _mark_matches(self, visible: Content, line: int, scroll_x: int) -> Content:
        match_style = self.get_visual_style("text-view--match", partial=True)
        current_style = self.get_visual_style("text-view--current-match", partial=True)
        for start, end, current in self.finding.spans(visible.plain, line, scroll_x):
            visible = visible.stylize(current_style if current else match_style, start, end)
        return visible

    def on_click(self, event: events.Click) -> None:
        """Report which line was clicked."""
        row = int(self.scroll_offset.y) + event.y
        line = self.line_of_row(row)
        if line >= 0:
            self.post_message(self.LineClicked(self, line))
