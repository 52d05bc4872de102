"""The panes' area: the four panes (a 2x2 grid when wide, tabs when narrow) and the Evidence strip.

It knows which pane is active (the visible tab on a narrow screen, the one with focus), draws a
rendered view into every pane, and finds the pane a widget sits in. The tabs are made the first
time the screen is narrow: on a wide screen they are never seen, and their eight widgets were a
sixth of the first screen's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Container, Vertical
from textual.content import Content
from textual.widget import Widget

from reviewer.review.view import FailureView
from reviewer.ui.render.lines import LINE_CAP
from reviewer.ui.render.panes import Rendered
from reviewer.ui.widgets.brief import BriefPane
from reviewer.ui.widgets.chrome import PANE_IDS, PanePicked
from reviewer.ui.widgets.code import CodePane
from reviewer.ui.widgets.evidence import EvidencePanel
from reviewer.ui.widgets.grader import GraderPane
from reviewer.ui.widgets.pane import Pane
from reviewer.ui.widgets.text_view import TextView
from reviewer.ui.widgets.transcript import TranscriptPane

if TYPE_CHECKING:
    from reviewer.analysis.evidence.engine import Evidence
    from reviewer.ui.widgets.pane_tabs import PaneTabs


def pane_of(widget: Widget | None) -> Pane | None:
    """The pane a widget sits in, or None."""
    node = widget
    while node is not None:
        if isinstance(node, Pane):
            return node
        node = node.parent  # type: ignore[assignment]
    return None


class Workspace(Vertical):
    """Tabs, the four panes and the Evidence strip."""

    def __init__(self, id: str = "workspace") -> None:
        super().__init__(id=id)
        self.active_pane = "grader"
        """The pane shown when the screen is narrow (the one with focus): the Grader pane first,
        the one a reviewer reads most."""
        self.shown_failure: str | None = None
        # Held, not queried: a query walks the screen's widgets, and a key shows every pane.
        self.brief, self.code, self.grader = BriefPane(), CodePane(), GraderPane()
        self.transcript, self.evidence = TranscriptPane(), EvidencePanel()
        self.views: tuple[TextView, ...] = ()
        self.tabs: PaneTabs | None = None
        self.caps = (LINE_CAP, LINE_CAP)
        """The per-line caps of the Code and Grader panes (:meth:`show_more` raises them)."""
        self.starts_narrow = False
        """The screen is narrow from the start: the tabs are composed with the panes."""
        # classes and visibility set before mounting cost no restyle of the pane's widgets
        {"brief": self.brief, "code": self.code, "grader": self.grader,
         "transcript": self.transcript}[self.active_pane].add_class("-active")

    def compose(self) -> ComposeResult:
        """The panes and the strip (the tabs come with the first narrow screen: now, if it starts narrow)."""
        if self.starts_narrow:
            yield self.made_tabs()
        with Container(id="panes"):
            yield self.brief
            yield self.code
            yield self.grader
            yield self.transcript
        yield self.evidence

    def show_more(self, pane: Pane | None) -> bool:
        """Show ten times more of the lines cut at the length limit in the Code or Grader pane;
        False for another pane."""
        code, output = self.caps
        if pane is self.code:
            self.caps = (code * 10, output)
        elif pane is self.grader:
            self.caps = (code, output * 10)
        return pane is self.code or pane is self.grader

    def nothing(self, why: str) -> None:
        """No failure will arrive (an empty or unreadable folder): every pane says so, not "reading…"."""
        for pane in (self.brief, self.code, self.grader, self.transcript):
            pane.set_header(Content.styled(why, "$text-muted"))

    def pane(self, pane_id: str) -> Pane:
        """A pane by id."""
        return self.query_one(f"#{pane_id}", Pane)

    def activate(self, pane_id: str) -> None:
        """Make a pane the visible tab (narrow screens) and the active one."""
        self.active_pane = pane_id
        for other in PANE_IDS:
            self.pane(other).set_class(other == pane_id, "-active")
        tabs = self.tabs
        if tabs is not None and tabs.active != f"tab-{pane_id}":
            tabs.active = f"tab-{pane_id}"

    def narrowed(self) -> None:
        """The screen is narrow: the tabs above the panes, made now if this is the first time."""
        if self.tabs is None:
            self.mount(self.made_tabs(), before=self.query_one("#panes"))

    def made_tabs(self) -> "PaneTabs":
        """The tabs, made (Textual's tabs are imported with them)."""
        from reviewer.ui.widgets.pane_tabs import PaneTabs

        self.tabs = PaneTabs(f"tab-{self.active_pane}")
        return self.tabs

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The tab follows focus."""
        pane = pane_of(event.widget)
        if pane is not None and pane.id != self.active_pane:
            self.activate(pane.id or "code")

    @on(PanePicked)
    def tab_clicked(self, event: PanePicked) -> None:
        """A tab was clicked: show that pane and focus it."""
        target = self.pane(event.pane_id).focus_target()
        self.screen.set_focus(target, scroll_visible=False)
        self.activate(event.pane_id)

    def stops(self) -> list[Widget]:
        """The widgets tab moves between here, in order: each pane's views."""
        out: list[Widget] = []
        for pane_id in PANE_IDS:
            out.append(self.pane(pane_id).focus_target())
            if pane_id == "grader":
                out.append(self.query_one("#output"))
                out += [view for view in self.query("#rescored").results(TextView) if view.display]
        return out

    def show(self, rendered: Rendered, symbols: Mapping[str, str]) -> None:
        """Put a rendered view into every pane (inside the app's ``batch_update``)."""
        view = rendered.view
        if view.selection.failure_id != self.shown_failure:  # a new failure starts every pane at column 0
            self.shown_failure = view.selection.failure_id
            if not self.views:
                self.views = tuple(self.query(TextView))  # composed once: the walk is done once
            for text in self.views:
                text.scroll_to(x=0, animate=False, immediate=True)
        self.brief.show(rendered)
        self.code.show(view.code, rendered.code)
        self.grader.show(view, rendered.output, symbols)
        self.transcript.show(view, rendered.transcript)

    def relabelled(self, view: FailureView | None, symbols: Mapping[str, str]) -> None:
        """Labels changed: the check list, from the view as it is now."""
        if view is not None and view.run is not None:
            self.grader.show_checks(view, symbols)

    def coloured(self, rendered: Rendered, view: FailureView) -> None:
        """The shown view's syntax colours; and, after a plain first screen, its brief's Markdown
        and its transcript's code colours (one paint)."""
        if rendered.brief is not None and self.brief.drawn is not None and self.brief.drawn.theme is None:
            self.brief.show(rendered)
        self.code.show_part(rendered.code)
        if rendered.transcript is not None and self.transcript.built is not None and self.transcript.built.plain:
            self.transcript.show(view, rendered.transcript)

    def evidence_needed(self, failure_id: str, known: Evidence | None) -> bool:
        """Whether a failure's evidence must be computed: not known, and not on the strip (which may
        be waiting for it)."""
        panel = self.evidence
        return bool(failure_id) and known is None and (failure_id != panel.failure_id or panel.evidence is None)

    def point_evidence(self, failure_id: str, known: Evidence | None) -> None:
        """The strip follows the selection: its evidence when known, else waiting for it (a strip that
        waits takes evidence that came meanwhile: a result that landed during a move is not shown)."""
        panel = self.evidence
        if failure_id == panel.failure_id and (panel.evidence is not None or known is None):
            return
        if known is not None:
            panel.show(failure_id, known)
        else:
            panel.waiting(failure_id)

    def show_evidence(self, failure_id: str, evidence: Evidence | None, error: str) -> None:
        """A failure's evidence (or why it could not be computed)."""
        self.evidence.show(failure_id, evidence, error)

    def find_target(self, focused: Widget | None) -> tuple[TextView, str] | None:
        """The text view ctrl+f searches and its pane's title: the focused view, else the pane's main one."""
        pane = pane_of(focused) or self.pane(self.active_pane)
        if isinstance(focused, TextView) and pane_of(focused) is not None:
            return focused, pane.TITLE
        views = list(pane.query("#output").results(TextView)) if pane.id == "grader" else list(pane.query(TextView))
        return (views[0], pane.TITLE) if views else None
