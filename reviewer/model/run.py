"""Sessions, runs, attempts, graders and transcript turns as frozen values.

Paths inside these values are strings relative to the sessions root (``/`` separated); the
store resolves and reads them. Nothing here touches the disk.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Callable

from reviewer.model.check import Check, check_id, failure_id
from reviewer.model.records import record
from reviewer.model.rerun import Rerun

ACCESS_KINDS = ("vendor-api", "gateway", "local", "unknown")
OUTCOMES = ("pass", "fail", "error", "unknown")
ROLES = ("system", "user", "assistant", "tool", "harness")


@record
class LoadError:
    """Something in the folder that could not be loaded.

    Attributes:
        path: the offending file, relative to the sessions root (for a reference that
            escapes the folder: the manifest holding it).
        reason: what is wrong, in words a person can act on.
    """

    path: str
    reason: str


@record
class Session:
    """One harness invocation.

    Attributes:
        log: the harness's own log the runs are read from in place (relative to the sessions root,
            or as named on the command line), "" for a session of run folders.
        log_format: that log's format (``inspect``, ``mini-swe-agent`` ...).
    """

    id: str
    harness: str = ""
    harness_version: str = ""
    started: str = ""
    models: tuple[str, ...] = ()
    notes: str = ""
    manifest: str = ""
    log: str = ""
    log_format: str = ""


@record
class AttemptFile:
    """One file of an attempt, as the model saved it.

    Attributes:
        path: where the model saved it, relative to its workspace.
        ref: where its bytes are, relative to the sessions root.
        outside_expected: saved outside the folder the brief asked for.
    """

    path: str
    ref: str
    outside_expected: bool = False


@record
class Attempt:
    """One attempt: the files as they stood when the model stopped that time."""

    number: int
    files: tuple[AttemptFile, ...] = ()
    note: str = ""


@record
class GraderRecord:
    """One run of a grader over one attempt.

    Attributes:
        name: unique within the run; the first part of every check id it yields.
        attempt: number of the attempt it graded.
        command: what ran, as the harness recorded it.
        cwd: the workspace folder it ran in ("" = the workspace root).
        exit_status: the grader's exit status, None when unknown.
        output_ref: raw output file, relative to the sessions root ("" when none).
        format: parser to use (see reviewer.parsers), "" to detect.
        source_refs: the grader's own source files, relative to the sessions root.
        checks: checks recorded by the harness, or None to derive them from the output.
        rerun: how to run it again (``[grader.rerun]``), or None when the harness did not say.
    """

    name: str
    attempt: int
    command: str = ""
    cwd: str = ""
    exit_status: int | None = None
    output_ref: str = ""
    format: str = ""
    source_refs: tuple[str, ...] = ()
    checks: tuple[Check, ...] | None = None
    rerun: Rerun | None = None


@record
class ToolCall:
    """A tool the model called in a turn, with what came back."""

    name: str
    arguments: str = ""
    output: str = ""


@record
class Turn:
    """One turn of the retry transcript.

    Attributes:
        index: 0-based position.
        role: system, user, assistant, tool or harness.
        text: what was said.
        nudge: a harness nudge such as "carry on".
        attempt: the attempt this turn produced (its files), or None.
        tool_calls: tools called in this turn.
    """

    index: int
    role: str
    text: str = ""
    nudge: bool = False
    attempt: int | None = None
    tool_calls: tuple[ToolCall, ...] = ()


@record(eq=False)
class Run:
    """One model on one task within a session, as its manifest describes it.

    Heavy parts (brief, files, grader output, transcript) are references read on demand.
    Runs are equal when every field but ``metadata`` is (a :class:`LazyRun` included).
    """

    session: str
    id: str
    task: str
    model: str
    access: str = "unknown"
    outcome: str = "unknown"
    brief_ref: str = ""
    transcript_ref: str = ""
    expected_dir: str = ""
    attempts: tuple[Attempt, ...] = ()
    graders: tuple[GraderRecord, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    manifest: str = ""
    key: str = field(init=False, repr=False, compare=False, default="")
    """``<session>/<run>``: unique in a sessions folder (made once: many tables are keyed by it)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", f"{self.session}/{self.id}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Run):
            return NotImplemented
        return self is other or compared(self) == compared(other)

    def __hash__(self) -> int:
        return hash((self.session, self.id, self.task, self.model, self.manifest))

    def failure_id(self, check: str) -> str:
        """The global id of a failure of this run, from a check id."""
        return failure_id(self.session, self.id, check)

    def attempt(self, number: int) -> Attempt | None:
        """The attempt with this number, or None."""
        for a in self.attempts:
            if a.number == number:
                return a
        return None

    def grader(self, name: str) -> GraderRecord | None:
        """The grader record with this name, or None."""
        for g in self.graders:
            if g.name == name:
                return g
        return None


