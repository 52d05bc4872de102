"""Which walk ``j``/``k`` follow: every failure, one cluster, or the disagreements."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reviewer.model.wording import count
from reviewer.review.moving.walks import Disagreements, EveryFailure, ListedRuns, ListWalk, Walk
from reviewer.review.outcome import Outcome, saying
from reviewer.review.reviewers import ReviewersSnapshot
from reviewer.review.selection import Selection, Target

if TYPE_CHECKING:
    from reviewer.analysis.clusters import Cluster

EVERY_FAILURE = EveryFailure()


class Walking:
    """The walk in force, and the cluster it follows when it is a cluster's."""

    def __init__(self) -> None:
        self.walk: Walk = EVERY_FAILURE
        self.cluster: Cluster | None = None
        self.want_disagreements = False
        """``D`` was pressed: enter the disagreements walk once the labels are read again."""

    @property
    def disagreements(self) -> bool:
        """The disagreements walk is on (every reviewer's verdict is shown)."""
        return isinstance(self.walk, Disagreements)

    def every(self, message: str) -> Outcome:
        """Back to every failure."""
        self.walk, self.cluster = EVERY_FAILURE, None
        return saying(message, timeout=3)

    def follow_cluster(self, cluster: Cluster | None, listed: ListedRuns, here: Selection) -> Outcome:
        """Walk only this cluster's failures (None: every failure); go to its first one."""
        if cluster is None:
            return self.every("j/k walk every failure again.")
        walk = ListWalk("cluster", cluster.failure_ids, "in this cluster")
        self.walk, self.cluster = walk, cluster
        out = saying(f"j/k walk the {count(cluster.size, 'failure')} of this cluster (C, then x: every failure).", timeout=4)
        if here.failure_id not in walk.present(listed):
            out = out.then(Outcome(move=walk.step(listed, Selection(), 1)))
        return out

    def follow_disagreements(self, snapshot: ReviewersSnapshot, listed: ListedRuns, here: Selection) -> Outcome:
        """Switch to the disagreements walk at the first disagreement (or stay on the current one)."""
        self.want_disagreements = False
        walk = Disagreements(snapshot.disagreements)
        ids = walk.present(listed)
        if not ids:
            return saying("No disagreements: reviewers agree on every failure they both decided.")
        self.walk, self.cluster = walk, None
        out = saying(f"{count(len(ids), 'failure')} where reviewers disagree: j/k step through them, A adjudicates, "
                   "D goes back.", "Disagreements")
        if here.failure_id not in ids:
            out = out.then(Outcome(move=Target(ids[0].partition("#")[0], ids[0])))
        return out
