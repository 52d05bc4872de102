"""The one writer every importer uses: build the session in a temporary folder, then swap it in.

A failed import leaves nothing half-written: the whole session folder is built in a hidden
folder inside the target (``.reviewer-import-<token>.build``), flushed to disk, then renamed
into place. Re-importing over a session this program imported renames the old folder aside
(``.reviewer-import-<token>.old-<name>``), moves its ``labels/`` into the new tree, renames the
new tree in and deletes the old one. Runs the old session holds from *other* sources are
carried over, so importing files one at a time into one ``--session`` adds to it. Leftovers of
a crash are repaired at the next import. A folder this program did not import is never
replaced. Output is deterministic: the same sources give byte-identical files.

Runs are streamed: each is read, laid out and written before the next is read (by worker
processes for large batches, see :mod:`reviewer.importers.treewrite`), so an import holds one
run at a time per process. The build folder is made from the sessions folder down without
following links (:func:`reviewer.store.fs.nofollow.ensure_dir`), a session name the loader
reserves (``runs``, ``labels``) is refused, and a session whose ``runs/`` is a link is never
read from.
"""

from __future__ import annotations

import os
import secrets
import shutil
import stat
from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import Any

from reviewer.importers.treewrite import (
    DIR_FLAGS,
    Made,
    TreeWriter,
    flush,
    write_bytes,
    write_job,
    write_run,
)
from reviewer.model.records import record
from reviewer.store.fs.atomic import folder_lock, fsync_dir
from reviewer.store.fs.nofollow import LinkOnPath, check_dir, ensure_dir
from reviewer.store.fs.tomlfile import BadToml, parse_toml_bytes
from reviewer.store.fs.untrusted import MANIFEST_CAP, Unreadable, read_capped
from reviewer.store.logs.ids import UniqueIds, fix_text
from reviewer.store.logs.spec import ImportedSession, ImportFailed
from reviewer.store.logs.tomlsafe import dumps
from reviewer.store.sessions.scan import RESERVED_DIRS

Progress = Callable[[int, int], None]

RECORD = ".import.toml"
LABELS = "labels"
PREFIX = ".reviewer-import-"
OURS = frozenset({"session.toml", "runs", RECORD, LABELS})


@record(frozen=False, slots=False)
class WriteResult:
    """What an import wrote.

    Attributes:
        path: the session folder.
        runs: ids of the runs this import wrote, in source order.
        updated: ids of runs that existed before and were replaced in place.
        carried: ids of runs kept from earlier imports of other sources.
        replaced: an earlier import of the session was replaced.
        warnings: things a person should know (shown on stderr).
    """

    path: Path
    runs: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    carried: list[str] = field(default_factory=list)
    replaced: bool = False
    warnings: list[str] = field(default_factory=list)


def read_record(folder: Path) -> dict[str, Any] | None:
    """The import record of a session folder, or None when it has none (not ours)."""
    try:
        raw = read_capped(folder, RECORD, MANIFEST_CAP)
        doc = parse_toml_bytes(raw.data)
    except (Unreadable, BadToml):
        return None
    return doc if isinstance(doc.get("import"), dict) else None


def carried_runs(old: Path, record: dict[str, Any], sources: list[str]) -> dict[str, dict[str, Any]]:
    """Runs of the old session that came from sources not imported now (kept as they are)."""
    runs = record.get("runs", {})
    keep: dict[str, dict[str, Any]] = {}
    if not isinstance(runs, dict):
        return keep
    for run_id, info in sorted(runs.items()):
        if not isinstance(info, dict) or info.get("source") in sources:
            continue
        path = old / "runs" / run_id
        if "/" in run_id or run_id.startswith(".") or not path.is_dir() or path.is_symlink():
            continue
        keep[run_id] = info
    return keep


