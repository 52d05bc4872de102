"""Laying one grading out for a re-run: setup, the attempt's files, the grader's files, the repairs.

Order, as a harness does it: the ``setup`` files at the workspace root, the graded attempt's
files at the paths the model used (those under the folder a ``grade-where-saved`` repair names
moved to where the brief said), the ``remove`` globs, the grader's ``files`` in ``cwd``. Then
the repairs, none of which edits the program or the checker:

- text repairs and lifted limits for a declared ``program``: the recorded program moves beside
  its path under a hidden name (``.recorded.<name>``) and a launcher for the shim takes its place;
- text repairs for the files the checker ``reads``: those files are re-expressed (here, on the
  host, with the same pure transforms);
- lifted limits without a program (the checker runs the code in its own process): the
  environment lifts them for the whole command (``PYTHONINTMAXSTRDIGITS=0``, a
  ``sitecustomize`` that raises the recursion limit).

Reading and laying out are apart: :func:`gather` reads every recorded file a grading needs
through the store's reader (regular files inside the run's session, capped, no links, never
opened by path) into :class:`Inputs`, bytes that need no shared disk; :func:`lay_out` writes
them into a staging folder, wherever the sandbox runs (this machine, or a cluster's worker).
"""

from __future__ import annotations

import fnmatch
import json
import os
import posixpath
import shlex
import time
from collections.abc import Callable
from pathlib import Path

from reviewer.model import GraderRecord, Run
from reviewer.model.records import record
from reviewer.model.repair import STDOUT_KINDS, Repair, RepairKind
from reviewer.model.rerun import Rerun
from reviewer.rescore import transform
from reviewer.rescore.layout import StagingError, files_under, write
from reviewer.rescore.runtime import Found
from reviewer.rescore.sandbox import IN
from reviewer.store.fs.untrusted import Unreadable, read_capped, resolve_inside
from reviewer.store.runs.rerun import OFF_LIMITS

FILE_CAP = 64 << 20
TOTAL_CAP = 256 << 20
HERE = Path(__file__).resolve().parent


REPAIR_SECONDS = 10.0
"""How long re-expressing the files the checker reads may take on the host."""
JSON_CAP = 4 << 20
"""The largest file of one JSON document re-expressed on the host (parsing it is one uninterruptible
step: a 4 MiB document parses in about half a second of CPU on a busy machine, so a cancel is heard within a second)."""


class StagingCancelled(StagingError):
    """The re-score was cancelled while its inputs were laid out."""


class Refused(StagingError):
    """A repair that cannot apply to this grader (nothing for it to re-express, no such folder)."""


@record
class Staged:
    """What laying out did.

    Attributes:
        env: environment the command needs for the repairs (lifted limits in its own process).
        shimmed: the program the shim stands in for ("" when none).
        repaired_files: files the checker reads that the repairs re-expressed.
        moved: attempt files graded where the brief said, as ``from -> to``.
    """

    env: tuple[tuple[str, str], ...] = ()
    shimmed: str = ""
    repaired_files: tuple[str, ...] = ()
    moved: tuple[str, ...] = ()


class Reader:
    """Recorded bytes through the store's safe reader, with a total cap."""

    def __init__(self, root: Path, session: str = "") -> None:
        self.root = root
        self.session = session
        self.total = 0

    def read(self, ref: str, what: str) -> bytes:
        """The bytes of ``ref``; StagingError when unreadable, too big, or (links resolved) outside
        the run's session or inside its ``.git``, ``labels``, ``rescores`` or ``predictions``."""
        self.check(ref, what)
        try:
            raw = read_capped(self.root, ref, cap=FILE_CAP)
        except Unreadable as exc:
            raise StagingError(f"{what} {ref}: {exc}") from None
        if raw.truncated:
            raise StagingError(f"{what} {ref} is over {FILE_CAP >> 20} MiB")
        self.total += len(raw.data)
        if self.total > TOTAL_CAP:
            raise StagingError(f"the files to lay out pass {TOTAL_CAP >> 20} MiB")
        return raw.data


    def check(self, ref: str, what: str) -> Path:
        """The real path of ``ref`` (links resolved) when it stays where a grader's files may come
        from: the session of the run being re-scored, outside its off-limits folders."""
        try:
            real = resolve_inside(self.root, ref)
            rel = real.relative_to(Path(os.path.realpath(self.root))).as_posix()
        except (Unreadable, ValueError) as exc:
            raise StagingError(f"{what} {ref}: {exc}") from None
        parts = rel.split("/")
        if self.session and (parts[0] != self.session or any(p in OFF_LIMITS for p in parts[1:])):
            raise StagingError(f"{what} {ref} is {rel} once its links are followed: outside the run's session or "
                               "inside its .git, labels, rescores or predictions, which no grader may read")
        return real


