"""Analysis of failures and labels: evidence, near-misses, clusters, statistics, scores.

Pure logic over the model, reading recorded data only through a
:class:`~reviewer.store.sessions.SessionStore` and the label files; no Textual, no git. Every
result is a frozen dataclass, cheap to compute and safe to build in a worker thread; each
has a plain-text renderer (``render_*``) whose output is sanitised and can be shown in a
``Static`` through ``Text`` (never as markup).

Modules:

- :mod:`.evidence`: :func:`~.evidence.evidence_for` ``(store, run, failure, cancel=None)`` /
  :func:`~.evidence.analyse` -> :class:`~.evidence.Evidence` (demands stated or not and met or
  not, near misses with their direction, the crash that hid the output, hints, across models).
- :mod:`.report`: :func:`~.report.evidence_report` -> :class:`~.report.EvidenceReport`, the
  strip's lines for the app and ``show``; :func:`~.report.render_evidence`,
  :func:`~.report.evidence_json` (``show --json``).
- :mod:`.across`: :func:`~.across.across` (the same check across models),
  :func:`~.across.task_matrix` (task x model pass/fail with labelled shares).
- :mod:`.proposals`: :func:`~.proposals.propose` -> repairs of notation for the re-score.
- :mod:`.scan`: linear readers of recorded lines and the cancel check (:class:`~.scan.Cancelled`).
- :mod:`.output`, :mod:`.code`, :mod:`.keys`, :mod:`.judge`, :mod:`.tables`: the program's
  output and crash, its code, near misses of keys, met/unmet and direction, tables of cases.
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