def session_doc(session: ImportedSession, models: list[str]) -> dict[str, Any]:
    """The ``session.toml`` document."""
    table: dict[str, Any] = {"harness": session.harness, "models": models}
    for key in ("harness_version", "started", "notes"):
        value = getattr(session, key)
        if value:
            table[key] = value
    return {"format": 1, "session": table}


def record_doc(session: ImportedSession, runs: dict[str, dict[str, Any]]) -> bytes:
    """The ``.import.toml`` document: format, sources and where every run came from."""
    return dumps({"format": 1, "import": {"format": session.format, "sources": list(session.sources)}, "runs": runs})


def reserved(name: str) -> str:
    """Why a session cannot be called ``name``, or ""."""
    if name in RESERVED_DIRS:
        return (
            f"the session name {name!r} is reserved: {' and '.join(repr(n) for n in sorted(RESERVED_DIRS))} at the top of a "
            "sessions folder belong to the format and are never loaded as sessions; choose another --session"
        )
    return ""


def copy_entry(src: Path, dst: Path) -> None:
    """Copy a file or folder without following links (links are copied as links)."""
    if src.is_dir() and not src.is_symlink():
        shutil.copytree(src, dst, symlinks=True)
    else:
        shutil.copy2(src, dst, follow_symlinks=False)


def recover(into: Path) -> list[str]:
    """Repair what an interrupted import left behind; returns what was done."""
    done = []
    for entry in sorted(os.scandir(into), key=lambda e: e.name):
        if not entry.name.startswith(PREFIX) or not entry.is_dir(follow_symlinks=False):
            continue
        path = Path(entry.path)
        if entry.name.endswith(".build"):
            shutil.rmtree(path, ignore_errors=True)
            continue
        _, sep, name = entry.name.partition(".old-")
        if not sep or not name or "/" in name:
            continue
        target = into / name
        if not target.exists():
            os.rename(path, target)
            done.append(f"restored session {name} from an interrupted import")
            continue
        if (path / LABELS).is_dir() and not (target / LABELS).exists():
            os.rename(path / LABELS, target / LABELS)
            done.append(f"moved the labels of {name} back after an interrupted import")
        if (path / LABELS).exists():
            done.append(f"{path} still holds labels; left in place, please check it")
            continue
        shutil.rmtree(path, ignore_errors=True)
    return done


def existing_session(target: Path) -> dict[str, Any] | None:
    """The import record of an existing session folder; ImportFailed when it is not ours."""
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return None
    if not stat.S_ISDIR(st.st_mode):
        raise ImportFailed(f"{target} exists and is not a folder")
    record = read_record(target)
    if record is None:
        raise ImportFailed(f"{target} exists and was not written by reviewer import; choose another --session")
    return record


def swap_in(build: Path, target: Path, token: str) -> None:
    """Rename the built tree into place, keeping the old session's labels."""
    if not target.exists():
        os.rename(build, target)
        fsync_dir(target.parent)
        return
    backup = target.parent / f"{PREFIX}{token}.old-{target.name}"
    os.rename(target, backup)
    try:
        if (backup / LABELS).exists():
            os.rename(backup / LABELS, build / LABELS)
        os.rename(build, target)
    except BaseException:
        if (build / LABELS).exists() and not (backup / LABELS).exists():
            os.rename(build / LABELS, backup / LABELS)
        if not target.exists():
            os.rename(backup, target)
        raise
    fsync_dir(target.parent)
    shutil.rmtree(backup, ignore_errors=True)


