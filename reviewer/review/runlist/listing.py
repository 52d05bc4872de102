"""The run list as the review session holds it: runs, filter, search, folded groups, and totals.

The list decides what ``j``/``k``/``J``/``K`` walk (its ``order``) and what the status line
counts. Rows are built by the pure :func:`~reviewer.review.runlist.rows.build_rows`; a big list is built
in a worker from a :meth:`RunList.request` and handed back with :meth:`RunList.take`, which
ignores an answer to an older request.
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence

from reviewer.model import Run
from reviewer.model.records import record
from reviewer.review.runlist.rows import Keep, Rows, RunFilter, build_rows, group_keys, haystack, search_words
from reviewer.review.selection import Selection

SYNC_ROWS = 5_000
"""Lists up to this many runs are rebuilt at once; bigger ones in a worker."""


@record
class ListRequest:
    """Everything a rebuild needs, as a snapshot a worker may use."""

    generation: int
    runs: list[Run]
    keys: list[str]
    keep: Keep
    folded: frozenset[str]
    haystack: Mapping[str, str]

    def build(self) -> tuple[Rows, list[str]]:
        """Rows and order (any thread)."""
        return build_rows(self.runs, self.keep, self.folded, self.keys)


class RunList:
    """The listed runs and how they are filtered."""

    def __init__(self) -> None:
        self.runs: list[Run] = []
        self.keys: list[str] = []
        self.filter = RunFilter.ALL
        self.search = ""
        self.folded: set[str] = set()
        self.rows = Rows([])
        self.order: list[str] = []
        """Run keys that pass filter and search, in list order (what j/k/J/K walk)."""
        self.generation = 0
        self.hay: dict[str, str] = {}
        self.listed: frozenset[str] = frozenset()
        """The keys of ``order``, to ask quickly whether a run is listed."""
        self.more = False
        """The runs are the folder's first only: the rest is being read (``200+ runs``)."""

    def set_runs(self, runs: list[Run]) -> None:
        """Show these runs (already in display order)."""
        self.runs = runs
        self.keys = [r.key for r in runs]
        self.hay = {}

    def request(self, failures: Mapping[str, tuple[str, ...]], labelled: Callable[[str], int],
                deferred: Callable[[str], bool]) -> ListRequest:
        """A new rebuild (older answers become stale)."""
        self.generation += 1
        words = search_words(self.search)
        if words and not self.hay:
            self.hay = haystack(self.runs, self.keys)
        keep = Keep(self.filter, words, self.hay, failures, labelled, deferred)
        return ListRequest(self.generation, self.runs, self.keys, keep, frozenset(self.folded), self.hay)

    @property
    def big(self) -> bool:
        """Rebuilt in a worker rather than at once."""
        return len(self.runs) > SYNC_ROWS

    def take(self, generation: int, rows: Rows, order: list[str]) -> bool:
        """Take built rows unless a newer rebuild was asked for meanwhile."""
        if generation != self.generation:
            return False
        self.rows, self.order = rows, order
        self.listed = frozenset(order)
        return True

    def empty_message(self) -> str:
        """What the list says when it has no rows."""
        if not self.runs:
            return "no runs in this folder"
        return "no run matches (F: filter, /: search)"

    def unfold_for(self, run_key: str, run: Run | None) -> bool:
        """Unfold the groups hiding a run; True when something was unfolded (rebuild then)."""
        if run is None or not self.folded & set(group_keys(run)):
            return False
        self.folded -= set(group_keys(run))
        return True

    def toggle(self, group: str) -> None:
        """Fold or unfold a group."""
        self.folded.symmetric_difference_update({group})

    def hides(self, run_key: str) -> bool:
        """The run is not listed (filtered or searched out)."""
        return bool(run_key) and run_key not in self.listed

    def describe(self) -> str:
        """``failing runs matching "roman fjord"`` for the status line ("" when nothing filters)."""
        parts = []
        if self.filter is not RunFilter.ALL:
            parts.append(f"{self.filter.value} runs")
        if search_words(self.search):
            parts.append(f"matching \u201c{' '.join(search_words(self.search))}\u201d")
        return " ".join(parts)


@record
class Tally:
    """Totals over the listed runs, computed once per change of list, counts or labels.

    Attributes:
        before: failures in the runs listed before each counted run (for "failure 3 of 41").
        total: failures in counted runs.
        labelled: labelled failures in counted runs.
        counted: runs whose failures are known.
        runs: runs listed.
    """

    before: dict[str, int]
    total: int
    labelled: int
    counted: int
    runs: int

    @property
    def complete(self) -> bool:
        """Every listed run is counted."""
        return self.counted == self.runs

    def position(self, selection: Selection, failures: Mapping[str, tuple[str, ...]]) -> int:
        """1-based position of the current failure among the listed ones, 0 when not listed."""
        start = self.before.get(selection.run_key)
        ids = failures.get(selection.run_key)
        if start is None or ids is None or selection.failure_id not in ids:
            return 0
        return start + ids.index(selection.failure_id) + 1


EMPTY_TALLY = Tally({}, 0, 0, 0, 0)


def tally(order: Sequence[str], failures: Mapping[str, tuple[str, ...]], labelled: Callable[[str], int]) -> Tally:
    """Count failures and labels over the listed runs (any thread, with snapshots)."""
    before: dict[str, int] = {}
    total = done = counted = 0
    for key in order:
        ids = failures.get(key)
        if ids is None:
            continue
        before[key] = total
        counted += 1
        if ids:
            total += len(ids)
            done += min(labelled(key), len(ids))
    return Tally(before, total, done, counted, len(order))
