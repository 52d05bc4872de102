"""The ways ``j``/``k`` and the move after a label walk the failures.

Three walks, each an object with the same two questions: where does a step go, and which is
the next failure this reviewer has not labelled? :class:`EveryFailure` goes across the listed
runs in list order (and may need runs counted first), :class:`ListWalk` goes through a fixed
list of failure ids (a cluster, the disagreements). The session holds one walk at a time.
"""

from __future__ import annotations

from typing import Callable, Protocol, Sequence

from reviewer.model.records import record
from reviewer.review.selection import End, Move, NeedsCounting, Selection, Target, Toward, run_key_of

Lookup = Callable[[str], "tuple[str, ...] | None"]
"""A run's failure ids, or None when the run is not counted yet."""
Wanted = Callable[[str], bool]
"""Whether a failure is one to stop at (not labelled by this reviewer)."""


@record
class ListedRuns:
    """What a walk needs to know about the run list: the listed run keys in order, their failures
    (as counted so far) and which runs the folder holds."""

    order: Sequence[str]
    lookup: Lookup
    has_run: Callable[[str], bool]


class Walk(Protocol):
    """A way of walking failures."""

    name: str
    """``every failure``, ``cluster``, ``disagreements``."""

    def step(self, listed: ListedRuns, current: Selection, step: int) -> Move:
        """The next (+1) or previous (-1) failure."""

    def next_unlabelled(self, listed: ListedRuns, current: Selection, wanted: Wanted) -> Move:
        """The next failure after the current one that ``wanted`` accepts (wrapping)."""


class EveryFailure:
    """Every failure of the listed runs, in list order."""

    name = "every failure"

    def step(self, listed: ListedRuns, current: Selection, step: int) -> Move:
        """Across runs; NeedsCounting when a run on the way is not counted yet."""
        order, lookup = listed.order, listed.lookup
        try:
            start = order.index(current.run_key) if current.run_key else -1
        except ValueError:  # the current run is filtered out: start from the list's edge
            start = -1
        own = lookup(current.run_key) if start >= 0 else None
        if own is not None and current.failure_id in own:
            index = own.index(current.failure_id) + step
            if 0 <= index < len(own):
                return Target(current.run_key, own[index])
        elif own and not current.failure_id:
            return Target(current.run_key, own[0] if step > 0 else own[-1])
        if start < 0 and step < 0:
            start = len(order)
        index = start + step
        while 0 <= index < len(order):
            key = order[index]
            ids = lookup(key)
            if ids is None:
                return NeedsCounting(key, Toward.STEP, step)
            if ids:
                return Target(key, ids[0] if step > 0 else ids[-1])
            index += step
        if not current.run_key:
            return End("No failing checks in this list.", bell=True)
        return End("No more failures in this direction.", bell=True)

    def next_unlabelled(self, listed: ListedRuns, current: Selection, wanted: Wanted) -> Move:
        """Across runs from the current failure, wrapping round the list once."""
        order, lookup = listed.order, listed.lookup
        done = End("Every failure in this list is labelled.")
        if not order:
            return done
        try:
            start = order.index(current.run_key)
        except ValueError:
            start = -1
        if start >= 0:
            own = lookup(current.run_key)
            if own is None:
                return NeedsCounting(current.run_key, Toward.UNLABELLED)
            after = own.index(current.failure_id) + 1 if current.failure_id in own else 0
            for fid in own[after:]:
                if wanted(fid):
                    return Target(current.run_key, fid)
        n = len(order)
        for offset in range(1, n + 1):
            key = order[(start + offset) % n]
            ids = lookup(key)
            if ids is None:
                return NeedsCounting(key, Toward.UNLABELLED)
            for fid in ids:
                if key == current.run_key and fid == current.failure_id:
                    return done
                if wanted(fid):
                    return Target(key, fid)
        return done


class ListWalk:
    """A fixed list of failure ids: a cluster's, or the disagreements'."""

    def __init__(self, name: str, failure_ids: Sequence[str], what: str) -> None:
        self.name = name
        self.failure_ids = tuple(failure_ids)
        self.what = what
        """How the list is named in messages: ``in this cluster``, ``among the disagreements``."""

    def present(self, listed: ListedRuns) -> list[str]:
        """The ids whose run is in the folder."""
        return [f for f in self.failure_ids if listed.has_run(run_key_of(f))]

    def position(self, listed: ListedRuns, failure_id: str) -> tuple[int, int]:
        """(1-based position of a failure, how many): position 0 when it is not in the list."""
        ids = self.present(listed)
        return (ids.index(failure_id) + 1 if failure_id in ids else 0), len(ids)

    def step(self, listed: ListedRuns, current: Selection, step: int) -> Move:
        """The next or previous id of the list; no wrapping."""
        ids = self.present(listed)
        here = current.failure_id
        index = ids.index(here) + step if here in ids else (0 if step > 0 else len(ids) - 1)
        if not 0 <= index < len(ids):
            return End(f"No more failures {self.what} in this direction.", bell=True)
        return Target(run_key_of(ids[index]), ids[index])

    def next_unlabelled(self, listed: ListedRuns, current: Selection, wanted: Wanted) -> Move:
        """The next id after the current one that ``wanted`` accepts, wrapping."""
        ids = self.present(listed)
        here = current.failure_id
        start = ids.index(here) + 1 if here in ids else 0
        for fid in ids[start:] + ids[:start]:
            if fid != here and wanted(fid):
                return Target(run_key_of(fid), fid)
        return End(f"Every failure {self.what} is labelled.")


class Disagreements(ListWalk):
    """The failures where reviewers disagree; after a decision the walk simply moves on."""

    def __init__(self, failure_ids: Sequence[str]) -> None:
        super().__init__("disagreements", failure_ids, "among the disagreements")

    def next_unlabelled(self, listed: ListedRuns, current: Selection, wanted: Wanted) -> Move:
        """The next disagreement (each is decided again by adjudication, not skipped when labelled)."""
        move = self.step(listed, current, 1)
        return End(move.message) if isinstance(move, End) else move
