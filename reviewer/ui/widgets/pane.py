"""What the four panes share: a titled border, a header line, a warning banner, maximising."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from reviewer.store.safe_fs import TextBlob
from reviewer.ui.state import RunDetail, Selection

if TYPE_CHECKING:
    from reviewer.ui.app import ReviewApp

HIDDEN_BANNER = "\u26a0 this file contains bidirectional or invisible characters, shown as \u27e8\u2026\u27e9"
CONTROLS_BANNER = "\u26a0 escape or control characters were made visible (\u241b, \u27e8\u2026\u27e9)"


def blob_notes(blob: TextBlob, what: str = "file") -> tuple[str, ...]:
    """Banner lines for what the store said about a read."""
    notes = []
    if blob.binary:
        notes.append(f"\u26a0 binary {what} ({blob.size:,} bytes): not shown")
    if blob.invalid_utf8:
        notes.append(f"\u26a0 this {what} is not valid UTF-8: bad bytes are shown as \ufffd")
    if blob.truncated:
        notes.append(f"\u26a0 this {what} is {blob.size:,} bytes: only the start was read")
    return tuple(notes)


class Pane(Vertical):
    """A titled pane of the review screen."""

    ALLOW_MAXIMIZE = True
    TITLE = ""

    def __init__(self, id: str) -> None:
        super().__init__(id=id, classes="pane")
        self.border_title = Content(self.TITLE)
        self._banner_text = ""

    @property
    def review(self) -> "ReviewApp":
        """The app, typed."""
        return cast("ReviewApp", self.app)

    def compose(self) -> ComposeResult:
        """Header, banner, then the pane's own body."""
        yield Static(Content(""), classes="pane-header", markup=False)
        yield Static(Content(""), classes="pane-banner", markup=False)
        yield from self.compose_body()

    def compose_body(self) -> ComposeResult:
        """The pane's body widgets."""
        yield from ()

    def focus_target(self) -> Widget:
        """The widget that takes focus when this pane is reached with tab."""
        return self

    def set_header(self, content: Content) -> None:
        """Replace the header line."""
        # One line high whatever it says: no layout pass (a pass over the whole screen costs
        # tens of milliseconds on every key otherwise).
        self.query_one(".pane-header", Static).update(content, layout=False)

    def set_banner(self, lines: list[str] | tuple[str, ...]) -> None:
        """Show warning lines above the body (hidden when there are none)."""
        banner = self.query_one(".pane-banner", Static)
        text = "\n".join(lines)
        if text == self._banner_text and banner.display == bool(lines):
            return
        self._banner_text = text  # lines may wrap: any change may change the height
        banner.update(Content(text))
        banner.display = bool(lines)

    def on_mount(self) -> None:
        """Start without a banner; watch the app's selection."""
        self.query_one(".pane-banner", Static).display = False
        self.set_header(Content.styled("no run selected", "$text-muted"))
        self.watch(self.app, "selection", self.selection_changed, init=False)
        self.watch(self.app, "detail", self.detail_changed, init=False)

    def selection_changed(self, selection: Selection) -> None:
        """React to a new selection (override)."""

    def settled(self, selection: Selection) -> bool:
        """The pane shows this selection (no load for it pending); see ``reviewer.ui.paint``."""
        return True

    def detail_changed(self, detail: RunDetail | None) -> None:
        """React to the current run's details arriving (override)."""
