"""Analysis of failures and labels: evidence, near-misses, clusters, statistics, scores.

Pure logic over the model, reading recorded data only through a
:class:`~reviewer.store.sessions.SessionStore` and the label files; no Textual, no git. Every
result is a frozen dataclass, cheap to compute and safe to build in a worker thread; each
has a plain-text renderer (``render_*``) whose output is sanitised and can be shown in a
``Static`` through ``Text`` (never as markup).

Modules:

- :mod:`.evidence`: :func:`~.evidence.evidence_for` / :func:`~.evidence.analyse` ->
  :class:`~.evidence.Evidence` (demands with stated verbatim/near/unstated, near-misses, hints);
  :func:`~.evidence.render_evidence`.
- :mod:`.nearmiss`: :func:`~.nearmiss.near_miss` (expected, actual) -> NearMiss or None.
- :mod:`.clusters`: :func:`~.clusters.find_clusters` -> clusters by (task, check) and (task,
  normalised message); :func:`~.clusters.plan_cluster_label` for "label the whole cluster".
- :mod:`.facts`: one pass over a folder: failures with their final verdicts, or one reviewer's
  own labels (``only``), and each run's passing checks (``count_passes``); stale = unlabelled.
- :mod:`.stats`: :func:`~.stats.compute_stats` (with its :class:`~.stats.Scope`), JSON and text.
- :mod:`.passrates`: pass rates as graded, corrected and re-scored, the ranking of models.
- :mod:`.intervals`: Wilson intervals, the kappa interval.
- :mod:`.report_data`: :func:`~.report_data.build_report`, what ``reviewer report`` shows.
- :mod:`.score`: :func:`~.score.read_predictions`, :func:`~.score.score_predictions`.
- :mod:`.bars`: terminal bar charts as strings (``█`` and eighth blocks ``▏▎▍▌▋▊▉``).
"""

from __future__ import annotations