def compared(run: Run) -> tuple[Any, ...]:
    """What run equality compares: every field but ``metadata``."""
    return (run.session, run.id, run.task, run.model, run.access, run.outcome, run.brief_ref, run.transcript_ref,
            run.expected_dir, run.attempts, run.graders, run.manifest)


LAZY_FIELDS = ("access", "brief_ref", "transcript_ref", "expected_dir", "attempts", "graders", "metadata")
"""The fields of a :class:`LazyRun` filled on first use (the others are there from the start)."""
RUN_SLOTS = {name: Run.__dict__[name] for name in (*LAZY_FIELDS, "session", "id", "task", "model", "outcome",
                                                    "manifest", "key")}


class LazyRun(Run):
    """A run whose details are filled in the first time one of them is read.

    Opening a folder of 10,000 runs from the index cache needs each run's ids, task, model and
    outcome (the run list) at once, and the rest only for the runs looked at. ``fill`` gives the
    values of :data:`LAZY_FIELDS` in order; it is called at most once per thread that gets there
    first (filling twice gives equal values, so no lock is needed). The value is frozen like any
    run; it compares and hashes as the :class:`Run` it stands for.
    """

    __slots__ = ("_fill", "outputs")
    outputs: tuple[str, ...]
    """The grader outputs the run's checks are parsed from (set by :meth:`make`)."""

    @classmethod
    def make(cls, session: str, id: str, task: str, model: str, outcome: str, manifest: str,
             fill: Callable[[], tuple[Any, ...]], outputs: tuple[str, ...] = ()) -> "LazyRun":
        """A lazy run with its list fields set and ``fill`` for the rest.

        ``outputs``: the grader outputs its checks are parsed from, known without filling
        (``fill`` must check that the details name the same ones).
        """
        run = object.__new__(cls)  # straight-line: a warm open makes one per run
        SET_SESSION(run, session)
        SET_ID(run, id)
        SET_TASK(run, task)
        SET_MODEL(run, model)
        SET_OUTCOME(run, outcome)
        SET_MANIFEST(run, manifest)
        SET_KEY(run, f"{session}/{id}")
        SET_FILL(run, fill)
        SET_OUTPUTS(run, outputs)
        return run

    @property
    def filled(self) -> bool:
        """The details were read already (``fill`` is dropped once every field is set)."""
        try:
            return FILL.__get__(self, LazyRun) is None
        except AttributeError:  # made whole by the dataclass constructor (``dataclasses.replace``)
            return True

    def fill_now(self) -> None:
        """Read the details (if not done yet)."""
        try:
            fill = FILL.__get__(self, LazyRun)
        except AttributeError:
            return
        if fill is None:
            return
        values = fill()
        for name, value in zip(LAZY_FIELDS, values):
            RUN_SLOTS[name].__set__(self, value)
        FILL.__set__(self, None)


FILL = LazyRun.__dict__["_fill"]
OUTPUTS = LazyRun.__dict__["outputs"]
SET_SESSION, SET_ID, SET_TASK, SET_MODEL, SET_OUTCOME, SET_MANIFEST, SET_KEY = (
    RUN_SLOTS[name].__set__ for name in ("session", "id", "task", "model", "outcome", "manifest", "key"))
SET_FILL, SET_OUTPUTS = FILL.__set__, OUTPUTS.__set__


def lazy_field(name: str) -> property:
    """A field of :class:`LazyRun` that fills the run when first read."""
    slot = RUN_SLOTS[name]

    def get(self: LazyRun) -> Any:
        try:
            return slot.__get__(self, Run)
        except AttributeError:
            self.fill_now()
            return slot.__get__(self, Run)

    def put(self: LazyRun, value: Any) -> None:  # only through object.__setattr__ (dataclass init)
        slot.__set__(self, value)

    return property(get, put, doc=f"The run's {name} (read when first used).")


for _name in LAZY_FIELDS:
    setattr(LazyRun, _name, lazy_field(_name))


@record
class Failure:
    """One failing check of one run: the unit a reviewer labels.

    Attributes:
        id: global failure id ``<session>/<run>#<grader>:<key>``.
        run_key: ``<session>/<run>``.
        grader: the grader record's name.
        check: the failing check.
    """

    id: str
    run_key: str
    grader: str
    check: Check

    @property
    def check_id(self) -> str:
        """``<grader>:<key>``: stable within the run."""
        return check_id(self.grader, self.check.key)
