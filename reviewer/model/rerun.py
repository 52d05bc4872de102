"""How a grader can be run again: the ``[grader.rerun]`` table of a run manifest, as data.

A re-score (:mod:`reviewer.rescore`) lays the graded attempt's files in a fresh workspace, adds
the setup and grader files named here, and runs ``command`` in ``cwd`` inside a sandbox. Paths
in ``files`` and ``setup`` are relative to the sessions root (the manifest resolved them);
``program``, ``reads`` and ``remove`` name places in the workspace. Nothing here runs anything.
"""

from __future__ import annotations

import re
from dataclasses import field

from reviewer.model.records import record

RUNTIME_NAMES = ("python", "go")
"""Runtimes a re-run can ask for; "" asks for none beyond the system's tools."""

RUNTIME = re.compile(r"^(?P<name>[a-z]+)\s*(?:(?P<op>>=|==|>)\s*(?P<version>\d+(?:\.\d+){0,2}))?$")
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
DEFAULT_TIME_LIMIT = 120.0
MAX_TIME_LIMIT = 3600.0


@record
class Runtime:
    """A runtime requirement: ``python>=3.11`` is ``Runtime("python", ">=", (3, 11))``."""

    name: str
    op: str = ""
    version: tuple[int, ...] = ()

    def allows(self, version: tuple[int, ...]) -> bool:
        """True when ``version`` meets the requirement (only the parts given are compared)."""
        if not self.op:
            return True
        have = tuple(version[: len(self.version)])
        if self.op == ">=":
            return have >= self.version
        if self.op == ">":
            return have > self.version
        return have == self.version

    def __str__(self) -> str:
        return self.name + (self.op + ".".join(map(str, self.version)) if self.op else "")


def parse_runtime(text: str) -> Runtime | None:
    """``python``, ``python>=3.11``, ``go``, ``go>=1.19`` as a :class:`Runtime`; None for "";
    ValueError for anything else."""
    text = text.strip()
    if not text:
        return None
    m = RUNTIME.match(text)
    if not m or m.group("name") not in RUNTIME_NAMES:
        raise ValueError(f"unknown runtime {text!r} (python, python>=3.11, go, go>=1.19 ...)")
    version = tuple(int(p) for p in m.group("version").split(".")) if m.group("version") else ()
    return Runtime(m.group("name"), m.group("op") or "", version)


def version_tuple(text: str) -> tuple[int, ...]:
    """``3.11.7`` or ``go1.19.8`` as ``(3, 11, 7)``; () when no version is found."""
    m = re.search(r"(\d+(?:\.\d+)*)", text)
    return tuple(int(p) for p in m.group(1).split(".")) if m else ()


@record
class Rerun:
    """What re-running one grader needs.

    Attributes:
        command: the shell command to run (the grader's recorded command unless the table says).
        cwd: the workspace folder it runs in ("" = the root).
        runtime: what the command needs (``python>=3.11``, ``go``; "" = the system's tools).
        files: the grader's files (sessions-root refs), laid in ``cwd`` under their names.
        setup: files or folders (refs) laid at the workspace root before the attempt's files.
        remove: name globs deleted from the attempt's files before the grader files go in.
        program: the workspace path of the program the checker runs ("" when the checker
            runs the attempt's code in its own process, as ``go test`` does); a notation repair
            puts its shim here.
        reads: workspace paths of files the checker reads (a repair re-expresses them too).
        time_limit: wall-clock seconds the grader may take.
        env: extra environment variables the command needs.
        format: the format of what the re-run prints (or writes to ``report``): a grader-output
            format name (``pytest``, ``junit``, ``go-test-json`` ...); "" = the grader's own.
        report: the workspace path of a file the re-run writes its results to (a JUnit XML
            report), read instead of what it prints; "" = what it prints.
        problem: why this table cannot be used ("" when it can); ``reviewer check`` reports it.
    """

    command: str
    cwd: str = ""
    runtime: str = ""
    files: tuple[str, ...] = ()
    setup: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()
    program: str = ""
    reads: tuple[str, ...] = ()
    time_limit: float = DEFAULT_TIME_LIMIT
    env: tuple[tuple[str, str], ...] = field(default=())
    format: str = ""
    report: str = ""
    problem: str = ""

    @property
    def usable(self) -> bool:
        """True when nothing is wrong with the table."""
        return not self.problem


def workspace_path_problem(path: str, what: str) -> str:
    """Why ``path`` is not a relative path inside the workspace ("" when it is)."""
    if not path:
        return f"{what} is empty"
    if path.startswith("/") or "\\" in path:
        return f"{what} {path!r} must be a relative path with '/' separators"
    parts = path.split("/")
    if any(p in ("", "..") for p in parts):
        return f"{what} {path!r} leaves the workspace or has an empty part"
    return ""
