"""Sessions whose runs are read from a harness's own log where it lies, one run at a time.

A session folder may hold the log a harness wrote (an Inspect ``.eval`` or ``.json`` log, a
folder of mini-swe-agent or SWE-agent trajectories), committed as it is, and name it in its
``session.toml`` (``[log] format``, ``path``); or a log is named on the command line
(``reviewer LOG``). Every unit of the log (a sample epoch, a trajectory file) is a run, with the
id, files and failure ids an import of the same log gives: the run is laid out in memory exactly
as the importer writes it (:func:`reviewer.store.logs.layout.run_files`), its ``run.toml`` parsed
like any manifest, and the files its references name (``<session>/runs/<run>/brief.md`` ...) are
served from that layout. Nothing is written into the session folder; labels go where every
session's go.

Run ids are claimed in the log's unit order, as an import claims them. A unit whose id comes
from its name (a trajectory file) needs no read to be listed; a sample's id comes from the
sample, so the first open of a log reads every sample once and the index cache remembers the ids
(:mod:`reviewer.store.index.logs`) and the runs, keyed by the log's ``lstat``. A unit that cannot
be read (a damaged entry, a trajectory that is not JSON) is a load error naming the log and the
unit; the rest of the log loads.
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

from reviewer.model import LoadError, Run, Session
from reviewer.model.records import record
from reviewer.store.fs.tomlfile import BadToml, parse_toml_bytes
from reviewer.store.fs.untrusted import Missing, RawRead, Unreadable
from reviewer.store.index.cache import RunIndex
from reviewer.store.fs.keys import StatKey, stat_key
from reviewer.store.logs.ids import UniqueIds
from reviewer.store.logs.layout import Files, run_files
from reviewer.store.logs.spec import ImportFailed, LogFormat, NotFormat, OpenedLog, RunSpec
from reviewer.store.runs.manifest import BadManifest, run_from_doc

CACHED_RUNS = 16
"""Runs whose laid-out files are kept (each is read again from the log when asked for after that)."""
READ_PROBLEMS = (NotFormat, ImportFailed, BadToml, BadManifest, Unreadable, RecursionError, MemoryError, ValueError,
                 OSError)
"""What reading one unit can raise: each becomes a load error naming it."""


@record
class LogSource:
    """Where a session's log is: its format, its path on disk and how messages name it.

    Attributes:
        session: the session id.
        path: the log file or folder.
        format: its registered format.
        shown: the log as messages name it (relative to the sessions folder when inside it).
    """

    session: str
    path: Path
    format: LogFormat
    shown: str


def log_key(path: Path) -> StatKey | None:
    """The ``lstat`` key of a log file (None for a folder: its units are keyed one by one)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return stat_key(st) if stat.S_ISREG(st.st_mode) else None


