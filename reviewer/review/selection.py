"""What is on screen, and the pure rules for moving it.

:class:`Selection` names what the four panes show: a run, one of its failures, the attempt and
file shown in the Code pane, the transcript turn and whether the diff is on. The review session
holds one; every move makes a new one with these rules. Nothing here touches the disk.
"""

from __future__ import annotations

import enum
from dataclasses import replace
from typing import Sequence

from reviewer.model import Run, Turn, split_failure_id
from reviewer.model.records import record


@record
class Selection:
    """What the screen shows.

    Attributes:
        run_key: ``<session>/<run>``, "" before anything is loaded.
        failure_id: the current failure, "" when the run has none (or none chosen).
        attempt: the attempt shown in the Code pane, 0 when the run has none.
        file: the path of the file shown (as the model saved it), "" when none.
        turn: the current transcript turn (0-based), None when none is chosen.
        diff: show a diff against the previous attempt instead of the file.
        picked: a check clicked in the check list that is not a failure (``grader:key``), to
            find in its grader's output; "" when none.
    """

    run_key: str = ""
    failure_id: str = ""
    attempt: int = 0
    file: str = ""
    turn: int | None = None
    diff: bool = False
    picked: str = ""

    def same_place(self, other: Selection) -> bool:
        """Whether both show the same thing, whatever their turn: a view read for a selection
        without one is taken with its first turn filled in (``ReviewSession.take_view``)."""
        return replace(self, turn=None) == replace(other, turn=None)


@record
class Target:
    """Where a move lands: a run and one of its failures ("" = the run itself)."""

    run_key: str
    failure_id: str = ""


class Toward(str, enum.Enum):
    """Where a move that needs uncounted runs goes once they are counted."""

    STEP = "the next or previous failure of the walk (j/k)"
    UNLABELLED = "the next failure this reviewer has not labelled (after a label, at the start)"
    RUN = "a run: its first failure (J/K, a run picked in the list)"
    ASKED = "the failure asked for at the start (--failure): its run is counted, then the opening decided again"


@record
class NeedsCounting:
    """A move needs the failures of runs not counted yet: counted on the way, it goes on ``toward``
    where it was headed. ``run_key`` is the first such run (for :attr:`Toward.RUN`, the run)."""

    run_key: str
    toward: Toward = Toward.STEP
    step: int = 1
    """The direction of a step."""


@record
class End:
    """A move found nowhere to go; ``message`` says why (``bell``: a key that went nowhere)."""

    message: str
    bell: bool = False


Move = Target | NeedsCounting | End
"""What a step returns."""


def grader_of(failure_id: str) -> str:
    """The grader name inside a failure id (``s/r#grader:key`` -> ``grader``); "" when malformed."""
    try:
        return split_failure_id(failure_id)[2].partition(":")[0]
    except ValueError:
        return ""


def run_key_of(failure_id: str) -> str:
    """``session/run`` of a failure id."""
    return failure_id.partition("#")[0]


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


def attempt_at_turn(turns: Sequence[Turn], index: int) -> int | None:
    """The attempt the code stands at after a turn: the last one produced at or before it.

    The same whichever way the transcript is stepped: a harness nudge between attempts 1 and 2
    shows attempt 1 (the code the nudge answered), arriving from either side.
    """
    for turn in reversed(turns[: index + 1]):
        if turn.attempt is not None:
            return turn.attempt
    return None


def step_turn(selection: Selection, run: Run, turns: Sequence[Turn], step: int) -> Selection:
    """Step the transcript; the Code pane follows to the attempt the code stands at then."""
    if not turns:
        return selection
    if selection.turn is None:
        index = 0 if step > 0 else len(turns) - 1
    else:
        index = selection.turn + step
    if not 0 <= index < len(turns):
        return selection
    return at_turn(selection, run, turns, index)


def at_turn(selection: Selection, run: Run, turns: Sequence[Turn], index: int) -> Selection:
    """Make a turn current (a click, a step); the Code pane follows."""
    moved = replace(selection, turn=index)
    attempt = attempt_at_turn(turns, index)
    if attempt is not None:
        moved = with_attempt(moved, run, attempt)
    return moved


def step_run(order: Sequence[str], current: str, step: int) -> str | None:
    """The next (+1) or previous (-1) run key in list order, or None at the end."""
    if not order:
        return None
    if current not in order:
        return order[0] if step > 0 else order[-1]
    index = order.index(current) + step
    return order[index] if 0 <= index < len(order) else None
