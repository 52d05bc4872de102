"""The run list: runs grouped by session and task, one row each, on the line API.

No widget per row: rows are plain tuples and only the rows on screen are rendered, so
100,000 runs scroll like ten. The rows, the filter and the search belong to the review
session's :class:`~reviewer.review.runlist.listing.RunList`; this widget draws them with their failure
counts (``…`` until known) and reports picks and folds by message.
"""

from __future__ import annotations

from typing import Callable, Mapping

from rich.segment import Segment
from textual import events
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style as VisualStyle

from reviewer.model.sanitize import one_line
from reviewer.review.runlist.listing import RunList
from reviewer.review.runlist.rows import NavRow, Rows, group_keys
from reviewer.ui.bindings import NAVIGATOR_BINDINGS

OUTCOME_SYMBOLS = {"pass": ("\u2713", "$text-success"), "fail": ("\u2717", "$text-error"),
                   "error": ("!", "$text-warning")}
UNKNOWN_OUTCOME = ("?", "$text-muted")


class RunNavigator(ScrollView, can_focus=True):
    """The grouped, filterable list of runs with its own cursor."""

    BINDINGS = NAVIGATOR_BINDINGS
    COMPONENT_CLASSES = {"run-navigator--cursor", "run-navigator--group", "run-navigator--dim"}
    DEFAULT_CSS = """
    RunNavigator { background: $surface; scrollbar-size-vertical: 1; overflow-x: hidden; }
    RunNavigator > .run-navigator--cursor { background: $primary 30%; text-style: bold; }
    RunNavigator:focus > .run-navigator--cursor { background: $primary 60%; }
    RunNavigator > .run-navigator--group { color: $text-secondary; text-style: bold; }
    RunNavigator > .run-navigator--dim { color: $foreground 55%; }
    """

    class RunChosen(Message):
        """The cursor landed on a run (keyboard or mouse)."""

        def __init__(self, run_key: str) -> None:
            super().__init__()
            self.run_key = run_key

    class GroupToggled(Message):
        """A group was folded or unfolded."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, listing: RunList, failures: Mapping[str, tuple[str, ...]], labelled: Callable[[str], int],
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.listing = listing
        """The session's list (read only here)."""
        self.failures = failures
        """Failure ids per run key, for runs counted so far (the session's)."""
        self.labelled = labelled
        """How many failures of a run are labelled."""
        self.current = ""
        self.cursor = 0
        self.empty_message = "loading\u2026"
        self._labels: dict[str, str] = {}
        self._cursor_key = ""
        self._cache: LRUCache[tuple[int, int, int, bool], Strip] = LRUCache(256)
        self._version = 0
        self._scroll_on_resize = False  # a row to show was asked before the list had a height

    @property
    def rows(self) -> Rows:
        """The rows drawn."""
        return self.listing.rows

    @property
    def order(self) -> list[str]:
        """Run keys listed, in order."""
        return self.listing.order

    def rebuilt(self) -> None:
        """The list's rows changed (filter, search, folding, runs): place the cursor and repaint."""
        self._labels = {} if len(self._labels) > 50_000 else self._labels
        self.empty_message = self.listing.empty_message()
        self.virtual_size = Size(self.size.width, len(self.rows))
        if self._cursor_key:
            found = self.rows.index_of(self._cursor_key)
            self.cursor = self.cursor if found is None else found
            self._cursor_key = ""
            self.scroll_to_row(self.cursor)
        else:
            self._place_cursor()
        self.invalidate()

    def invalidate(self) -> None:
        """Drop cached rows and repaint (counts or labels changed)."""
        self._version += 1
        self._cache.clear()
        self.refresh()

    def show_run(self, run_key: str) -> None:
        """Put the cursor on a run without announcing it."""
        self.current = run_key
        before, top = self.cursor, int(self.scroll_offset.y)
        self._place_cursor()
        if int(self.scroll_offset.y) == top:  # only two rows look different: repaint those
            for row in {before, self.cursor}:
                self.refresh_line(row)
        else:
            self.refresh()

    def _place_cursor(self) -> None:
        index = self.rows.row_of.get(self.current)
        if index is not None:
            self.cursor = index
            self.scroll_to_row(index)
            return
        self.cursor = min(self.cursor, max(0, len(self.rows) - 1))

    def scroll_to_row(self, index: int) -> None:
        """Scroll so the row is visible (before the list has a height, once it has one: the first
        screen is drawn before its first layout, and a height of nothing would put the row at the top)."""
        height = self.scrollable_content_region.height
        self._scroll_on_resize = height <= 0
        if self._scroll_on_resize:
            return
        top = int(self.scroll_offset.y)
        if index < top:
            self.scroll_to(y=index, animate=False, immediate=True, force=True)
        elif index >= top + height:
            self.scroll_to(y=index - height + 1, animate=False, immediate=True, force=True)

    def row_text(self, index: int) -> str:
        """The plain text of a row as drawn (for tests)."""
        return self._row_content(self.rows[index], self.size.width or 40).plain

    # ---- keys and mouse ------------------------------------------------------------------

    def move_to(self, index: int) -> None:
        """Move the cursor; landing on a run chooses it."""
        if not self.rows:
            return
        self.cursor = max(0, min(index, len(self.rows) - 1))
        self.scroll_to_row(self.cursor)
        self.invalidate()
        row = self.rows[self.cursor]
        if row.kind == "run" and row.key != self.current:
            self.current = row.key
            self.post_message(self.RunChosen(row.key))

    def action_cursor(self, step: int) -> None:
        """Move the cursor one row."""
        self.move_to(self.cursor + step)

    def action_page(self, step: int) -> None:
        """Move the cursor one page."""
        self.move_to(self.cursor + step * max(1, self.scrollable_content_region.height - 1))

    def action_edge(self, step: int) -> None:
        """Move to the first or last row."""
        self.move_to(0 if step < 0 else len(self.rows) - 1)

    def toggle_group(self, key: str) -> None:
        """Fold or unfold a group, keeping the cursor on it."""
        self._cursor_key = key
        self.post_message(self.GroupToggled(key))

    def action_activate(self) -> None:
        """Enter: fold/unfold a group, or choose the run."""
        if not self.rows:
            return
        row = self.rows[self.cursor]
        if row.kind == "run":
            self.post_message(self.RunChosen(row.key))
        else:
            self.toggle_group(row.key)

    def action_fold(self, fold: bool) -> None:
        """Fold (left) or unfold (right) the group under the cursor, or the run's group."""
        if not self.rows:
            return
        row = self.rows[self.cursor]
        key = group_keys(row.run)[1] if row.kind == "run" else row.key
        if (key in self.listing.folded) != fold and (row.kind != "run" or fold):
            self.toggle_group(key)

    def on_click(self, event: events.Click) -> None:
        """Click a run to open it, a group to fold or unfold it."""
        index = int(self.scroll_offset.y) + event.y
        if not 0 <= index < len(self.rows):
            return
        self.cursor = index
        row = self.rows[index]
        if row.kind == "run":
            self.current = row.key
            self.post_message(self.RunChosen(row.key))
            self.invalidate()
        else:
            self.toggle_group(row.key)

    # ---- rendering -----------------------------------------------------------------------

    def label(self, row: NavRow) -> str:
        """The row's name, sanitised once and remembered."""
        cached = self._labels.get(row.key)
        if cached is None:
            raw = row.run.session if row.kind == "session" else row.run.task if row.kind == "task" else row.run.model
            cached = self._labels[row.key] = one_line(raw, 80)
        return cached

    def _row_content(self, row: NavRow, width: int) -> Content:
        indent = ("  " if width >= 34 else " ") * row.depth
        if row.kind != "run":
            arrow = "\u25b8 " if row.key in self.listing.folded else "\u25be "
            left = Content.assemble(indent, arrow, (self.label(row), ".run-navigator--group"))
            right = Content.styled(f" {row.runs} run{'s' if row.runs != 1 else ''}", ".run-navigator--dim")
        else:
            symbol, style = OUTCOME_SYMBOLS.get(row.run.outcome, UNKNOWN_OUTCOME)
            left = Content.assemble(indent, (symbol, style), " ", self.label(row))
            right = self._counts(row.key)
        room = max(1, width - right.cell_length)
        return left.truncate(room, ellipsis=True, pad=True) + right

    def _counts(self, run_key: str) -> Content:
        """``labelled/failures`` of a run (``…`` until counted, ``·`` none), under the legend's ``done/fail``."""
        ids = self.failures.get(run_key)
        if ids is None:
            return Content.styled(f"{'…':>6}", ".run-navigator--dim")
        if not ids:
            return Content.styled(f"{'·':>6}", ".run-navigator--dim")
        done = min(self.labelled(run_key), len(ids))
        progress = f"{done}/{len(ids)}"
        if done == len(ids):
            return Content.styled(f"{'✓' + progress:>6}", "$text-success")
        return Content(f"{progress:>6}")

    def render_line(self, y: int) -> Strip:
        """Render one visible row."""
        index = int(self.scroll_offset.y) + y
        width = self.scrollable_content_region.width
        key = (index, width, self._version, index == self.cursor)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._render_row(index, width)
            self._cache[key] = cached
        return cached

    def _render_row(self, index: int, width: int) -> Strip:
        base = self.visual_style
        if not 0 <= index < len(self.rows):
            if index == 0 and self.empty_message:
                notice = Content.styled(f" {self.empty_message}", ".run-navigator--dim").truncate(width)
                segments = [Segment(t, s.rich_style) for t, s in notice.render(base, end="", parse_style=self._style)]
                return Strip(segments).crop_extend(0, width, base.rich_style)
            return Strip.blank(width, base.rich_style)
        if index == self.cursor:
            base = base + self.get_visual_style("run-navigator--cursor", partial=True)
        content = self._row_content(self.rows[index], width)
        segments = [Segment(text, style.rich_style) for text, style in content.render(base, end="", parse_style=self._style)]
        return Strip(segments).crop_extend(0, width, base.rich_style)

    def _style(self, style: str | VisualStyle) -> VisualStyle:
        if isinstance(style, VisualStyle):
            return style
        if style.startswith("."):
            return self.get_visual_style(style[1:], partial=True)
        return VisualStyle.parse(style)

    def on_mount(self) -> None:
        """Repaint when the theme changes (rows hold theme variables)."""
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.invalidate())

    def on_focus(self, _event: events.Focus) -> None:
        """Focus changes the styles: redraw."""
        self.invalidate()

    def on_blur(self, _event: events.Blur) -> None:
        """Focus changes the styles: redraw."""
        self.invalidate()

    def on_resize(self, _event: events.Resize) -> None:
        """Rows are cut to the width: redraw them (and show the cursor's row if that waited)."""
        self.virtual_size = Size(self.size.width, len(self.rows))
        if self._scroll_on_resize:
            self.scroll_to_row(self.cursor)
        self.invalidate()
