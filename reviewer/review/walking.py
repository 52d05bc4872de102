"""Which walk ``j``/``k`` follow: every failure, one cluster, or the disagreements."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from reviewer.model.wording import count
from reviewer.review.outcome import Outcome, tell
from reviewer.review.reviewers import ReviewersSnapshot
from reviewer.review.selection import Move, Selection, Target
from reviewer.review.walks import Disagreements, EveryFailure, ListWalk, Place, Walk

if TYPE_CHECKING:
    from reviewer.analysis.clusters import Cluster
    from reviewer.review.folder import Folder

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
        return tell(message, timeout=3)

    def follow_cluster(self, cluster: Cluster | None, place: Place, here: Selection) -> Outcome:
        """Walk only this cluster's failures (None: every failure); go to its first one."""
        if cluster is None:
            return self.every("j/k walk every failure again.")
        walk = ListWalk("cluster", cluster.failure_ids, "in this cluster")
        self.walk, self.cluster = walk, cluster
        out = tell(f"j/k walk the {count(cluster.size, 'failure')} of this cluster (C, then x: every failure).", timeout=4)
        if here.failure_id not in walk.present(place):
            out = out.then(Outcome(move=walk.step(place, Selection(), 1)))
        return out

    def follow_disagreements(self, snapshot: ReviewersSnapshot, place: Place, here: Selection) -> Outcome:
        """Switch to the disagreements walk at the first disagreement (or stay on the current one)."""
        self.want_disagreements = False
        walk = Disagreements(snapshot.disagreements)
        ids = walk.present(place)
        if not ids:
            return tell("No disagreements: reviewers agree on every failure they both decided.")
        self.walk, self.cluster = walk, None
        out = tell(f"{count(len(ids), 'failure')} where reviewers disagree: j/k step through them, A adjudicates, "
                   "D goes back.", "Disagreements")
        if here.failure_id not in ids:
            out = out.then(Outcome(move=Target(ids[0].partition("#")[0], ids[0])))
        return out


def seek(folder: Folder, walk: Walk, unlabelled: Callable[[str], bool], kind: str, current: Selection,
         order: list[str], step: int, cancelled: Callable[[], bool]) -> tuple[Move, dict[str, tuple[str, ...]]]:
    """A move along ``walk`` over ``order`` that counts the runs it needs on the way (worker thread).

    ``kind`` is ``step``, ``unlabelled`` or ``open`` (count only ``order[0]``, go to its first
    failure). Returns the move and the failure ids counted, by run key.
    """
    found: dict[str, tuple[str, ...]] = {}

    def lookup(key: str) -> tuple[str, ...] | None:
        ids = folder.failure_ids.get(key)
        if ids is None:
            ids = found.get(key)
        if ids is None and not cancelled():
            run = folder.runs_by_key.get(key)
            ids = found[key] = folder.read_failures(run)[0] if run is not None else ()
        return ids

    if kind == "open":
        ids = lookup(order[0]) or ()
        return Target(order[0], ids[0] if ids else ""), found
    place = Place(order, lookup, folder.runs_by_key.__contains__)
    if kind == "step":
        return walk.step(place, current, step), found
    return walk.next_unlabelled(place, current, unlabelled), found
