"""The tabs above the panes on a narrow screen (imported with the first narrow screen: Textual's
tabs are not needed on a wide one)."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Tab, Tabs

from reviewer.ui.widgets.chrome import PANE_IDS, PANE_TITLES, PanePicked


class PaneTabs(Tabs, can_focus=False):
    """One tab per pane, shown when the screen is too narrow for all four."""

    def __init__(self, active: str) -> None:
        super().__init__(*(Tab(Content(PANE_TITLES[p]), id=f"tab-{p}") for p in PANE_IDS), active=active, id="pane-tabs")

    def on_tab_clicked(self, event: Tab.Clicked) -> None:
        """Tell the screen which pane was picked (programmatic changes stay silent)."""
        self.post_message(PanePicked((event.tab.id or "tab-code").removeprefix("tab-")))
