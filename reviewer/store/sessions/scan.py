"""Scanning a sessions folder: manifests only, every defect an error entry, never a crash."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import field
from pathlib import Path

from reviewer.model import LoadError, Run, Session
from reviewer.model.records import record
from reviewer.store.fs.keys import StatKey
from reviewer.store.fs.tomlfile import BadToml
from reviewer.store.fs.untrusted import (
    Missing,
    Unreadable,
    describe_mode,
)
from reviewer.store.index.cache import RunIndex
from reviewer.store.index.files import paused_gc
from reviewer.store.runs.manifest import BadManifest, load_manifest, load_manifest_keyed, run_from_doc, session_from_doc
from reviewer.store.sessions.inplace import READ_PROBLEMS, LogShelf, LogSource, reason, scan_log, session_of

ID_PATTERN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,199}$")
RESERVED_DIRS = frozenset({"labels", "runs"})


@record(frozen=False)
class Corpus:
    """What a scan found: sessions, runs that loaded, and errors for everything else."""

    root: Path
    sessions: dict[str, Session] = field(default_factory=dict)
    runs: list[Run] = field(default_factory=list)
    errors: list[LoadError] = field(default_factory=list)

    def run(self, key: str) -> Run | None:
        """The run ``<session>/<run>``, or None."""
        for r in self.runs:
            if r.key == key:
                return r
        return None


def list_dirs(root: Path, rel: str, errors: list[LoadError]) -> list[str]:
    """Names of the sub-folders of ``root/rel``; anything odd is reported, never followed."""
    base = root / rel if rel else root
    try:
        entries = sorted(os.scandir(base), key=lambda e: e.name)
    except OSError as exc:
        errors.append(LoadError(rel or ".", f"cannot list folder: {exc.strerror or exc}"))
        return []
    names = []
    for e in entries:
        if e.name.startswith("."):
            continue
        path = f"{rel}/{e.name}" if rel else e.name
        try:  # the entry's type comes with the listing: no stat per folder
            if e.is_symlink():
                errors.append(LoadError(path, "is a symbolic link; links are not followed in a sessions folder"))
                continue
            if not e.is_dir(follow_symlinks=False):
                continue
        except OSError as exc:
            errors.append(LoadError(path, f"cannot stat: {exc.strerror or exc}"))
            continue
        if not ID_PATTERN.match(e.name):
            errors.append(LoadError(path, "folder name is not a valid id (letters, digits, '.', '_', '-')"))
            continue
        names.append(e.name)
    return names


@record(frozen=False)
class Logs:
    """The logs a scan reads in place: the shelf that keeps them open, and the logs named on the
    command line (then the scan shows those sessions only; the folder holds their labels)."""

    shelf: LogShelf = field(default_factory=LogShelf)
    attached: tuple[LogSource, ...] = ()
    seen: set[str] = field(default_factory=set)
    """Sessions whose logs the last scan read."""


def scan(root: Path, index: RunIndex | None = None, first: bool = True, logs: Logs | None = None) -> Corpus:
    """Scan a sessions folder: read every session and run manifest, nothing else.

    With an ``index``, a run whose manifest is unchanged (by ``lstat``) is taken from it
    instead of being read and parsed; runs parsed afresh are recorded in it. ``first``: the
    store's first scan, whose runs may be frozen out of the collector (see :func:`paused_gc`).
    ``logs``: where the logs of sessions read in place are kept open (and the logs named on the
    command line). Never raises for anything inside the folder; a missing or unreadable root
    gives one error.
    """
    logs = logs if logs is not None else Logs()
    logs.seen = set()
    corpus = Corpus(root=root)
    if logs.attached:
        with paused_gc(freeze=first):
            seen_runs: set[str] = set()
            for source in logs.attached:
                scan_log_session(corpus, source, None, logs, index, seen_runs)
        finish(corpus, index, seen_runs, logs)
        return corpus
    try:
        st = os.stat(root)
    except OSError as exc:
        corpus.errors.append(LoadError(".", f"cannot open sessions folder: {exc.strerror or exc}"))
        return corpus
    if not stat.S_ISDIR(st.st_mode):
        corpus.errors.append(LoadError(".", f"the sessions folder is {describe_mode(st.st_mode)}"))
        return corpus
    seen: set[str] = set()
    with paused_gc(freeze=first):
        for session_id in list_dirs(root, "", corpus.errors):
            if session_id in RESERVED_DIRS:
                continue
            scan_session(corpus, session_id, index, seen, logs=logs)
    finish(corpus, index, seen, logs)
    return corpus


def finish(corpus: Corpus, index: RunIndex | None, seen: set[str], logs: Logs) -> None:
    """After a whole scan: forget in the index what is gone, close logs no session reads, sort."""
    if index is not None:
        index.retain(seen)
        index.log_ids.retain({log.source.shown for s, log in logs.shelf.open.items() if s in logs.seen})
    logs.shelf.retain(logs.seen)
    corpus.runs.sort(key=lambda r: (r.session, r.task, r.model, r.id))


def head(root: Path, limit: int, logs: Logs | None = None) -> Corpus:
    """The folder's sessions and its first ``limit`` runs by folder name (sessions in order, each
    session's run folders in order), for a first screen while the whole folder is read.

    The runs are sorted as :func:`scan` sorts them, but they are the first by name, not the first of
    that order (which takes every manifest to know). What did not load is left to the whole scan.
    """
    corpus = Corpus(root=root)
    errors: list[LoadError] = []
    logs = logs if logs is not None else Logs()
    if logs.attached:
        for source in logs.attached:
            taken = len(corpus.runs)
            scan_log_session(corpus, source, None, logs, limit=limit - taken if taken < limit else 0)
        corpus.runs.sort(key=lambda r: (r.session, r.task, r.model, r.id))
        return corpus
    if not os.path.isdir(root):
        return corpus
    for session_id in list_dirs(root, "", errors):
        if session_id in RESERVED_DIRS:
            continue
        part = Corpus(root=root)
        taken = len(corpus.runs)
        scan_session(part, session_id, limit=limit - taken if taken < limit else 0, logs=logs)
        corpus.sessions.update(part.sessions)
        corpus.runs.extend(part.runs)
    corpus.runs.sort(key=lambda r: (r.session, r.task, r.model, r.id))
    return corpus


def log_path_problem(root: Path, rel: str) -> str:
    """Why the log a session names cannot be read in place: a link or a missing step on the way
    from the session folder down (none is followed), or not a file or folder; "" when it can be."""
    parts = rel.split("/")
    here = root / parts[0]
    for i, part in enumerate(parts[1:], start=1):
        here = here / part
        try:
            st = os.lstat(here)
        except FileNotFoundError:
            return "not found"
        except OSError as exc:
            return f"cannot be read: {exc.strerror or exc}"
        if stat.S_ISLNK(st.st_mode):
            return "is a symbolic link; links are not followed in a sessions folder" if i == len(parts) - 1 else \
                f"the folder {'/'.join(parts[:i + 1])} on the way is a symbolic link (not followed)"
        if i < len(parts) - 1 and not stat.S_ISDIR(st.st_mode):
            return f"{'/'.join(parts[:i + 1])} is not a folder"
    return ""


def scan_log_session(corpus: Corpus, source: LogSource, declared: Session | None, logs: Logs,
                     index: RunIndex | None = None, seen: set[str] | None = None, limit: int | None = None) -> None:
    """Read the runs of a session's log in place into the corpus (its first ``limit`` units)."""
    from reviewer.store.logs.sources import log_problem

    problem = log_problem(source.path, source.format.kind)
    if problem:
        corpus.errors.append(LoadError(source.shown, f"the session's {source.format.name} log {problem}"))
        corpus.sessions[source.session] = declared or Session(id=source.session)
        return
    try:
        log = logs.shelf.get(source)
    except READ_PROBLEMS as exc:
        corpus.errors.append(LoadError(source.shown, f"cannot be read as a {source.format.name} log: {reason(exc)}"))
        corpus.sessions[source.session] = declared or Session(id=source.session)
        return
    logs.seen.add(source.session)
    runs, errors, manifests = scan_log(log, index, limit)
    corpus.runs.extend(runs)
    corpus.errors.extend(errors)
    if seen is not None:
        seen.update(manifests)
    corpus.sessions[source.session] = session_of(log, declared, runs)


