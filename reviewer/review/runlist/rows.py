"""The run list's rows and filters: pure functions, safe to run in a worker for big folders."""

from __future__ import annotations

import enum
from array import array
from typing import Callable, Iterator, Mapping, NamedTuple

from reviewer.model import Run
from reviewer.model.records import record


class RunFilter(str, enum.Enum):
    """Which runs the list shows."""

    ALL = "all"
    FAILING = "failing"
    UNLABELLED = "unlabelled"
    DEFERRED = "deferred"

    def next(self) -> "RunFilter":
        """The filter ``F`` switches to: failing, unlabelled, deferred, all, failing..."""
        order = [RunFilter.FAILING, RunFilter.UNLABELLED, RunFilter.DEFERRED, RunFilter.ALL]
        return order[(order.index(self) + 1) % len(order)]


def search_words(text: str) -> tuple[str, ...]:
    """The words of a search, lower case: a run is listed when its text holds every one."""
    return tuple(text.lower().split())


class NavRow(NamedTuple):
    """One row: a session, a task within a session, or a run.

    Attributes:
        kind: "session", "task" or "run".
        key: the run key, or the group's key (session id; session and task).
        depth: indent level.
        run: the run (for a group: its first run, to name the group).
        runs: runs in the group (groups only).
    """

    kind: str
    key: str
    depth: int
    run: Run
    runs: int = 0


def task_key(session: str, task: str) -> str:
    """The key of a task group."""
    return f"{session}\x00{task}"


def group_keys(run: Run) -> tuple[str, str]:
    """The session and task group keys of a run."""
    return run.session, task_key(run.session, run.task)


KINDS = ("session", "task", "run")


class Rows:
    """The rows of the list, stored flat (no object per row) so 100,000 of them are cheap.

    Indexing gives a :class:`NavRow` made on demand.
    """

    def __init__(self, runs: list[Run]) -> None:
        self.runs = runs
        self.kinds = bytearray()
        self.keys: list[str] = []
        self.run_index = array("l")
        self.counts = array("l")
        self.row_of: dict[str, int] = {}
        """Row index of each run row, by run key."""

    def add(self, kind: int, key: str, run: int, count: int = 0) -> None:
        """Append one row."""
        if kind == 2:
            self.row_of[key] = len(self.keys)
        self.kinds.append(kind)
        self.keys.append(key)
        self.run_index.append(run)
        self.counts.append(count)

    def __len__(self) -> int:
        return len(self.keys)

    def __getitem__(self, index: int) -> NavRow:
        kind = self.kinds[index]
        return NavRow(KINDS[kind], self.keys[index], kind, self.runs[self.run_index[index]], self.counts[index])

    def __iter__(self) -> Iterator[NavRow]:
        return (self[i] for i in range(len(self)))

    def index_of(self, key: str) -> int | None:
        """The row with this key (run or group), or None."""
        found = self.row_of.get(key)
        if found is not None:
            return found
        try:
            return self.keys.index(key)
        except ValueError:
            return None


def build_rows(runs: list[Run], keep: Callable[[Run], bool], folded: set[str] | frozenset[str],
               keys: list[str] | None = None) -> tuple[Rows, list[str]]:
    """Rows for the runs that pass ``keep``, grouped, skipping folded groups.

    Returns:
        (rows to draw, keys of every kept run in order, folded or not).
    """
    all_keys = keys if keys is not None else [r.key for r in runs]
    kept = [i for i, r in enumerate(runs) if keep(r)]
    sessions: dict[str, int] = {}
    tasks: dict[tuple[str, str], int] = {}
    for i in kept:
        r = runs[i]
        sessions[r.session] = sessions.get(r.session, 0) + 1
        tasks[(r.session, r.task)] = tasks.get((r.session, r.task), 0) + 1
    rows = Rows(runs)
    add = rows.add
    last_session: str | None = None
    last_task: tuple[str, str] | None = None
    task_folded = False
    for i in kept:
        r = runs[i]
        s = r.session
        if s != last_session:
            add(0, s, i, sessions[s])
            last_session, last_task = s, None
        if s in folded:
            continue
        t = (s, r.task)
        if t != last_task:
            group = task_key(s, r.task)
            add(1, group, i, tasks[t])
            last_task, task_folded = t, group in folded
        if not task_folded:
            add(2, all_keys[i], i)
    return rows, [all_keys[i] for i in kept]


@record
class Keep:
    """Which runs pass the filter and the search (a snapshot, safe to use in a worker).

    Attributes:
        filter: all, failing or unlabelled.
        search: lower-case words the run's haystack must all contain (none: any run).
        haystack: run key -> lower-case text searched.
        failures: failure ids of counted runs.
        labelled: labelled failures of a run.
    """

    filter: RunFilter
    search: tuple[str, ...]
    haystack: Mapping[str, str]
    failures: Mapping[str, tuple[str, ...]]
    labelled: Callable[[str], int]
    deferred: Callable[[str], bool] = lambda _fid: False

    def __call__(self, run: Run) -> bool:
        """Whether the run is listed."""
        key = f"{run.session}/{run.id}"
        if self.search:
            hay = self.haystack.get(key, "")
            if not all(word in hay for word in self.search):
                return False
        if self.filter is RunFilter.ALL:
            return True
        ids = self.failures.get(key)
        if ids is None:
            return run.outcome != "pass"
        if self.filter is RunFilter.FAILING:
            return bool(ids)
        if self.filter is RunFilter.DEFERRED:
            return any(self.deferred(fid) for fid in ids)
        return len(ids) > self.labelled(key)


def haystack(runs: list[Run], keys: list[str]) -> dict[str, str]:
    """What the run search looks in: session, run id, task, model, access and outcome."""
    return {key: f"{r.session} {r.id} {r.task} {r.model} {r.access} {r.outcome}".lower() for key, r in zip(keys, runs)}
