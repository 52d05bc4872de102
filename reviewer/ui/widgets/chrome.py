"""The frame around the panes: the run list panel, the pane tabs, the find bar, the status line."""

from __future__ import annotations

from typing import Sequence

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content, Span
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Static

from reviewer.model.sanitize import one_line
from reviewer.model.wording import count
from reviewer.ui.bindings import FIND_BINDINGS, SEARCH_BINDINGS
from reviewer.ui.widgets.navigator import RunNavigator
from reviewer.ui.widgets.text_view import TextView

PANE_IDS = ("brief", "code", "grader", "transcript")
PANE_TITLES = {"brief": "Brief", "code": "Code", "grader": "Grader", "transcript": "Transcript"}


LEGEND_RIGHT = "done/fail"


def legend(width: int) -> Content:
    """The run list's columns: each run's outcome and model; its failures and how many are labelled."""
    left = Content.assemble(("\u2713", "$text-success"), ("\u2717", "$text-error"), ("!", "$text-warning"), " run")
    room = max(1, width - len(LEGEND_RIGHT))
    return (left.truncate(room, pad=True) + Content(LEGEND_RIGHT)).stylize("$text-muted")


class Legend(Widget):
    """The run list's column legend, drawn at the width it is laid out at (in the first frame too:
    a legend made for the panel's width before its layout was drawn again after it)."""

    def render(self) -> Content:
        """The legend for the width inside the padding."""
        return legend(max(20, self.content_size.width))


class SearchInput(Input):
    """The run search box."""

    BINDINGS = SEARCH_BINDINGS

    def action_close(self) -> None:
        """Clear the search and go back to the list."""
        self.value = ""
        panel = self.query_ancestor(NavigatorPanel)
        panel.post_message(NavigatorPanel.Searched(""))
        self.display = False
        panel.navigator.focus()


class NavigatorPanel(Vertical):
    """The run list with its filter line and search box."""

    ALLOW_MAXIMIZE = True  # ``m`` on the run list (a container is not maximisable by default)

    class Searched(Message):
        """The search text changed (debounced) or was submitted (enter)."""

        def __init__(self, text: str, submitted: bool = False) -> None:
            super().__init__()
            self.text = text
            self.submitted = submitted

    def __init__(self, navigator: RunNavigator, id: str = "nav") -> None:
        super().__init__(id=id)
        self.border_title = Content("Runs")
        self.list_widget = navigator
        self._search_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        """Filter line, legend, the list (the search box is made with the first ``/``)."""
        yield Static(Content(""), id="nav-header", markup=False)
        yield Legend(id="nav-legend")
        yield self.list_widget

    def on_mount(self) -> None:
        """The filter line."""
        self.draw_header()

    @property
    def navigator(self) -> RunNavigator:
        """The list."""
        return self.list_widget

    async def open_search(self) -> None:
        """Show and focus the search box (made the first time: an input's styles cost the first screen)."""
        found = self.query(SearchInput)
        if found:
            box = found.first()
        else:
            box = SearchInput(placeholder="words of a task, model or run", id="run-search")
            await self.mount(box, before=self.list_widget)
        box.display = True
        box.focus()

    @on(Input.Changed, "#run-search")
    def search_changed(self, event: Input.Changed) -> None:
        """Filter as the user types (debounced)."""
        value = event.value
        if self._search_timer is not None:
            self._search_timer.stop()
        self._search_timer = self.set_timer(0.15, lambda: self.post_message(self.Searched(value)))

    @on(Input.Submitted, "#run-search")
    def search_submitted(self, event: Input.Submitted) -> None:
        """Enter: apply now and go to the list."""
        if self._search_timer is not None:
            self._search_timer.stop()
        self.post_message(self.Searched(event.value, submitted=True))
        self.navigator.focus()

    def draw_header(self) -> None:
        """``all · 4 runs`` plus the search (nothing once the panel is gone: a late count)."""
        if not self.is_attached:
            return
        listing = self.navigator.listing
        parts: list[Content | tuple[str, str] | str] = [(listing.filter.value, "bold $text-accent"),
                                                         f" \u00b7 {len(listing.order):,}+ runs" if listing.more else f" \u00b7 {count(len(listing.order), 'run')}"]
        if listing.search.strip():
            parts += ["  ", (f"/{one_line(listing.search.strip(), 40)}", "$text-warning")]
        self.query_one("#nav-header", Static).update(Content.assemble(*parts), layout=False)


class PanePicked(Message):
    """A pane's tab was clicked (:mod:`reviewer.ui.widgets.pane_tabs`): show and focus that pane."""

    def __init__(self, pane_id: str) -> None:
        super().__init__()
        self.pane_id = pane_id


class FindInput(Input):
    """The text to find in the focused pane."""

    BINDINGS = FIND_BINDINGS

    def action_find_step(self, step: int) -> None:
        """Jump to another match."""
        self.query_ancestor(FindBar).step(step)

    def action_close(self) -> None:
        """Close the find bar."""
        self.query_ancestor(FindBar).close()


class FindBar(Horizontal):
    """``ctrl+f``: a query box and a match counter, finding in one text view.

    Hidden, and empty until it first opens: its input's styles were applied for every first screen.
    """

    def __init__(self, id: str = "find") -> None:
        super().__init__(id=id)
        self.target: TextView | None = None
        self.display = False

    async def open(self, target: TextView, title: str) -> None:
        """Find in this view (named by its pane's title)."""
        self.target = target
        if not self.children:  # label, input, counter
            await self.mount_all([Static(Content("find"), id="find-label", markup=False),
                                  FindInput(placeholder="text to find (enter: next, escape: close)", id="find-input"),
                                  Static(Content(""), id="find-count", markup=False)])
        self.query_one("#find-label", Static).update(Content(f"find in {title}"))
        self.display = True
        self.query_one(FindInput).focus()

    @on(Input.Changed, "#find-input")
    def changed(self, event: Input.Changed) -> None:
        """Find as the user types."""
        view = self.target
        if view is None:
            return
        total = view.find(event.value) if event.value else 0
        if not event.value:
            view.clear_find()
        self.set_count(view.current_match + 1, total, event.value)

    @on(Input.Submitted, "#find-input")
    def submitted(self) -> None:
        """Enter: next match."""
        self.step(1)

    def step(self, step: int) -> None:
        """Jump to another match and update the counter."""
        if self.target is not None:
            number = self.target.find_step(step)
            self.set_count(number, len(self.target.matches), self.target.find_query)

    def close(self) -> None:
        """Escape: hide the bar, keep the highlights, focus the searched view."""
        self.display = False
        if self.target is not None:
            self.target.focus()

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
        self.drawn: tuple[str, Sequence[Span]] = ("", ())

    def on_click(self, _event: events.Click) -> None:
        """Open the load errors when there are some."""
        if self.errors:
            self.post_message(self.ErrorsClicked())