def scan_session(corpus: Corpus, session_id: str, index: RunIndex | None = None, seen: set[str] | None = None,
                 limit: int | None = None, logs: Logs | None = None) -> None:
    """Read one session's manifest and all its runs' manifests into the corpus (see :func:`scan`);
    ``limit``: only its first runs by folder name (see :func:`head`). A session whose manifest
    names a log reads its runs from it (:func:`scan_log_session`)."""
    root = corpus.root
    manifest = f"{session_id}/session.toml"
    has_runs = os.path.isdir(root / session_id / "runs") and not os.path.islink(root / session_id / "runs")
    if not os.path.lexists(root / manifest):
        if has_runs:
            corpus.errors.append(LoadError(manifest, "missing: the session has runs but no session.toml"))
            corpus.sessions[session_id] = Session(id=session_id)
        return
    try:
        corpus.sessions[session_id] = session_from_doc(load_manifest(root, manifest, listed=True), session_id, manifest)
    except (Unreadable, BadToml, BadManifest) as exc:
        corpus.errors.append(LoadError(manifest, str(exc)))
        corpus.sessions[session_id] = Session(id=session_id, manifest=manifest)
    declared = corpus.sessions[session_id]
    if declared.log:
        if has_runs:
            corpus.errors.append(LoadError(f"{session_id}/runs", "a session that reads its log in place ([log] in "
                                           "session.toml) holds no runs/ folder: its runs are the log's (not read)"))
        from reviewer.store.logs.registry import by_name

        log_format = by_name(declared.log_format)
        problem = log_path_problem(root, declared.log)
        if log_format is None or problem:
            corpus.errors.append(LoadError(declared.log, f"the session's log {problem or 'has no known format'}"))
            return
        if limit != 0:
            scan_log_session(corpus, LogSource(session_id, root / declared.log, log_format, declared.log), declared,
                             logs or Logs(), index, seen, limit)
        return
    if not has_runs or limit == 0:
        return
    run_ids = list_dirs(root, f"{session_id}/runs", corpus.errors)[:limit]
    todo: list[tuple[str, StatKey | None]]
    if index is not None and seen is not None:
        found, todo = index.take(str(root), session_id, run_ids)
        corpus.runs.extend(found)
        seen.update(run.manifest for run in found)
    else:
        todo = [(run_id, None) for run_id in run_ids]
    for run_id, key in todo:
        run_dir = f"{session_id}/runs/{run_id}"
        rel = f"{run_dir}/run.toml"
        try:
            doc, opened = load_manifest_keyed(root, rel, listed=True)
            key = key or opened  # the key taken before the read, when there is one
            run = run_from_doc(doc, session_id, run_id, run_dir, rel)
            corpus.runs.append(run)
            if key is not None and index is not None and seen is not None:
                index.remember(rel, key, run)
                seen.add(rel)
        except Missing:
            corpus.errors.append(LoadError(rel, "missing: a run folder needs a run.toml"))
        except (Unreadable, BadToml, BadManifest) as exc:
            corpus.errors.append(LoadError(rel, str(exc)))
        except RecursionError:
            corpus.errors.append(LoadError(rel, "is nested too deeply to read"))
