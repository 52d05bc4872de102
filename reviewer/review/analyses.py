"""What the review's side screens read: label history, clusters, statistics (worker threads).

In blind mode clusters and statistics count only this reviewer's own labels, like ``reviewer stats``,
and a label's history shows only this reviewer's changes until they have decided the failure (or
asked to see the others' verdicts with ``r``).

The screens get these as callables from the app, so no screen reads the folder itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reviewer.model import split_failure_id
from reviewer.model.label import Verdict
from reviewer.store.labels import Labeller
from reviewer.store.sessions.protocol import Store

if TYPE_CHECKING:
    from reviewer.analysis.clusters import Cluster, ClusterPlan
    from reviewer.store.git import HistoryEntry

__all__ = ["Analyses", "HistoryEntry", "Unavailable"]


class Unavailable(Exception):
    """What a side screen asked for cannot be had; the message says why, for the screen."""


class Analyses:
    """The folder-wide readings behind ``H``, ``C`` and ``S``."""

    def __init__(self, store: Store, labeller: Labeller, blind: bool = True, revealed: set[str] | None = None) -> None:
        self.store = store
        self.labeller = labeller
        self.blind = blind
        """Blind mode: clusters and statistics count this reviewer's own labels only."""
        self.revealed = revealed if revealed is not None else set()
        """Failures whose other verdicts this reviewer asked to see (``r``; the reviewers' set)."""

    @property
    def only(self) -> str | None:
        """Whose labels count: this reviewer's in blind mode, else everyone's final verdicts (None)."""
        return self.labeller.labels.reviewer if self.blind else None

    def history_blinded(self, failure_id: str) -> bool:
        """Blind mode hides the other reviewers' (and the adjudicator's) changes to this failure's
        label: this reviewer has not decided it and has not asked to see the others' verdicts."""
        if not self.blind or failure_id in self.revealed:
            return False
        try:
            run, failure = self.labeller.find(failure_id)
        except Exception:  # noqa: BLE001 - no such failure now: nothing of anyone else shows
            return True
        return not self.labeller.state(run, failure).decided

    def history(self, failure_id: str) -> list[HistoryEntry]:
        """A failure's label history from git (this reviewer's changes only while blinded)."""
        from reviewer.store.git import GitUnsafe, label_history

        try:
            session, run, check = split_failure_id(failure_id)
            entries = label_history(Path(self.store.root), session, run, check)
            me = self.labeller.labels.reviewer
            return [e for e in entries if e.reviewer == me] if self.history_blinded(failure_id) else entries
        except GitUnsafe as exc:
            raise Unavailable(f"git refuses this repository (dubious ownership). If you trust it, run: {exc.command}") from None
        except Exception as exc:  # noqa: BLE001 - shown in the box; the app goes on
            raise Unavailable(f"cannot read the history: {exc}") from None

    def clusters(self) -> tuple[Cluster, ...]:
        """The folder's failure clusters, widest spread first."""
        from reviewer.analysis.clusters import find_clusters
        from reviewer.analysis.stats.facts import collect

        return find_clusters(collect(self.store, only=self.only))

    def plan(self, cluster: Cluster, verdict: Verdict) -> ClusterPlan:
        """What labelling a whole cluster would change."""
        from reviewer.analysis.clusters import plan_cluster_label

        return plan_cluster_label(self.labeller, cluster.failure_ids, verdict)

    def stats(self, width: int) -> str:
        """The statistics text, as ``reviewer stats`` prints it (the re-scored pass rate too)."""
        from reviewer.analysis.stats.rescored import stats_with_rescores
        from reviewer.analysis.stats.summary import Scope

        return stats_with_rescores(self.store, Scope(self.only, self.blind), width)[2]
