"""The frame around the panes: the run list panel, the pane tabs, the find bar, the status line."""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Static, Tab, Tabs

from reviewer.ui.bindings import FIND_BINDINGS, SEARCH_BINDINGS
from reviewer.ui.state import RunFilter
from reviewer.ui.widgets.navigator import RunNavigator

PANE_IDS = ("brief", "code", "grader", "transcript")
PANE_TITLES = {"brief": "Brief", "code": "Code", "grader": "Grader", "transcript": "Transcript"}


class SearchInput(Input):
    """The run search box."""

    BINDINGS = SEARCH_BINDINGS

    def action_close(self) -> None:
        """Clear the search and go back to the list."""
        self.value = ""
        panel = self.query_ancestor(NavigatorPanel)
        panel.apply_search("")
        self.display = False
        panel.navigator.focus()


class NavigatorPanel(Vertical):
    """The run list with its filter line and search box."""

    def __init__(self, id: str = "nav") -> None:
        super().__init__(id=id)
        self.border_title = Content("Runs")
        self._search_timer: object | None = None

    def compose(self) -> ComposeResult:
        """Filter line, search box (hidden until ``/``), the list."""
        yield Static(Content(""), id="nav-header", markup=False)
        yield SearchInput(placeholder="task, model or text", id="run-search")
        yield RunNavigator(id="runs")

    def on_mount(self) -> None:
        """Hide the search box until asked for."""
        self.query_one(SearchInput).display = False
        self.draw_header()

    @property
    def navigator(self) -> RunNavigator:
        """The list."""
        return self.query_one(RunNavigator)

    def open_search(self) -> None:
        """Show and focus the search box."""
        box = self.query_one(SearchInput)
        box.display = True
        box.focus()

    @on(Input.Changed, "#run-search")
    def search_changed(self, event: Input.Changed) -> None:
        """Filter as the user types (debounced)."""
        value = event.value
        if self._search_timer is not None:
            self._search_timer.stop()  # type: ignore[attr-defined]
        self._search_timer = self.set_timer(0.15, lambda: self.apply_search(value))

    @on(Input.Submitted, "#run-search")
    def search_submitted(self, event: Input.Submitted) -> None:
        """Enter: apply now and go to the list."""
        self.apply_search(event.value)
        self.navigator.focus()

    def apply_search(self, value: str) -> None:
        """Filter the list by a search text."""
        nav = self.navigator
        wanted = value.strip().lower()
        if wanted != nav.search:
            nav.search = wanted
            nav.rebuild()
        self.draw_header()

    def set_filter(self, value: RunFilter) -> None:
        """Change which runs are listed."""
        self.navigator.filter = value
        self.navigator.rebuild()
        self.draw_header()

    def draw_header(self) -> None:
        """``all · 4 runs`` plus the search."""
        nav = self.navigator
        parts: list[Content | tuple[str, str] | str] = [(nav.filter.value, "bold $text-accent"),
                                                         f" \u00b7 {len(nav.order):,} runs"]
        if nav.search:
            parts += ["  ", (f"/{nav.search}", "$text-warning")]
        self.query_one("#nav-header", Static).update(Content.assemble(*parts), layout=False)


class PaneTabs(Tabs, can_focus=False):
    """One tab per pane, shown when the screen is too narrow for all four."""

    class Picked(Message):
        """A tab was clicked: show and focus that pane."""

        def __init__(self, pane_id: str) -> None:
            super().__init__()
            self.pane_id = pane_id

    def __init__(self) -> None:
        super().__init__(*(Tab(Content(PANE_TITLES[p]), id=f"tab-{p}") for p in PANE_IDS), id="pane-tabs")

    def on_tab_clicked(self, event: Tab.Clicked) -> None:
        """Tell the screen which pane was picked (programmatic changes stay silent)."""
        self.post_message(self.Picked((event.tab.id or "tab-code").removeprefix("tab-")))


class FindInput(Input):
    """The text to find in the focused pane."""

    BINDINGS = FIND_BINDINGS

    def action_find_step(self, step: int) -> None:
        """Jump to another match."""
        self.query_ancestor(FindBar).post_message(FindBar.Step(step))

    def action_close(self) -> None:
        """Close the find bar."""
        self.query_ancestor(FindBar).post_message(FindBar.Close())


class FindBar(Horizontal):
    """``ctrl+f``: a query box and a match counter."""

    class Step(Message):
        """Jump to the next (+1) or previous (-1) match."""

        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    class Close(Message):
        """Close the bar."""

    def compose(self) -> ComposeResult:
        """Label, input, counter."""
        yield Static(Content("find"), id="find-label", markup=False)
        yield FindInput(placeholder="text to find (enter: next, escape: close)", id="find-input")
        yield Static(Content(""), id="find-count", markup=False)

    def set_target(self, title: str) -> None:
        """Name the pane being searched."""
        self.query_one("#find-label", Static).update(Content(f"find in {title}"))

    def set_count(self, current: int, total: int, query: str) -> None:
        """``3/17`` or ``no matches``."""
        text = "" if not query else (f"{current}/{total}" if total else "no matches")
        self.query_one("#find-count", Static).update(Content(text))


class StatusBar(Static):
    """``failure 3 of 41 · 0/41 labelled · 2 load errors`` (click the errors to list them)."""

    class ErrorsClicked(Message):
        """The load-error count was clicked."""

    def __init__(self) -> None:
        super().__init__(Content(""), id="status", markup=False)
        self.errors = 0

    def on_click(self, _event: events.Click) -> None:
        """Open the load errors when there are some."""
        if self.errors:
            self.post_message(self.ErrorsClicked())
