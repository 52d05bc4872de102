"""What the four panes share: a titled border, a header line, a warning banner, maximising.

A pane draws only what it is handed (the review screen hands every pane the same view in one
paint); it reads nothing and holds no state but what it shows. Its widgets are made with it and
held, never looked up: a view drawn before they are mounted, or after the screen has gone (a
worker's late result as the app closes), draws into them without a query that finds nothing.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static


class Pane(Vertical):
    """A titled pane of the review screen."""

    ALLOW_MAXIMIZE = True
    TITLE = ""

    def __init__(self, id: str) -> None:
        super().__init__(id=id, classes="pane")
        self.border_title = Content(self.TITLE)
        self.banner_text = ""
        self.header = Static(Content.styled("reading…", "$text-muted"), classes="pane-header", markup=False)  # until a view
        self.banner = Static(Content(""), classes="pane-banner", markup=False)
        self.banner.display = False  # until there is a warning (set before mounting: no restyle)

    def compose(self) -> ComposeResult:
        """Header, banner, then the pane's own body."""
        yield self.header
        yield self.banner
        yield from self.compose_body()

    def compose_body(self) -> ComposeResult:
        """The pane's body widgets."""
        yield from ()

    def focus_target(self) -> Widget:
        """The widget that takes focus when this pane is reached with tab."""
        return self

    def set_header(self, content: Content) -> None:
        """Replace the header line (one line high whatever it says: no layout pass)."""
        self.header.update(content, layout=False)

    def set_banner(self, lines: list[str] | tuple[str, ...]) -> None:
        """Show warning lines above the body (hidden when there are none)."""
        banner = self.banner
        text = "\n".join(lines)
        if text == self.banner_text and banner.display == bool(lines):
            return
        self.banner_text = text  # lines may wrap: any change may change the height
        banner.update(Content(text))
        banner.display = bool(lines)
