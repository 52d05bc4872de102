"""The Evidence strip under the panes: what the failing check demanded and whether the brief says so.

It follows the app's selection. Evidence is computed in a thread worker (one exclusive group:
a newer failure cancels the older request) and remembered per failure, so stepping back is
instant and the screen never waits. ``v`` hides and shows the strip.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual import work
from textual.app import ComposeResult
from textual.cache import LRUCache
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.worker import get_current_worker

from reviewer.analysis.evidence import Evidence, evidence_for
from reviewer.analysis.scan import Cancelled
from reviewer.ui.evidence import evidence_lines, summary
from reviewer.ui.render import one_line
from reviewer.ui.state import Selection
from reviewer.ui.widgets.text_view import TextView

if TYPE_CHECKING:
    from reviewer.ui.app import ReviewApp

CACHED = 256
"""Failures whose evidence is remembered."""


class EvidencePanel(Vertical):
    """The current failure's demands (stated, near, not stated), near-misses and hints."""

    class Ready(Message):
        """Evidence of a failure computed in the worker (``error`` when it could not be)."""

        def __init__(self, failure_id: str, evidence: Evidence | None, error: str = "") -> None:
            super().__init__()
            self.failure_id = failure_id
            self.evidence = evidence
            self.error = error

    def __init__(self, id: str = "evidence") -> None:
        super().__init__(id=id)
        self.border_title = Content("Evidence")
        self.failure_id = ""
        """The failure shown (or being computed)."""
        self.evidence: Evidence | None = None
        """The evidence on screen, None while computing or when there is none."""
        self.cache: LRUCache[str, Evidence] = LRUCache(CACHED)

    @property
    def review(self) -> "ReviewApp":
        """The app, typed."""
        return cast("ReviewApp", self.app)

    @property
    def view(self) -> TextView:
        """The lines."""
        return self.query_one(TextView)

    def compose(self) -> ComposeResult:
        """One wrapped text view."""
        yield TextView(wrap=True, id="evidence-view")

    def on_mount(self) -> None:
        """Follow the app's selection."""
        self.view.show_notice("no failure selected")
        self.watch(self.app, "selection", self.selection_changed, init=False)

    def selection_changed(self, selection: Selection) -> None:
        """A new failure: show its evidence (computed in a worker unless remembered)."""
        if selection.failure_id != self.failure_id:
            self.show_failure(selection.failure_id)

    def show_failure(self, failure_id: str) -> None:
        """Show a failure's evidence; nothing is computed while the strip is hidden."""
        self.failure_id = failure_id
        self.evidence = None
        if not failure_id:
            self.border_title = Content("Evidence")
            self.view.show_notice("no failure selected")
            return
        if not self.display:
            return
        known = self.cache.get(failure_id)
        if known is not None:
            self.draw(known)
            return
        self.view.show_notice("reading the brief and the check\u2026")
        self.compute(failure_id)

    def shown_again(self) -> None:
        """The strip was hidden and is shown again: catch up with the selection."""
        wanted = self.review.selection.failure_id
        if wanted != self.failure_id or self.evidence is None:
            self.show_failure(wanted)

    @work(thread=True, exclusive=True, group="evidence-panel")
    def compute(self, failure_id: str) -> None:
        """Find the failure and compute its evidence (worker thread)."""
        app = self.review
        worker = get_current_worker()
        try:
            run, failure = app.labeller.find(failure_id)
            evidence = evidence_for(app.store, run, failure, cancel=lambda: worker.is_cancelled)
        except Cancelled:
            return
        except Exception as exc:  # noqa: BLE001 - an analysis bug must not stop the review
            if not get_current_worker().is_cancelled:
                self.post_message(self.Ready(failure_id, None, f"{type(exc).__name__}: {exc}"))
            return
        if not get_current_worker().is_cancelled:
            self.post_message(self.Ready(failure_id, evidence))

    def on_evidence_panel_ready(self, message: Ready) -> None:
        """Remember the result; show it if that failure is still current."""
        if message.evidence is not None:
            self.cache[message.failure_id] = message.evidence
        if message.failure_id != self.failure_id:
            return
        if message.evidence is None:
            self.border_title = Content("Evidence")
            self.view.show_notice(f"the evidence could not be computed: {one_line(message.error, 300)}", "$text-error")
            return
        self.draw(message.evidence)

    def draw(self, evidence: Evidence) -> None:
        """Title with the counts, then one line per near-miss, demand and hint."""
        self.evidence = evidence
        self.border_title = Content.assemble("Evidence  ", (summary(evidence), "$text-muted"))
        self.view.set_lines(evidence_lines(evidence))