def join(folder: str, rel: str) -> str:
    """A workspace path in ``folder``."""
    return posixpath.join(folder, rel) if folder else rel


Files = tuple[tuple[str, bytes], ...]
"""(path, bytes) pairs, in the order they are laid out."""


@record
class Inputs:
    """The recorded bytes one grading's re-runs lay out, read on the machine that holds the
    sessions folder (:func:`gather`); a worker elsewhere needs nothing else of the folder.

    Attributes:
        setup: the ``setup`` files, at their workspace paths.
        attempt: the graded attempt's files, at the paths the model used.
        grader_files: the grader's ``files``, by name (laid in ``cwd``).
        attempt_number: the attempt graded (for messages).
        expected_dir: where the brief asked for the files ("" = the workspace root).
    """

    setup: Files = ()
    attempt: Files = ()
    grader_files: Files = ()
    attempt_number: int = 1
    expected_dir: str = ""

    @property
    def size(self) -> int:
        """Bytes in all."""
        return sum(len(data) for group in (self.setup, self.attempt, self.grader_files) for _, data in group)


def read_setup(reader: Reader, refs: tuple[str, ...]) -> Files:
    """Setup files (by name) and folders (their files, keeping relative paths), as workspace paths."""
    out: list[tuple[str, bytes]] = []
    for ref in refs:
        real = reader.check(ref, "setup")
        if real.is_dir():
            out += [(rel, reader.read(f"{ref}/{rel}", "setup file")) for rel in files_under(real)]
        else:
            out.append((posixpath.basename(ref), reader.read(ref, "setup file")))
    return tuple(out)


def lay_setup(reader: Reader, staging: Path, refs: tuple[str, ...]) -> None:
    """Setup files (by name) and folders (their files, keeping relative paths) at the workspace root."""
    for rel, data in read_setup(reader, refs):
        write(staging, f"ws/{rel}", data)


def gather(root: Path, run: Run, grader: GraderRecord, rerun: Rerun) -> Inputs:
    """Every recorded file the re-runs of ``grader`` lay out, read through the store's reader;
    StagingError when one is unreadable, too big, or outside the run's session."""
    reader = Reader(root, run.key.split("/", 1)[0])
    attempt = run.attempt(grader.attempt)
    if attempt is None:
        raise StagingError(f"grader {grader.name!r} graded attempt {grader.attempt}, which is not recorded")
    setup = read_setup(reader, rerun.setup)
    files = tuple((f.path, reader.read(f.ref, "attempt file")) for f in attempt.files)
    graders = tuple((posixpath.basename(ref), reader.read(ref, "grader file")) for ref in rerun.files)
    return Inputs(setup, files, graders, attempt.number, run.expected_dir.strip("/"))


def attempt_files(inputs: Inputs, repairs: tuple[Repair, ...]) -> tuple[list[tuple[str, bytes]], list[str]]:
    """(workspace path, bytes) of the graded attempt's files, and the moves a grade-where-saved made."""
    files = list(inputs.attempt)
    moves: list[str] = []
    expected = inputs.expected_dir
    for r in repairs:
        if r.kind is not RepairKind.GRADE_WHERE_SAVED:
            continue
        folder = r.args[0]
        if folder == expected:
            raise Refused(f"grade-where-saved: {folder}/ is already where the brief asked for the files")
        out, moved = [], 0
        for path, data in files:
            if path.startswith(folder + "/"):
                new = join(expected, path[len(folder) + 1:])
                moves.append(f"{path} -> {new}")
                path, moved = new, moved + 1
            out.append((path, data))
        if not moved:
            raise Refused(f"grade-where-saved: no file of attempt {inputs.attempt_number} is under {folder}/")
        files = out
    return files, moves


def launcher(hidden: str, python: bool) -> bytes:
    """The file put where the checker expects the program."""
    head = "" if python else f"#!{IN}/bin/python\n"
    return (f"{head}# reviewer re-score: the recorded program is beside this file as {hidden}, run unchanged by the shim.\n"
            f"import sys\nsys.path.insert(0, {IN + '/shim'!r})\nimport reviewer_shim\n"
            f"sys.exit(reviewer_shim.main(__file__, {hidden!r}))\n").encode()


def put_shim(staging: Path, program: str, text_repairs: list[list[object]], lifts: list[str], observe: str = "") -> None:
    """Move the program aside and put the shim's launcher in its place (``observe``: the folder,
    inside the sandbox, where the shim notes each run of the program; "" for none)."""
    path = staging / "ws" / program
    if not path.is_file() or path.is_symlink():
        raise Refused(f"the checker's program {program} is not among the files laid out")
    data = path.read_bytes()
    folder, name = posixpath.split(program)
    hidden = f".recorded.{name}"
    write(staging, f"ws/{join(folder, hidden)}", data, 0o755)
    write(staging, f"ws/{program}", launcher(hidden, name.endswith(".py")), 0o755)
    write(staging, "shim/reviewer_shim.py", (HERE / "shim.py").read_bytes())
    write(staging, "shim/reviewer_transform.py", (HERE / "transform.py").read_bytes())
    write(staging, "shim/config.json", json.dumps({"repairs": text_repairs, "lifts": lifts, "observe": observe}).encode())


