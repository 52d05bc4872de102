"""What the four panes and the Evidence strip show for one failure, read in one go.

:func:`read_view` does the reading (through the store's caches: call it from a worker) and
returns a frozen :class:`FailureView`; the session adds what depends on labels
(:class:`Marks`), which it can recompute without reading anything when a label changes.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Mapping

from reviewer.model import Attempt, AttemptFile, Check, Failure, GraderRecord, Run, Turn, check_id
from reviewer.model.label import Label
from reviewer.model.records import record
from reviewer.review.reviewers import NO_JUDGES, NOBODY, Judged, Others
from reviewer.review.selection import Selection, grader_of
from reviewer.store.fs.untrusted import TextBlob
from reviewer.store.sessions.protocol import Store
from reviewer.store.sessions.store import GraderChecks

if TYPE_CHECKING:
    from reviewer.store.git import RunCommit


@record
class CodeView:
    """The Code pane's attempt and file.

    Attributes:
        attempts: every attempt's number, in order.
        attempt: the attempt shown, None when the run has none.
        file: the file shown, None when the attempt has none.
        text: the file's text, None when there is no file.
        diff: a diff against the previous attempt is asked for.
        before: the previous attempt's file of the same path (diff only), None when there is none.
        before_label: names the diff's old side (``attempt 1/roman.go``) or why it is empty.
    """

    attempts: tuple[int, ...] = ()
    attempt: Attempt | None = None
    file: AttemptFile | None = None
    text: TextBlob | None = None
    diff: bool = False
    before: TextBlob | None = None
    before_label: str = ""

    @property
    def position(self) -> int:
        """1-based position of the shown attempt, 0 when none."""
        number = self.attempt.number if self.attempt is not None else None
        return self.attempts.index(number) + 1 if number in self.attempts else 0

    @property
    def file_index(self) -> int:
        """1-based position of the shown file within its attempt, 0 when none."""
        if self.attempt is None or self.file is None:
            return 0
        return [f.path for f in self.attempt.files].index(self.file.path) + 1


@record
class Marks:
    """What the screen shows of labels for one run: the part a label change redraws.

    Attributes:
        verdicts: the reviewer's verdict on each failing check of the run, by failure id
            (``specification``, ``capability``, ``deferred``, ``stale``; missing when unlabelled).
        label: the reviewer's label on the current failure.
        stale: that label's evidence changed since.
        others: what may be shown of the other reviewers on the current failure.
        judges: what may be shown of the judges' predictions on the current failure.
    """

    verdicts: Mapping[str, str] = field(default_factory=dict)
    label: Label | None = None
    stale: bool = False
    others: Others = NOBODY
    judges: Judged = NO_JUDGES


@record
class FailureView:
    """Everything the panes show for one selection.

    Attributes:
        selection: what was asked for.
        run: the run, None when nothing is selected.
        failure: the current failure, None when the run has none (or none is chosen).
        graders: every grader's checks (one may carry the error that stopped its parsing).
        failures: the run's failing checks, in order.
        grader: the grader whose output is shown.
        output: that grader's raw output, None when none is recorded.
        brief: the brief, None when none is recorded.
        code: the attempt and file shown.
        turns: the transcript.
        transcript_error: why the transcript could not be read, "" when it could.
        marks: labels, the others' verdicts (see :class:`Marks`).
        provenance: the run's last commit, when git knows it.
    """

    selection: Selection = field(default_factory=Selection)
    run: Run | None = None
    failure: Failure | None = None
    graders: tuple[GraderChecks, ...] = ()
    failures: tuple[Failure, ...] = ()
    grader: GraderRecord | None = None
    output: TextBlob | None = None
    brief: TextBlob | None = None
    code: CodeView = field(default_factory=CodeView)
    turns: tuple[Turn, ...] = ()
    transcript_error: str = ""
    marks: Marks = field(default_factory=Marks)
    provenance: RunCommit | None = None

    @property
    def failure_ids(self) -> tuple[str, ...]:
        """The run's failure ids, in order."""
        return tuple(f.id for f in self.failures)

    def focused_check(self) -> Check | None:
        """The check the Grader pane finds in the output: the current failure's, else the picked one."""
        if self.failure is not None:
            return self.failure.check
        grader, _, key = self.selection.picked.partition(":")
        for gc in self.graders:
            if gc.grader == grader:
                return next((c for c in gc.checks if c.key == key), None)
        return None


def find_file(attempt: Attempt | None, path: str) -> AttemptFile | None:
    """The attempt's file at ``path``."""
    if attempt is None:
        return None
    return next((f for f in attempt.files if f.path == path), None)


def read_code(store: Store, run: Run, selection: Selection) -> CodeView:
    """The Code pane's attempt and file, and for a diff the previous attempt's file (reads)."""
    numbers = tuple(a.number for a in run.attempts)
    attempt = run.attempt(selection.attempt)
    current = find_file(attempt, selection.file)
    if current is None:
        return CodeView(numbers, attempt, None, None, selection.diff)
    text = store.text(current.ref)
    if not selection.diff or selection.attempt not in numbers:
        return CodeView(numbers, attempt, current, text, selection.diff)
    index = numbers.index(selection.attempt)
    if index == 0:
        return CodeView(numbers, attempt, current, text, True, None, "attempt 1 has nothing before it: every line is new")
    before_number = numbers[index - 1]
    previous = find_file(run.attempt(before_number), current.path)
    if previous is None:
        return CodeView(numbers, attempt, current, text, True, None,
                        f"attempt {before_number} has no file at this path: every line is new")
    return CodeView(numbers, attempt, current, text, True, store.text(previous.ref),
                    f"attempt {before_number}/{current.path}")


def shown_grader(run: Run, selection: Selection) -> GraderRecord | None:
    """The grader of the current failure, else of the picked check, else the first."""
    wanted = grader_of(selection.failure_id) if selection.failure_id else selection.picked.partition(":")[0]
    found = run.grader(wanted) if wanted else None
    return found or (run.graders[0] if run.graders else None)


def read_checks(store: Store, run: Run) -> tuple[tuple[GraderChecks, ...], tuple[Failure, ...]]:
    """Every grader's checks and the failing ones; a parser failure becomes a visible error."""
    try:
        graders = tuple(store.grader_checks(run))
    except Exception as exc:  # noqa: BLE001 - a parser bug must not blank the screen
        return (GraderChecks("grader", (), f"cannot read the checks: {exc}"),), ()
    failures = tuple(run_failures(run, graders))
    return graders, failures


def run_failures(run: Run, graders: tuple[GraderChecks, ...]) -> list[Failure]:
    """The failing checks of a run, from its graders' checks, in order."""
    return [Failure(run.failure_id(check_id(gc.grader, c.key)), run.key, gc.grader, c)
            for gc in graders for c in gc.checks if c.failing]


def read_view(store: Store, run: Run, selection: Selection, marks: Marks,
              provenance: RunCommit | None) -> FailureView:
    """Read everything the panes show for a selection of this run (worker thread)."""
    graders, failures = read_checks(store, run)
    failure = next((f for f in failures if f.id == selection.failure_id), None)
    grader = shown_grader(run, selection)
    output = store.text(grader.output_ref) if grader is not None and grader.output_ref else None
    brief = store.brief(run) if run.brief_ref else None
    transcript = store.transcript(run)
    return FailureView(selection, run, failure, graders, failures, grader, output, brief,
                       read_code(store, run, selection), transcript.turns, transcript.error, marks, provenance)
