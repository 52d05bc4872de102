"""The review screen: run list, four panes (a 2x2 grid when wide, tabs when narrow), status, footer."""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Container, Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget

from reviewer.ui.widgets.brief import BriefPane
from reviewer.ui.widgets.chrome import PANE_IDS, FindBar, NavigatorPanel, PaneTabs, StatusBar
from reviewer.ui.widgets.code import CodePane
from reviewer.ui.widgets.evidence import EvidencePanel
from reviewer.ui.widgets.grader import GraderPane
from reviewer.ui.widgets.keybar import KeyBar
from reviewer.ui.widgets.pane import Pane
from reviewer.ui.widgets.transcript import TranscriptPane

WIDE = 160
"""Columns from which all four panes are shown at once."""


class ReviewScreen(Screen[None]):
    """The one screen the reviewer works in."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE, "-wide")]
    AUTO_FOCUS = None

    def __init__(self) -> None:
        super().__init__(id="review")
        self.active_pane = "code"
        """The pane shown when the screen is narrow (the one with focus)."""

    def compose(self) -> ComposeResult:
        """Run list beside the panes; find bar, status line and footer below."""
        with Horizontal(id="main"):
            yield NavigatorPanel()
            with Vertical(id="workspace"):
                yield PaneTabs()
                with Container(id="panes"):
                    yield BriefPane()
                    yield CodePane()
                    yield GraderPane()
                    yield TranscriptPane()
                yield EvidencePanel()
        yield FindBar(id="find")
        yield StatusBar()
        yield KeyBar()

    def on_mount(self) -> None:
        """Start on the Code pane with the run list focused."""
        self.query_one(FindBar).display = False
        self.activate(self.active_pane)
        self.call_after_refresh(self.query_one(NavigatorPanel).navigator.focus)
        self.app.screen_ready()  # type: ignore[attr-defined]

    @property
    def narrow(self) -> bool:
        """True when the panes are tabs."""
        return self.size.width < WIDE

    def pane(self, pane_id: str) -> Pane:
        """A pane by id."""
        return self.query_one(f"#{pane_id}", Pane)

    def activate(self, pane_id: str) -> None:
        """Make a pane the visible tab (narrow screens) and the active one."""
        self.active_pane = pane_id
        for other in PANE_IDS:
            self.pane(other).set_class(other == pane_id, "-active")
        tabs = self.query_one(PaneTabs)
        if tabs.active != f"tab-{pane_id}":
            tabs.active = f"tab-{pane_id}"

    @on(PaneTabs.Picked)
    def tab_clicked(self, event: PaneTabs.Picked) -> None:
        """A tab was clicked: show that pane and focus it."""
        self.focus_widget(self.pane(event.pane_id).focus_target())

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The tab follows focus."""
        pane = self.pane_of(event.widget)
        if pane is not None and pane.id != self.active_pane:
            self.activate(pane.id or "code")

    def pane_of(self, widget: Widget | None) -> Pane | None:
        """The pane a widget sits in, or None."""
        node = widget
        while node is not None and node is not self:
            if isinstance(node, Pane):
                return node
            node = node.parent  # type: ignore[assignment]
        return None

    def stops(self) -> list[Widget]:
        """The widgets tab moves between, in order: the run list, then each pane's views."""
        out: list[Widget] = []
        nav = self.query_one(NavigatorPanel)
        if nav.display:
            out.append(nav.navigator)
        for pane_id in PANE_IDS:
            pane = self.pane(pane_id)
            out.append(pane.focus_target())
            if pane_id == "grader":
                out.append(self.query_one("#output"))
        return out

    def focus_step(self, step: int) -> None:
        """Move focus to the next (+1) or previous (-1) stop, showing its pane."""
        stops = self.stops()
        focused = self.focused
        index = -1
        for i, stop in enumerate(stops):
            node = focused
            while node is not None:
                if node is stop:
                    index = i
                    break
                node = node.parent  # type: ignore[assignment]
            if index >= 0:
                break
        target = stops[(index + step) % len(stops)] if index >= 0 or step > 0 else stops[-1]
        if self.maximized is not None:
            self.minimize()
        self.focus_widget(target)

    def focus_widget(self, target: Widget) -> None:
        """Focus a widget, showing its pane first on narrow screens.

        Focus moves before the old pane is hidden, so Textual never has to find a new home
        for focus on a widget that just disappeared.
        """
        self.set_focus(target, scroll_visible=False)
        pane = self.pane_of(target)
        if pane is not None:
            self.activate(pane.id or "code")

    def focused_pane(self) -> Pane | None:
        """The pane holding focus, else the active one when the run list has focus."""
        return self.pane_of(self.focused)

    def toggle_maximise(self) -> None:
        """Maximise the focused pane (or the run list), or restore."""
        if self.maximized is not None:
            self.minimize()
            return
        pane: Widget | None = self.focused_pane()
        if pane is None and self.focused is not None:
            pane = self.query_one(NavigatorPanel)
        if pane is not None:
            self.maximize(pane, container=False)

    def toggle_navigator(self) -> None:
        """Show or hide the run list."""
        nav = self.query_one(NavigatorPanel)
        nav.display = not nav.display
        if not nav.display and self.pane_of(self.focused) is None:
            self.focus_widget(self.pane(self.active_pane).focus_target())
