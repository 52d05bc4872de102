"""Judges: what a judge is shown of a failure, and the project's own instruments as judges.

- :mod:`.inputs`: :func:`judge_input`, the document a judge reads on its stdin (the protocol's
  input, :data:`reviewer.model.prediction.INPUT_SCHEMA`), and :func:`document_bytes`.
- :mod:`.builtin`: :func:`evidence_answer` (the Evidence strip's hint) and :func:`rescore_answer`
  (the saved re-scores) as verdicts.

Running a judge command is I/O (:mod:`reviewer.judging`); scoring judges against the humans is
:mod:`reviewer.analysis.stats.judged`.
"""

from __future__ import annotations

from reviewer.analysis.judges.builtin import evidence_answer, rescore_answer
from reviewer.analysis.judges.inputs import document_bytes, judge_input

__all__ = ["document_bytes", "evidence_answer", "judge_input", "rescore_answer"]
