"""Runs read from a harness log, described in memory: what every log reader produces.

A reader turns one sample or trajectory into a :class:`RunSpec` (brief, attempts as file bytes,
graders with raw output and recorded checks, transcript turns, metadata). An import gathers them
into an :class:`ImportedSession` that the importers' writer lays out as run folders; a session
that reads its log in place lays out one run at a time in memory (:mod:`.layout`), the same
files. Readers never write anything. All text here is still untrusted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import field
from pathlib import Path
from typing import Any, Protocol

from reviewer.model.records import record


class NotFormat(Exception):
    """A source that is not the claimed format; the message says why, in a few words.

    Attributes:
        source: the file it is about, once known (set with :meth:`about`).
    """

    def __init__(self, reason: str, source: object = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.source = source

    def about(self, source: object) -> NotFormat:
        """The same error, naming the file it is about (kept when already set)."""
        if self.source is None:
            self.source = source
        return self


class ImportFailed(Exception):
    """An import that cannot go on (unreadable source, refused target); the message says why."""


@record(frozen=False, slots=False)
class CheckSpec:
    """A check the log itself decided (recorded as ``[[grader.check]]``)."""

    key: str
    status: str
    name: str = ""
    message: str = ""
    location: str = ""


@record(frozen=False, slots=False)
class GraderSpec:
    """One grading: raw output to store, and recorded checks (None: let the parsers derive them)."""

    name: str
    output: str = ""
    attempt: int | None = None
    command: str = ""
    cwd: str = ""
    exit_status: int | None = None
    format: str = ""
    checks: list[CheckSpec] | None = None
    sources: dict[str, bytes] = field(default_factory=dict)
    rerun: dict[str, Any] | None = None
    """``[grader.rerun]`` without ``files`` (the written ``source`` files are its files), or None."""


@record(frozen=False, slots=False)
class ToolCallSpec:
    """A tool the model called, with what came back."""

    name: str
    arguments: str = ""
    output: str = ""


@record(frozen=False, slots=False)
class TurnSpec:
    """One transcript turn."""

    role: str
    text: str = ""
    attempt: int | None = None
    nudge: bool = False
    tool_calls: list[ToolCallSpec] = field(default_factory=list)


@record(frozen=False, slots=False)
class AttemptSpec:
    """One attempt's files (path as the model used it -> bytes) and a note."""

    files: dict[str, bytes] = field(default_factory=dict)
    note: str = ""


@record(frozen=False, slots=False)
class RunSpec:
    """One run to write.

    Attributes:
        id: the wanted run id (already safe; the writer makes it unique).
        source: which source it came from (a file name), kept in the import record.
        metadata: anything the importer could not map; kept, large values spill to files.
    """

    id: str
    task: str
    model: str
    source: str
    outcome: str = "unknown"
    access: str = "unknown"
    brief: str = ""
    expected_dir: str = ""
    attempts: list[AttemptSpec] = field(default_factory=list)
    graders: list[GraderSpec] = field(default_factory=list)
    turns: list[TurnSpec] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    harness_version: str = ""


UnitFunc = Callable[[Any, Any], RunSpec]


@record(frozen=False, slots=False)
class Job:
    """Runs still to be read: ``make(context, unit)`` gives the run of one unit.

    ``make`` is a module-level function and ``context`` and every unit are small picklable
    values (a path, an entry name, options), so a job can be cut into chunks that worker
    processes read and write in parallel; the runs keep the order of ``units`` whoever made
    them. ``make`` raises :class:`NotFormat` or :class:`ImportFailed` for a source that
    cannot be imported (the import stops, nothing is written).
    """

    make: UnitFunc
    context: Any
    units: list[Any]
    local: bool = False  # read in this process only (the context holds the source in memory)

    def runs(self) -> Iterator[RunSpec]:
        """The runs of this job, made one at a time in this process."""
        for unit in self.units:
            yield self.make(self.context, unit)


@record(frozen=False, slots=False)
class ImportedSession:
    """A whole session as one import produced it.

    ``runs`` are runs already in memory; ``jobs`` are runs still to be read, streamed one
    at a time by the writer (after ``runs``), so an import of thousands of runs never holds
    them all. Warnings of runs are added to the session's when they are written.
    """

    name: str
    format: str
    harness: str = ""
    harness_version: str = ""
    started: str = ""
    notes: str = ""
    runs: list[RunSpec] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    jobs: list[Job] = field(default_factory=list)

    def total(self) -> int:
        """How many runs the session will hold (made and still to be read)."""
        return len(self.runs) + sum(len(j.units) for j in self.jobs)

    def all_runs(self) -> Iterator[RunSpec]:
        """Every run, made as it is asked for (tests and small imports)."""
        yield from self.runs
        for job in self.jobs:
            yield from job.runs()


def outcome_of(checks: list[CheckSpec], error: bool = False) -> str:
    """error when the run errored; fail when a check failed; pass when all passed; else unknown."""
    if error:
        return "error"
    if any(c.status in ("fail", "error") for c in checks):
        return "fail"
    if checks and all(c.status == "pass" for c in checks):
        return "pass"
    return "unknown"


class OpenedLog(Protocol):
    """A log opened for reading in place. Its methods may be called from several threads."""

    source: str
    """The log's file or folder name, as runs name their source."""
    units: list[str]
    """Every unit, in the order an import claims run ids."""
    harness_version: str
    started: str
    notes: str

    def read(self, unit: str) -> RunSpec:
        """One unit's run; NotFormat or ImportFailed when it cannot be read."""

    def unit_id(self, unit: str) -> str:
        """The run id the unit asks for when its name alone decides it; "" when the unit must be read."""

    def unit_files(self, unit: str) -> list[Path]:
        """The files whose change changes the unit's run ([]: the log file itself)."""

    def close(self) -> None:
        """Let go of the open files."""


@record(slots=False)
class LogFormat:
    """One format readable in place.

    Attributes:
        name: the format's name (``inspect``, ``mini-swe-agent`` ...).
        harness: the harness that writes it, shown as the session's harness.
        kind: ``file`` (one log file) or ``folder`` (a folder of files, one unit each).
        suffixes: the file names it claims (a log file's, or the files a folder holds).
        open: opens a log (a path the caller checked: a regular file, or a folder).
        detect: for a folder format whose files cannot be told by name alone (ATIF's ``.json``):
            whether a folder holds its logs.
    """

    name: str
    harness: str
    kind: str
    suffixes: tuple[str, ...]
    open: Callable[[Path], OpenedLog]
    detect: Callable[[Path], bool] | None = None

    def claims(self, name: str) -> bool:
        """Whether a file of this name belongs to the format."""
        return name.endswith(self.suffixes)