class LogSession:
    """One log read in place: its units, the runs claimed so far, the files of the runs looked at."""

    def __init__(self, source: LogSource) -> None:
        self.source = source
        self.key = log_key(source.path) if source.format.kind == "file" else None
        self.opened: OpenedLog = source.format.open(source.path)
        self.claims = UniqueIds()
        self.wanted: list[str] = []
        """The id each unit asked for, in unit order, as far as they were read ("" for a unit that could not be)."""
        self.ids: dict[str, str] = {}
        """Run id -> unit."""
        self.claimed: list[str] = []
        """Run ids in unit order ("" for a unit that could not be read)."""
        self.problems: dict[str, str] = {}
        """Unit -> why it could not be read."""
        self.files: dict[str, Files] = {}
        self.built: dict[str, tuple[StatKey, Run]] = {}
        """Runs built since the log was opened, with the key their files had (a look at the folder
        every few seconds, the index cache off or a log written a moment ago, reads none again)."""
        self.lock = threading.RLock()

    @property
    def session(self) -> str:
        """The session id."""
        return self.source.session

    def close(self) -> None:
        """Let go of the log."""
        self.opened.close()

    def unit_key(self, unit: str) -> StatKey | None:
        """The key of the files a unit is read from: the log itself, or its trajectory file (several
        files, such as a trial's trajectory, result and verifier output, make one key: their total
        size, newest times and a hash of their inodes and sizes; None when one is not a regular file)."""
        if self.key is not None:
            return self.key
        keys = []
        for path in self.opened.unit_files(unit):
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                continue
            except OSError:
                return None
            if not stat.S_ISREG(st.st_mode):
                return None
            keys.append(stat_key(st))
        if not keys:
            return None
        if len(keys) == 1:
            return keys[0]
        mixed = hash(tuple((k[0], k[3]) for k in keys)) & ((1 << 62) - 1)
        return (sum(k[0] for k in keys), max(k[1] for k in keys), max(k[2] for k in keys), mixed)

    def read_spec(self, unit: str) -> RunSpec | str:
        """A unit's run as the reader gives it, or why it cannot be read."""
        try:
            return self.opened.read(unit)
        except READ_PROBLEMS as exc:
            return reason(exc)

    def claim(self, count: int, known: list[str] | None = None) -> dict[str, RunSpec]:
        """Claim run ids for the first ``count`` units (``known``: the ids each unit asked for, from
        the index cache); returns the runs read on the way, by unit."""
        read: dict[str, RunSpec] = {}
        with self.lock:
            units = self.opened.units
            for i in range(len(self.wanted), min(count, len(units))):
                unit = units[i]
                wanted = known[i] if known is not None else self.opened.unit_id(unit)
                if not wanted:
                    spec = self.read_spec(unit)
                    if isinstance(spec, str):
                        self.problems[unit] = spec
                        self.wanted.append("")
                        self.claimed.append("")
                        continue
                    read[unit] = spec
                    wanted = spec.id
                self.wanted.append(wanted)
                run_id = self.claims.claim(wanted)
                self.claimed.append(run_id)
                self.ids[run_id] = unit
        return read

    def laid_out(self, run_id: str, spec: RunSpec | None = None) -> Files:
        """The files of a run as an import writes them (read from the log when not kept)."""
        with self.lock:
            files = self.files.get(run_id)
            if files is not None:
                return files
            unit = self.ids.get(run_id)
        if unit is None:
            raise Missing("file not found")
        if spec is None:
            got = self.read_spec(unit)
            if isinstance(got, str):
                raise Unreadable(got)
            spec = got
        try:
            files = run_files(spec)
        except ImportFailed as exc:
            raise Unreadable(str(exc)) from None
        with self.lock:
            self.files[run_id] = files
            while len(self.files) > CACHED_RUNS:
                self.files.pop(next(iter(self.files)))
        return files

    def run(self, run_id: str, spec: RunSpec | None = None) -> Run:
        """A run built from its laid-out ``run.toml``, as the loader builds an imported one.

        Raises:
            Unreadable, BadToml, BadManifest: the unit cannot be read, or gives no usable run.
        """
        files = self.laid_out(run_id, spec)
        run_dir = f"{self.session}/runs/{run_id}"
        return run_from_doc(parse_toml_bytes(files["run.toml"]), self.session, run_id, run_dir, f"{run_dir}/run.toml")

    def read(self, rel: str, cap: int) -> RawRead:
        """A file of one of the runs (``rel``: ``<run>/<path>``), up to ``cap`` bytes."""
        run_id, _, path = rel.partition("/")
        data = self.laid_out(run_id).get(path)
        if data is None:
            raise Missing("file not found")
        return RawRead(data[:cap], len(data), len(data) > cap)


def reason(exc: BaseException) -> str:
    """A read failure in plain words."""
    if isinstance(exc, RecursionError):
        return "nested too deeply to read"
    if isinstance(exc, MemoryError):
        return "too large to read"
    if isinstance(exc, NotFormat):
        return exc.reason
    if isinstance(exc, OSError):
        return f"cannot read: {exc.strerror or exc}"
    return str(exc) or type(exc).__name__


class LogShelf:
    """The logs a sessions folder's sessions read in place, kept open between scans while unchanged.

    Safe to use from several threads.
    """

    def __init__(self) -> None:
        self.open: dict[str, LogSession] = {}
        self.lock = threading.Lock()

    def get(self, source: LogSource) -> LogSession:
        """The session's log, opened again when it moved or changed since it was opened.

        Raises:
            NotFormat, ImportFailed, OSError: the log cannot be opened.
        """
        with self.lock:
            held = self.open.get(source.session)
        same = held is not None and held.source == source
        if held is not None and same and held.key is not None and held.key == log_key(source.path):
            return held
        log = LogSession(source)
        if held is not None and same and held.key is None and log.opened.units == held.opened.units:
            log.close()  # a folder whose files are the same ones (each is keyed on its own)
            return held
        with self.lock:
            old = self.open.pop(source.session, None)
            self.open[source.session] = log
        if old is not None:
            old.close()
        return log

    def retain(self, sessions: set[str]) -> None:
        """Close the logs of sessions that are gone."""
        with self.lock:
            gone = [self.open.pop(s) for s in list(self.open) if s not in sessions]
        for log in gone:
            log.close()

    def owner(self, ref: str) -> tuple[LogSession, str] | None:
        """The log a reference points into, and the reference below ``<session>/runs/``."""
        session, sep, rest = ref.partition("/runs/")
        if not sep:
            return None
        with self.lock:
            log = self.open.get(session)
        return (log, rest) if log is not None else None

    def read(self, ref: str, cap: int) -> RawRead | None:
        """A file of a run read in place, or None when ``ref`` is not one (read it from disk)."""
        found = self.owner(ref)
        if found is None:
            return None
        log, rest = found
        return log.read(rest, cap)

    def run(self, manifest: str) -> Run | None:
        """A run read in place, by its manifest path (for the index cache's details that did not decode)."""
        found = self.owner(manifest)
        if found is None:
            return None
        log, rest = found
        try:
            return log.run(rest.partition("/")[0])
        except (Unreadable, BadToml, BadManifest, RecursionError):
            return None