def write_session(session: ImportedSession, into: Path, progress: Progress | None = None, workers: int | None = None) -> WriteResult:
    """Write ``session`` into the sessions folder ``into`` (created when missing).

    ``progress(done, total)`` is called as runs are written; ``workers``: worker processes
    (None: one per core for large batches, 0: none).

    Raises:
        ImportFailed: the name is reserved, the target exists and is not an imported session,
            reading a source failed, or writing failed (then nothing was changed).
    """
    problem = reserved(session.name)
    if problem:
        raise ImportFailed(problem)
    target = into / session.name
    result = WriteResult(target)
    try:
        into.mkdir(parents=True, exist_ok=True)
        with folder_lock(into, timeout=60.0):
            result.warnings.extend(recover(into))
            record = existing_session(target)
            if record is not None and os.path.lexists(target / "runs"):
                check_dir(target, "runs")  # a link there is refused: carried runs are never read through it
            carried = carried_runs(target, record, session.sources) if record else {}
            made = build_and_swap(session, target, record is not None, carried, progress, workers)
    except TimeoutError as exc:
        raise ImportFailed(str(exc)) from None
    except LinkOnPath as exc:
        raise ImportFailed(str(exc)) from None
    except OSError as exc:
        raise ImportFailed(f"could not write {target}: {exc.strerror or exc}") from None
    result.runs = [m.id for m in made]
    for m in made:
        result.warnings.extend(m.warnings)
    old_runs = record.get("runs", {}) if record else {}
    result.updated = [r for r in result.runs if isinstance(old_runs, dict) and r in old_runs]
    result.carried = sorted(carried)
    result.replaced = record is not None
    return result


def write_runs(session: ImportedSession, build: Path, claim: Callable[[str], str], progress: Progress | None, workers: int | None) -> list[Made]:
    """Every run of the session written into ``build/runs``, in order."""
    runs_path = ensure_dir(build, "runs")
    runs_fd = os.open(runs_path, DIR_FLAGS)
    made: list[Made] = []
    total = session.total()
    try:
        for run in session.runs:
            made.append(write_run(runs_fd, claim(run.id), run))
        for job in session.jobs:
            # the writer's threads start with its first run: a job read by worker processes
            # forks them from a process that has no other thread
            with TreeWriter() as writer:
                for m in write_job(job, runs_fd, str(runs_path), claim, workers, writer):
                    made.append(m)
                    if progress is not None:
                        progress(len(made), total)
        return made
    finally:
        os.close(runs_fd)


def finish_docs(session: ImportedSession, build: Path, made: list[Made], carried: dict[str, dict[str, Any]]) -> None:
    """``session.toml`` and ``.import.toml`` of the new tree."""
    record_runs: dict[str, Any] = {k: dict(v) for k, v in carried.items()}
    for m in made:
        record_runs[m.id] = {"source": fix_text(m.source), "model": fix_text(m.model), "task": fix_text(m.task)}
    if not session.harness_version:
        session.harness_version = next((m.harness_version for m in made if m.harness_version), "")
    models = sorted({str(v.get("model", "")) for v in record_runs.values()} - {""})
    fd = os.open(build, DIR_FLAGS)
    try:
        write_bytes(fd, "session.toml", dumps(session_doc(session, models)))
        write_bytes(fd, RECORD, record_doc(session, record_runs))
    finally:
        os.close(fd)


def build_and_swap(
    session: ImportedSession, target: Path, replacing: bool, carried: dict[str, dict[str, Any]], progress: Progress | None, workers: int | None
) -> list[Made]:
    """Write the new tree beside ``target`` (plus what is carried over), then swap it in."""
    token = secrets.token_hex(6)
    build = ensure_dir(target.parent, f"{PREFIX}{token}.build")
    try:
        ids = UniqueIds(set(carried))
        made = write_runs(session, build, ids.claim, progress, workers)
        finish_docs(session, build, made, carried)
        if replacing:
            for run_id in carried:
                copy_entry(target / "runs" / run_id, build / "runs" / run_id)
            for entry in sorted(os.listdir(target)):
                if entry not in OURS and not os.path.lexists(build / entry):
                    copy_entry(target / entry, build / entry)
        fd = os.open(build, DIR_FLAGS)
        try:
            flush(fd)
        finally:
            os.close(fd)
        swap_in(build, target, token)
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
    return made
