"""The one writer every importer uses: build the session in a temporary folder, then swap it in.

A failed import leaves nothing half-written: the whole session folder is built in a hidden
folder inside the target (``.reviewer-import-<token>.build``), flushed to disk, then renamed
into place. Re-importing over a session this program imported renames the old folder aside
(``.reviewer-import-<token>.old-<name>``), moves its ``labels/`` into the new tree, renames the
new tree in and deletes the old one. Runs the old session holds from *other* sources are
carried over, so importing files one at a time into one ``--session`` adds to it. Leftovers of
a crash are repaired at the next import. A folder this program did not import is never
replaced. Output is deterministic: the same sources give byte-identical files.
"""

from __future__ import annotations

import os
import posixpath
import secrets
import shutil
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reviewer.importers.ids import UniqueIds, fix_text
from reviewer.importers.layout import Files, run_files
from reviewer.importers.spec import ImportedSession, ImportFailed
from reviewer.importers.tomlsafe import dumps
from reviewer.store.atomic import folder_lock, fsync_dir
from reviewer.store.safe_fs import MANIFEST_CAP, Unreadable, read_capped
from reviewer.store.tomlfile import BadToml, parse_toml_bytes

RECORD = ".import.toml"
LABELS = "labels"
PREFIX = ".reviewer-import-"
OURS = frozenset({"session.toml", "runs", RECORD, LABELS})


@dataclass
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


def layout(session: ImportedSession, carried: dict[str, dict[str, Any]]) -> tuple[Files, list[str]]:
    """Every file of the new session folder (carried runs excepted), and the run ids used."""
    files: Files = {}
    ids = UniqueIds(set(carried))
    record_runs: dict[str, Any] = {k: dict(v) for k, v in carried.items()}
    used = []
    for run in session.runs:
        run_id = ids.claim(run.id)
        used.append(run_id)
        for rel, data in run_files(run).items():
            files[f"runs/{run_id}/{rel}"] = data
        record_runs[run_id] = {"source": fix_text(run.source), "model": fix_text(run.model), "task": fix_text(run.task)}
    models = sorted({str(v.get("model", "")) for v in record_runs.values()} - {""})
    files["session.toml"] = dumps(session_doc(session, models))
    record = {"format": 1, "import": {"format": session.format, "sources": list(session.sources)}, "runs": record_runs}
    files[RECORD] = dumps(record)
    return files, used


def write_file(root: Path, rel: str, data: bytes) -> None:
    """Create one new file below ``root`` (never outside it); :func:`flush_tree` makes it durable."""
    norm = posixpath.normpath(rel)
    if norm.startswith(("../", "/")) or norm in ("..", ".") or "\x00" in norm:
        raise ImportFailed(f"refusing to write {rel!r}: it would leave the session folder")
    path = root / norm
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def flush_tree(root: Path) -> None:
    """Make every file and folder of a freshly written tree durable before it is renamed in.

    One ``sync()`` is far cheaper than an fsync per file for thousands of small files; where
    there is none, every file and folder is fsynced.
    """
    if hasattr(os, "sync"):
        os.sync()
        return
    for folder, _dirs, names in sorted(os.walk(root), key=lambda t: -len(t[0])):
        for name in names:
            fd = os.open(os.path.join(folder, name), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        fsync_dir(Path(folder))


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


def write_session(session: ImportedSession, into: Path) -> WriteResult:
    """Write ``session`` into the sessions folder ``into`` (created when missing).

    Raises:
        ImportFailed: the target exists and is not an imported session, or writing failed
            (then nothing was changed).
    """
    target = into / session.name
    result = WriteResult(target)
    try:
        into.mkdir(parents=True, exist_ok=True)
        with folder_lock(into, timeout=60.0):
            result.warnings.extend(recover(into))
            record = existing_session(target)
            carried = carried_runs(target, record, session.sources) if record else {}
            files, used = layout(session, carried)
            build_and_swap(files, target, record is not None, carried)
    except TimeoutError as exc:
        raise ImportFailed(str(exc)) from None
    except OSError as exc:
        raise ImportFailed(f"could not write {target}: {exc.strerror or exc}") from None
    result.runs = used
    old_runs = record.get("runs", {}) if record else {}
    result.updated = [r for r in used if isinstance(old_runs, dict) and r in old_runs]
    result.carried = sorted(carried)
    result.replaced = record is not None
    return result


def build_and_swap(files: Files, target: Path, replacing: bool, carried: dict[str, dict[str, Any]]) -> None:
    """Write the new tree beside ``target`` (plus what is carried over), then swap it in."""
    token = secrets.token_hex(6)
    build = target.parent / f"{PREFIX}{token}.build"
    build.mkdir()
    try:
        for rel in sorted(files):
            write_file(build, rel, files[rel])
        if replacing:
            for run_id in carried:
                copy_entry(target / "runs" / run_id, build / "runs" / run_id)
            for entry in sorted(os.listdir(target)):
                if entry not in OURS and not (build / entry).exists():
                    copy_entry(target / entry, build / entry)
        flush_tree(build)
        swap_in(build, target, token)
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
