"""Figures over the verdicts: shares per task and model, pass rates as graded, corrected and
re-scored, the verifier's false-negative rate, agreement intervals, predictor scores, and the
data of the HTML report.

- :mod:`.facts`: one pass over a folder: every failure with its final verdict, each run's passes.
- :mod:`.summary`: :func:`compute_stats` (with its :class:`Scope`), JSON and text.
- :mod:`.passrates`: pass rates and the ranking of models both ways.
- :mod:`.intervals`: Wilson's interval, the kappa interval.
- :mod:`.rescored`: what the saved re-scores flipped.
- :mod:`.score`: a predictor of specification defects scored against the labels.
- :mod:`.report_data`: :func:`build_report`, everything ``reviewer report`` shows.
- :mod:`.bars`: terminal bar charts as plain strings.
"""

from __future__ import annotations

from reviewer.analysis.stats.facts import Facts, FailureFact, collect
from reviewer.analysis.stats.intervals import kappa_interval, wilson
from reviewer.analysis.stats.summary import Scope, Stats, compute_stats, render_stats, stats_json

__all__ = ["Facts", "FailureFact", "Scope", "Stats", "collect", "compute_stats", "kappa_interval", "render_stats",
           "stats_json", "wilson"]
