"""The one piece of state that drives the screen, and the pure rules for moving it.

:class:`Selection` names what is on screen: a run, one of its failures, the attempt and file
shown in the Code pane, the transcript turn and whether the diff is on. The app holds it in a
single reactive; every pane watches it. Nothing here imports Textual or touches the disk.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Callable, Mapping, Sequence

from reviewer.model import Check, Failure, Run, Turn, split_failure_id


@dataclass(frozen=True, slots=True)
class Selection:
    """What the screen shows.

    Attributes:
        run_key: ``<session>/<run>``, "" before anything is loaded.
        failure_id: the current failure, "" when the run has none (or none chosen).
        attempt: the attempt shown in the Code pane, 0 when the run has none.
        file: the path of the file shown (as the model saved it), "" when none.
        turn: the current transcript turn (0-based), None when none is chosen.
        diff: show a diff against the previous attempt instead of the file.
    """

    run_key: str = ""
    failure_id: str = ""
    attempt: int = 0
    file: str = ""
    turn: int | None = None
    diff: bool = False


class RunFilter(str, enum.Enum):
    """Which runs the navigator lists."""

    ALL = "all"
    FAILING = "failing"
    UNLABELLED = "unlabelled"
    DEFERRED = "deferred"

    def next(self) -> "RunFilter":
        """The filter ``F`` switches to: failing, unlabelled, deferred, all, failing..."""
        order = [RunFilter.FAILING, RunFilter.UNLABELLED, RunFilter.DEFERRED, RunFilter.ALL]
        return order[(order.index(self) + 1) % len(order)]


@dataclass(frozen=True, slots=True)
class GraderView:
    """One grader's checks as the UI shows them (checks may have failed to load)."""

    name: str
    checks: tuple[Check, ...]
    error: str = ""


@dataclass(frozen=True, slots=True)
class RunDetail:
    """The light parts of a run, loaded in a worker when the run is selected.

    Attributes:
        run: the run.
        graders: every grader's checks (``GraderChecks`` from the store).
        failures: the failing checks, in order.
        turns: transcript turns.
        transcript_error: why the transcript could not be read, or "".
    """

    run: Run
    graders: tuple[GraderView, ...] = ()
    failures: tuple[Failure, ...] = ()
    turns: tuple[Turn, ...] = ()
    transcript_error: str = ""


def grader_of(failure_id: str) -> str:
    """The grader name inside a failure id (``s/r#grader:key`` -> ``grader``); "" when malformed."""
    try:
        return split_failure_id(failure_id)[2].partition(":")[0]
    except ValueError:
        return ""


def default_attempt(run: Run, failure_id: str) -> int:
    """The attempt to show for a failure: the one its grader graded, else the last one."""
    grader = run.grader(grader_of(failure_id)) if failure_id else None
    if grader is not None and run.attempt(grader.attempt) is not None:
        return grader.attempt
    if not failure_id and run.graders and run.attempt(run.graders[0].attempt) is not None:
        return run.graders[0].attempt
    return run.attempts[-1].number if run.attempts else 0


def file_in(run: Run, attempt: int, wanted: str) -> str:
    """``wanted`` when the attempt has that file, else the attempt's first file, else ""."""
    found = run.attempt(attempt)
    if found is None or not found.files:
        return ""
    paths = [f.path for f in found.files]
    return wanted if wanted in paths else paths[0]


def select_failure(run: Run, failure_id: str, keep_file: str = "") -> Selection:
    """A fresh selection for a failure of a run (or the run itself when failure_id is "")."""
    attempt = default_attempt(run, failure_id)
    return Selection(run.key, failure_id, attempt, file_in(run, attempt, keep_file))


def with_attempt(selection: Selection, run: Run, attempt: int) -> Selection:
    """Move to another attempt, keeping the same file path when that attempt has it."""
    if run.attempt(attempt) is None:
        return selection
    return replace(selection, attempt=attempt, file=file_in(run, attempt, selection.file))


