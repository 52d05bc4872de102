"""Checker-versus-brief evidence for one failure, and what a re-score could settle.

The engine (:mod:`.engine`) reads the brief, the grader's source, the graded code, the grader's
other checks and what a re-score observed of the program, and weighs every demand of the
failing check (:mod:`.weigh`): stated in the brief or not, met by the program or not. Near
misses of notation come from expected/actual pairs and from the keys the program printed
(:mod:`.keys`). :mod:`.strip` turns the evidence into the lines the app's strip, ``reviewer
show`` and ``show --json`` print, so all three say the same. :mod:`.proposals` proposes repairs
of notation; :mod:`.decidable` says whether a re-score would settle the failure. :mod:`.across`
is the same check across models. Evidence is a hint for the reviewer, never a label.

Entry points: :func:`evidence_for` ``(store, run, failure, cancel=None)`` -> :class:`Evidence`;
:func:`evidence_report`, :func:`render_evidence`, :func:`evidence_json`; :func:`propose`;
:func:`decidable`; :func:`across`, :func:`with_across`, :func:`task_matrix`.
"""

from __future__ import annotations

from reviewer.analysis.evidence.across import Across, AcrossRow, Matrix, across, task_matrix, with_across
from reviewer.analysis.evidence.decidable import Decidable, decidable
from reviewer.analysis.evidence.engine import Evidence, Hint, Source, analyse, evidence_for
from reviewer.analysis.evidence.proposals import propose, repair_of
from reviewer.analysis.evidence.strip import EvidenceReport, ReportItem, evidence_json, evidence_report, render_evidence

__all__ = [
    "Across", "AcrossRow", "Decidable", "Evidence", "EvidenceReport", "Hint", "Matrix", "ReportItem", "Source",
    "across", "analyse", "decidable", "evidence_for", "evidence_json", "evidence_report", "propose", "render_evidence",
    "repair_of", "task_matrix", "with_across",
]