def lift_in_process(staging: Path, lifts: list[str]) -> tuple[tuple[str, str], ...]:
    """Environment that lifts the limits for every Python process of the command."""
    lines = ["import sys"]
    env = [("PYTHONPATH", f"{IN}/lift")]
    if "int-max-str-digits" in lifts:
        lines.append("sys.set_int_max_str_digits(0)")
        env.append(("PYTHONINTMAXSTRDIGITS", "0"))
    if "recursion" in lifts:
        lines.append("sys.setrecursionlimit(200_000)")
    write(staging, "lift/sitecustomize.py", ("\n".join(lines) + "\n").encode())
    return tuple(env)


def repair_reads(staging: Path, reads: tuple[str, ...], text_repairs: list[list[object]],
                 cancel: Callable[[], bool] = lambda: False) -> list[str]:
    """Re-express the files the checker reads (here, on the host: linear, within
    :data:`REPAIR_SECONDS`, and stopped on cancel); returns those that changed."""
    changed = []
    deadline = time.monotonic() + REPAIR_SECONDS
    for rel in reads:
        path = staging / "ws" / rel
        if not path.is_file() or path.is_symlink():
            continue
        text = path.read_bytes().decode("utf-8", "surrogateescape")
        if len(text) > JSON_CAP and text.lstrip()[:1] in ("{", "["):
            raise StagingError(f"{rel} is one JSON document of {len(text) >> 20} MiB: re-expressing it on the host is "
                               f"refused past {JSON_CAP >> 20} MiB (its parse cannot be stopped); nothing was run")
        try:
            fixed = transform.apply_repairs(text, text_repairs, lambda: cancel() or time.monotonic() > deadline)
        except transform.Stopped:
            if cancel():
                raise StagingCancelled("cancelled while re-expressing the files the checker reads") from None
            raise StagingError(f"re-expressing {rel} took longer than {REPAIR_SECONDS:g} s: stopped, nothing was run") from None
        if fixed != text:
            write(staging, f"ws/{rel}", fixed.encode("utf-8", "surrogateescape"))
            changed.append(rel)
    return changed


def lay_out(inputs: Inputs, rerun: Rerun, repairs: tuple[Repair, ...], staging: Path, python: Found,
            observe: str = "", cancel: Callable[[], bool] = lambda: False) -> Staged:
    """Fill ``staging`` from ``inputs`` for one re-run with ``repairs`` (none: the control run);
    ``observe``: the folder inside the sandbox where the shim notes each run of the declared
    ``program`` (the shim then stands in for it even without a repair)."""
    if cancel():
        raise StagingCancelled("cancelled before the inputs were laid out")
    wrapper = f"#!/bin/sh\nexec {shlex.quote(python.executable)} \"$@\"\n".encode()
    write(staging, "bin/python", wrapper, 0o755)
    write(staging, "bin/python3", wrapper, 0o755)
    for rel, data in inputs.setup:
        write(staging, f"ws/{rel}", data)
    files, moves = attempt_files(inputs, repairs)
    for path, data in files:
        write(staging, f"ws/{path}", data, 0o755 if path == rerun.program else 0o644)
    for rel in files_under(staging / "ws"):
        if any(fnmatch.fnmatch(posixpath.basename(rel), g) for g in rerun.remove):
            (staging / "ws" / rel).unlink()
    for name, data in inputs.grader_files:
        write(staging, f"ws/{join(rerun.cwd, name)}", data)
    text_repairs: list[list[object]] = [[r.kind.value, list(r.args)] for r in repairs if r.kind in STDOUT_KINDS]
    lifts = [r.args[0] for r in repairs if r.kind is RepairKind.LIFT_LIMIT]
    if text_repairs and not rerun.program and not rerun.reads:
        raise Refused("this grader's [grader.rerun] names no `program` whose output the checker reads and no file "
                      "it `reads`, so a notation repair has nothing to re-express")
    env: tuple[tuple[str, str], ...] = ()
    shimmed = ""
    if rerun.program and (text_repairs or lifts or observe):
        put_shim(staging, rerun.program, text_repairs, lifts, observe)
        shimmed = rerun.program
    elif lifts:
        env = lift_in_process(staging, lifts)
    changed = repair_reads(staging, rerun.reads, text_repairs, cancel) if text_repairs and rerun.reads else []
    return Staged(env, shimmed, tuple(changed), tuple(moves))
