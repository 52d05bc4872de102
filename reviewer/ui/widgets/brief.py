"""The Brief pane: the task's brief, its Markdown drawn as styled lines (links shown, never followed)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.content import Content
from textual.widget import Widget

from reviewer.model.sanitize import clean
from reviewer.ui.render.badges import commit_line
from reviewer.ui.render.brief import DrawnBrief
from reviewer.ui.render.panes import Rendered
from reviewer.ui.widgets.pane import Pane
from reviewer.ui.widgets.text_view import TextView


class BriefPane(Pane):
    """The brief the model was given, and the run's last commit on the lower border."""

    TITLE = "Brief"

    def __init__(self, id: str = "brief") -> None:
        super().__init__(id=id)
        self.drawn: DrawnBrief | None = None
        """The brief on screen, as drawn (runs of one task share it: it is not drawn again)."""
        self.view = TextView(wrap=True, id="brief-view")
        """The text view showing the brief."""

    @property
    def shown(self) -> str:
        """The Markdown source on screen ("" before the first brief)."""
        return self.drawn.brief.markdown if self.drawn is not None else ""

    def compose_body(self) -> ComposeResult:
        """The brief's lines, wrapped at the pane's width."""
        yield self.view

    def focus_target(self) -> Widget:
        """Focus the view."""
        return self.view

    def show(self, rendered: Rendered) -> None:
        """Draw the brief of a view (unchanged lines are kept, with their scroll)."""
        run = rendered.view.run
        ref = run.brief_ref if run is not None else ""
        self.set_header(Content.styled(clean(ref).text, "$text-muted"))
        provenance = rendered.view.provenance
        self.border_subtitle = commit_line(provenance) if provenance is not None else None
        drawn = rendered.brief
        if drawn is None:
            return
        self.set_banner(drawn.brief.banner)
        if self.drawn is None or drawn.lines is not self.drawn.lines:
            same_text = drawn.brief.markdown == self.shown  # a new theme: stay where the reader is
            self.view.set_lines(drawn.lines, keep_scroll=same_text, hangs=drawn.hangs)
        self.drawn = drawn
