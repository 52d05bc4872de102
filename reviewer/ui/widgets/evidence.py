"""The Evidence strip under the panes: what the failing check demanded and whether the brief says so.

It shows what it is handed: the app computes the evidence in a worker (remembered per failure,
so stepping back is instant) and hands it over. ``v`` hides and shows the strip. A failure a
proposed repair of notation would settle is marked "decidable by re-scoring", with the repair
(:mod:`reviewer.analysis.evidence.decidable`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content

from reviewer.model.sanitize import one_line
from reviewer.ui.render.evidence import evidence_lines, summary
from reviewer.ui.widgets.text_view import TextView

if TYPE_CHECKING:
    from reviewer.analysis.evidence.engine import Evidence


class EvidencePanel(Vertical):
    """The current failure's demands (stated, near, not stated), near-misses and hints."""

    def __init__(self, id: str = "evidence") -> None:
        super().__init__(id=id)
        self.border_title = Content("Evidence")
        self.failure_id = ""
        """The failure shown (or being computed)."""
        self.evidence: Evidence | None = None
        """The evidence on screen, None while computing or when there is none."""
        self.decidable = False
        """The failure shown is decidable by re-scoring (a proposed repair would settle it)."""
        self.rescore = ("", "")
        """(failure id, line): what re-scoring that failure did, shown first (see :meth:`rescored`)."""
        self.view = TextView(wrap=True, id="evidence-view")
        """The lines (made with the strip and held: evidence may arrive before it is mounted or after
        the screen has gone)."""

    def compose(self) -> ComposeResult:
        """One wrapped text view."""
        yield self.view

    def on_mount(self) -> None:
        """Nothing to show yet."""
        self.view.show_notice("no failure selected")

    def waiting(self, failure_id: str) -> None:
        """A failure whose evidence is being computed."""
        self.failure_id, self.evidence, self.decidable = failure_id, None, False
        self.border_title = Content("Evidence")
        if failure_id:
            self.view.show_notice("reading the brief and the check\u2026")
        else:
            self.view.show_notice("no failure selected")

    def show(self, failure_id: str, evidence: Evidence | None, error: str = "") -> None:
        """Title with the counts, then one line per near-miss, demand and hint (or why there is none)."""
        self.failure_id, self.evidence, self.decidable = failure_id, evidence, False
        if evidence is None:
            self.border_title = Content("Evidence")
            self.view.show_notice(f"the evidence could not be computed: {one_line(error, 300)}", "$text-error")
            return
        from reviewer.analysis.evidence.decidable import MARK, decidable

        settles = decidable(evidence)
        self.decidable = settles is not None
        mark = (f"{MARK} decidable by re-scoring  ", "bold $text-accent") if settles is not None else ""
        self.border_title = Content.assemble("Evidence  ", mark, (summary(evidence), "$text-muted"))
        lines = evidence_lines(evidence)
        if settles is not None:
            lines.insert(0, Content.styled(settles.line, "bold $text-accent"))
        if self.rescore[1] and self.rescore[0] == failure_id:
            lines.insert(0, Content.styled(self.rescore[1], "bold $text-success"))
        self.view.set_lines(lines)

    def rescored(self, failure_id: str, line: str) -> None:
        """What re-scoring a failure did (``line`` already plain; "" for none); redrawn when it is on screen."""
        if self.rescore == (failure_id, line):
            return
        self.rescore = (failure_id, line)
        if self.evidence is not None and self.failure_id == failure_id:
            self.show(failure_id, self.evidence)