def session_of(log: LogSession, declared: Session | None, runs: list[Run]) -> Session:
    """The session as it is shown: what its ``session.toml`` says, the rest from the log."""
    opened = log.opened
    base = declared or Session(id=log.session)
    return Session(
        id=log.session,
        harness=base.harness or log.source.format.harness,
        harness_version=base.harness_version or opened.harness_version,
        started=base.started or opened.started,
        models=base.models or tuple(sorted({r.model for r in runs})),
        notes=base.notes or opened.notes,
        manifest=base.manifest,
        log=base.log or log.source.shown,
        log_format=log.source.format.name,
    )


def scan_log(log: LogSession, index: RunIndex | None, limit: int | None = None
             ) -> tuple[list[Run], list[LoadError], set[str]]:
    """The runs of a log (its first ``limit`` units), from the index cache where it knows them;
    (runs, load errors, manifest paths of the runs seen)."""
    units = log.opened.units
    count = len(units) if limit is None else min(limit, len(units))
    known = None
    rel = log.source.shown
    if index is not None and log.key is not None and len(log.wanted) < count:
        known = index.log_ids.get(rel, log.key, len(units))
    read = log.claim(count, known)
    if index is not None and log.key is not None and limit is None and len(log.wanted) == len(units) \
            and all(log.wanted):
        index.log_ids.remember(rel, log.key, log.wanted)
    todo = [(run_id, f"{log.session}/runs/{run_id}/run.toml", log.unit_key(units[i]))
            for i, run_id in enumerate(log.claimed[:count]) if run_id]
    runs: list[Run] = []
    if index is not None:
        found, missed = index.take_keyed(log.session, todo)
        runs.extend(found)
        keys = dict(missed)
    else:
        keys = {run_id: key for run_id, _, key in todo}
    listed = set(units[:count]) if log.problems else set()
    errors = [LoadError(rel, f"{unit}: {why}") for unit, why in log.problems.items() if unit in listed]
    for run_id, key in keys.items():
        unit = log.ids[run_id]
        kept = log.built.get(run_id)
        if kept is not None and key is not None and kept[0] == key:
            runs.append(kept[1])
            continue
        try:
            run = log.run(run_id, read.get(unit))
        except (Unreadable, BadToml, BadManifest, RecursionError) as exc:
            errors.append(LoadError(rel, f"{unit}: {exc}"))
            continue
        runs.append(run)
        if key is not None:
            log.built[run_id] = (key, run)
        if index is not None and key is not None:
            index.remember(run.manifest, key, run)
    return runs, errors, {manifest for _, manifest, _ in todo}


LABELS_BESIDE = "sessions"
"""The folder beside a log named on the command line that keeps its labels (unless ``--labels`` says)."""


def named_log(path: Path) -> LogSource | None:
    """The log a path on the command line names, read in place as a session of its own; None when
    it is a sessions folder (or nothing a registered format reads).

    A file is a log when a format claims its name (``.eval``, ``.json``); a folder is one when it
    holds the files of one folder format (``*.traj.json``, ``*.traj``) and no session folder (a
    sub-folder with a ``session.toml`` or ``runs/``). The session is named after the log: its
    name without the format's suffix, made a valid id.
    """
    from reviewer.store.logs.ids import safe_id
    from reviewer.store.logs.registry import claiming, folder_format

    try:
        st = os.stat(path)
    except OSError:
        return None
    if stat.S_ISREG(st.st_mode):
        found = claiming(path.name)
        if found is None or found.kind != "file":
            return None
        stem = path.name[: -max(len(s) for s in found.suffixes if path.name.endswith(s))] or path.name
        return LogSource(safe_id(stem, "log"), path, found, str(path))
    if not stat.S_ISDIR(st.st_mode) or holds_sessions(path):
        return None
    found = folder_format(path)
    return LogSource(safe_id(path.resolve().name, "log"), path, found, str(path)) if found is not None else None


def holds_sessions(path: Path) -> bool:
    """Whether a folder holds session folders (a sub-folder with a ``session.toml`` or ``runs/``)."""
    try:
        with os.scandir(path) as entries:
            folders = [e.path for e in entries if not e.name.startswith(".") and e.is_dir(follow_symlinks=False)]
    except OSError:
        return False
    return any(os.path.lexists(os.path.join(f, "session.toml")) or os.path.isdir(os.path.join(f, "runs")) for f in folders)


def labels_root(log: LogSource, labels: Path | None) -> Path:
    """The sessions folder that keeps a named log's labels: ``labels``, else ``sessions/`` beside the
    log (made when missing, when it can be: otherwise labels go where an unwritable folder's go)."""
    root = labels if labels is not None else log.path.absolute().parent / LABELS_BESIDE
    try:
        root.mkdir(exist_ok=True)
    except OSError:
        pass
    return root
