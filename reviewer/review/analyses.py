"""What the review's side screens read: label history, clusters, statistics (worker threads).

The screens get these as callables from the app, so no screen reads the folder itself.
"""

from __future__ import annotations

from pathlib import Path

from reviewer.analysis.clusters import Cluster, ClusterPlan, find_clusters, plan_cluster_label
from reviewer.analysis.facts import collect
from reviewer.analysis.stats import compute_stats, render_stats
from reviewer.model import split_failure_id
from reviewer.model.label import Verdict
from reviewer.store.githistory import HistoryEntry, label_history
from reviewer.store.gitrepo import GitUnsafe
from reviewer.store.labeller import Labeller
from reviewer.store.protocol import Store

__all__ = ["Analyses", "HistoryEntry", "Unavailable"]


class Unavailable(Exception):
    """What a side screen asked for cannot be had; the message says why, for the screen."""


class Analyses:
    """The folder-wide readings behind ``H``, ``C`` and ``S``."""

    def __init__(self, store: Store, labeller: Labeller) -> None:
        self.store = store
        self.labeller = labeller

    def history(self, failure_id: str) -> list[HistoryEntry]:
        """A failure's label history from git."""
        try:
            session, run, check = split_failure_id(failure_id)
            return label_history(Path(self.store.root), session, run, check)
        except GitUnsafe as exc:
            raise Unavailable(f"git refuses this repository (dubious ownership). If you trust it, run: {exc.command}") from None
        except Exception as exc:  # noqa: BLE001 - shown in the box; the app goes on
            raise Unavailable(f"cannot read the history: {exc}") from None

    def clusters(self) -> tuple[Cluster, ...]:
        """The folder's failure clusters, widest spread first."""
        return find_clusters(collect(self.store))  # type: ignore[arg-type]

    def plan(self, cluster: Cluster, verdict: Verdict) -> ClusterPlan:
        """What labelling a whole cluster would change."""
        return plan_cluster_label(self.labeller, cluster.failure_ids, verdict)

    def stats(self, width: int) -> str:
        """The statistics text, as ``reviewer stats`` prints it."""
        return render_stats(compute_stats(collect(self.store)), width)  # type: ignore[arg-type]