def step_attempt(selection: Selection, run: Run, step: int) -> Selection:
    """The previous (-1) or next (+1) attempt; unchanged at either end."""
    numbers = [a.number for a in run.attempts]
    if selection.attempt not in numbers:
        return selection
    index = numbers.index(selection.attempt) + step
    if not 0 <= index < len(numbers):
        return selection
    return with_attempt(selection, run, numbers[index])


def step_file(selection: Selection, run: Run) -> Selection:
    """The attempt's next file, wrapping around."""
    attempt = run.attempt(selection.attempt)
    if attempt is None or not attempt.files:
        return selection
    paths = [f.path for f in attempt.files]
    index = (paths.index(selection.file) + 1) % len(paths) if selection.file in paths else 0
    return replace(selection, file=paths[index])


def turn_for_attempt(turns: Sequence[Turn], attempt: int) -> int | None:
    """The last turn that produced this attempt, or None."""
    for turn in reversed(turns):
        if turn.attempt == attempt:
            return turn.index
    return None


def step_turn(selection: Selection, run: Run, turns: Sequence[Turn], step: int) -> Selection:
    """Step the transcript; a turn that produced an attempt moves the Code pane there."""
    if not turns:
        return selection
    if selection.turn is None:
        index = 0 if step > 0 else len(turns) - 1
    else:
        index = selection.turn + step
    if not 0 <= index < len(turns):
        return selection
    moved = replace(selection, turn=index)
    produced = turns[index].attempt
    if produced is not None:
        moved = with_attempt(moved, run, produced)
    return moved


@dataclass(frozen=True, slots=True)
class Target:
    """Where a failure step lands: a run and one of its failures ("" = the run itself)."""

    run_key: str
    failure_id: str = ""


@dataclass(frozen=True, slots=True)
class Unknown:
    """A step needs the failures of runs not counted yet; the first such run is named."""

    run_key: str


def step_failure(
    order: Sequence[str],
    lookup: Callable[[str], tuple[str, ...] | None],
    current: Selection,
    step: int,
) -> Target | Unknown | None:
    """The next (+1) or previous (-1) failure across runs, in list order.

    Args:
        order: run keys in the navigator's order.
        lookup: failure ids of a run, or None when not counted yet.
        current: the selection now.
        step: +1 or -1.

    Returns:
        The target, Unknown when a run on the way is not counted yet, or None at the end.
    """
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
            return Unknown(key)
        if ids:
            return Target(key, ids[0] if step > 0 else ids[-1])
        index += step
    return None


def step_run(order: Sequence[str], current: str, step: int) -> str | None:
    """The next (+1) or previous (-1) run key in list order, or None at the end."""
    if not order:
        return None
    if current not in order:
        return order[0] if step > 0 else order[-1]
    index = order.index(current) + step
    return order[index] if 0 <= index < len(order) else None


@dataclass(frozen=True, slots=True)
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


def tally(
    order: Sequence[str], failures: Mapping[str, tuple[str, ...]], labelled: Callable[[str], int]
) -> Tally:
    """Count failures and labels over the listed runs."""
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


def next_matching(
    order: Sequence[str],
    lookup: Callable[[str], tuple[str, ...] | None],
    current: Selection,
    wanted: Callable[[str], bool],
) -> Target | Unknown | None:
    """The next failure after the current one that ``wanted`` accepts, across runs, wrapping.

    Used after a label to move on to the next failure this reviewer has not labelled yet.
    Returns Unknown when a run on the way is not counted yet, None when no failure qualifies.
    """
    if not order:
        return None
    try:
        start = order.index(current.run_key)
    except ValueError:
        start = -1
    if start >= 0:
        own = lookup(current.run_key)
        if own is None:
            return Unknown(current.run_key)
        after = own.index(current.failure_id) + 1 if current.failure_id in own else 0
        for fid in own[after:]:
            if wanted(fid):
                return Target(current.run_key, fid)
    n = len(order)
    for step in range(1, n + 1):
        key = order[(start + step) % n]
        ids = lookup(key)
        if ids is None:
            return Unknown(key)
        for fid in ids:
            if key == current.run_key and fid == current.failure_id:
                return None
            if wanted(fid):
                return Target(key, fid)
    return None
