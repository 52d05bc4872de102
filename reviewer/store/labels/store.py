"""One reviewer's own labels of a sessions folder: read when needed, every decision saved at once.

A decision on a failure of run R in session S rewrites one small file,
``S/labels/<reviewer>/R.toml`` (temp file, fsync, rename, fsync of the folder), under the
session's labels folder lock, after reading that file again: whatever else changed it (a ``git
pull``, another instance, ``reviewer label``) is kept. So a decision costs the same with 200 or
200,000 labels in the session, and two reviewers, or one reviewer's two runs, never touch one
file (git merges them without conflicts).

A run's file is read the first time one of its failures is asked about; :meth:`LabelStore.load`
reads a session's every file (the app does, to report problems). A session that still has a
format-1 file (``S/labels/<reviewer>.toml`` and maybe its journal) is read through it until the
reviewer's next decision there: that decision first moves every label of the old file into the
run files (each run's file gets the old file's labels of that run beside its own, written and
made durable before anything is removed), then removes the old file and its journal. At every
moment each label is in one of the two or in both, and readers merge the two, so a crash loses
nothing; a damaged old file (or a damaged run file it must be merged into) is not moved and
nothing is written in that session until it is repaired.

A file that cannot be read whole (damaged, conflict markers, written by a newer program, a link)
is never written over: the decision stays pending in memory and the error says which file and
why. A failure with two or more labels (a *duplicate*, say from a hand merge) keeps them all
until the reviewer decides that failure again: the decision replaces them; the newest by
``labelled_at`` is the one in force meanwhile. Decisions made through this store that an outside
change lost (a checkout of an older file, a stash) are written back at the next save and named
by :meth:`LabelStore.take_restored`; a later label from elsewhere (another instance) wins.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from reviewer.model import LoadError
from reviewer.model.check import failure_id
from reviewer.model.label import Label, Note
from reviewer.model.records import record
from reviewer.model.wording import count
from reviewer.store.fs.atomic import atomic_write, atomic_write_many, clean_stale_temps, folder_lock, remove_durably
from reviewer.store.fs.keys import stat_key
from reviewer.store.fs.nofollow import LinkOnPath, check_dir, make_folder
from reviewer.store.fs.paths import fallback_root, redirect_reason
from reviewer.store.labels.format import Contents, Entry, Key, run_file_bytes
from reviewer.store.labels.layout import (
    LABELS_DIR,
    RUN_NAME,
    SUFFIX,
    FolderKey,
    folder_key,
    folder_stem,
    run_file_name,
    run_files,
)
from reviewer.store.labels.legacy import journal_path
from reviewer.store.labels.reading import (
    NEWER,
    SETTLED_NS,
    LabelFile,
    describe_duplicate,
    distinct,
    from_contents,
    holder,
    read_file,
    remember,
)

if TYPE_CHECKING:
    from reviewer.store.index.cache import RunIndex

Change = tuple[str, str, str, Entry]
"""(session, run, check, what the failure holds after it)."""


class LabelsUnsafe(Exception):
    """Saving would write over labels that could not be read; nothing was written."""


@record(frozen=False)
class RunView:
    """One run's labels as this reviewer holds them on disk: every distinct label per check (the
    one in force first) and note entries per check."""

    entries: dict[str, tuple[Label, ...]] = field(default_factory=dict)
    notes: dict[str, Note] = field(default_factory=dict)


@record(frozen=False)
class SessionFiles:
    """This reviewer's files in one session as last read.

    Attributes:
        labels_dir: the session's labels folder this reviewer writes in (the sessions folder's, or
            the per-user folder's when that one is not writable).
        trusted: the root below which no link is followed on the way to it.
        old: the format-1 file as read (None: none there); ``old_by_run`` its failures per run.
        runs: each run's file as read (None: no file), for the runs asked about so far.
        strays: files of the folder not named for their run (read when the folder is listed).
        listed: every file of the folder was read.
        views: merged views per run, made on demand.
    """

    labels_dir: Path
    trusted: Path
    old: LabelFile | None = None
    old_by_run: dict[str, list[Key]] = field(default_factory=dict)
    old_read: bool = False
    runs: dict[str, LabelFile | None] = field(default_factory=dict)
    strays: dict[str, LabelFile] = field(default_factory=dict)
    listed: bool = False
    views: dict[str, RunView] = field(default_factory=dict)
    cleaned: bool = False
    folder_seen: FolderKey | None = None
    """The folder as it was when last listed, or after this store's own last write (None: list it again)."""
    link: str | None = None
    """Why the folder must not be used, as last looked at (None: not yet)."""


def apply_change(entries: dict[str, tuple[Label, ...]], notes: dict[str, Note], check: str, entry: Entry) -> None:
    """One change to a run's entries: a label (or exact labels) replaces every label of the check and
    its note entry, None removes the labels, a note entry is set (an empty one removed)."""
    if isinstance(entry, Note):
        if entry.empty:
            notes.pop(check, None)
        else:
            notes[check] = entry
        return
    labels = labels_of(entry)
    if labels:
        entries[check] = labels
        notes.pop(check, None)
    else:
        entries.pop(check, None)


def labels_of(entry: Entry) -> tuple[Label, ...]:
    """The labels a change leaves on its failure, the one in force first (none for a note entry or None)."""
    if isinstance(entry, tuple):
        return distinct(entry)
    return (entry,) if isinstance(entry, Label) else ()


def label_of(entry: Entry) -> Label | None:
    """The label in force that a change leaves (a note entry leaves none it decides)."""
    labs = labels_of(entry)
    return labs[0] if labs else None


def lost(ours: tuple[Label, ...], on_disk: tuple[Label, ...]) -> bool:
    """True when labels written by this store are gone from disk: missing, or replaced by older ones."""
    return on_disk != ours and (not on_disk or on_disk[0].labelled_at < ours[0].labelled_at)


class LabelStore:
    """One reviewer's labels of one sessions folder (or, ``adjudications``, the folder's adjudications).

    The store is the one owner of what is known of the reviewer's files: the files as read, the
    changes not yet on disk (``pending``), the decisions made through it (``mine``). Safe to use
    from several threads.
    """

    def __init__(self, root: Path, reviewer: str, adjudications: bool = False) -> None:
        self.root = Path(root)
        self.reviewer = reviewer
        self.stem = folder_stem(reviewer, adjudications)
        self.index: RunIndex | None = None
        """The folder's index cache, when the app has one: unchanged files are not parsed again."""
        self.redirected: Path | None = None
        """The per-user folder labels go to, when the sessions folder is not writable."""
        self.sessions: dict[str, SessionFiles] = {}
        self.pending: list[Change] = []
        self.mine: dict[tuple[str, str, str], Entry] = {}
        self.restored: list[str] = []
        self.moved: list[str] = []
        self.reported: dict[str, str] = {}
        self.lock = threading.RLock()

    # ---- where -------------------------------------------------------------------------------

    def files_of(self, session: str) -> SessionFiles:
        """The session's state (made on first use: where this reviewer's files are)."""
        st = self.sessions.get(session)
        if st is None:
            inside = self.root / session / LABELS_DIR
            if redirect_reason(self.root, inside):
                self.redirected = fallback_root(self.root)
                st = SessionFiles(self.redirected / session / LABELS_DIR, self.redirected)
            else:
                st = SessionFiles(inside, self.root)
            self.sessions[session] = st
        return st

    def folder(self, session: str) -> Path:
        """This reviewer's folder of run files in a session."""
        return self.files_of(session).labels_dir / self.stem

    def run_path(self, session: str, run: str) -> Path:
        """The file a decision on a failure of ``run`` goes to."""
        return self.folder(session) / run_file_name(run)

    def old_path(self, session: str) -> Path:
        """The session's format-1 file of this reviewer."""
        return self.files_of(session).labels_dir / (self.stem + SUFFIX)

    def where(self, session: str, run: str) -> tuple[Path, str]:
        """The file decisions on ``run`` go to, and why it is not in the sessions folder ("" when it is)."""
        path = self.run_path(session, run)
        return path, redirect_reason(self.root, self.root / session / LABELS_DIR)

    def link_problem(self, session: str, again: bool = True) -> str:
        """Why the session's labels folder (or this reviewer's folder in it) must not be used ("" when it
        may), looked at again unless ``again`` is False and it was looked at before (a run's first read)."""
        st = self.files_of(session)
        if not again and st.link is not None:
            return st.link
        rel = (st.labels_dir / self.stem).relative_to(st.trusted).as_posix()
        st.link = ""
        try:
            check_dir(st.trusted, rel)
        except LinkOnPath as exc:
            st.link = f"{exc}; labels are neither read nor written there"
        except OSError:
            pass
        return st.link

    # ---- reading -----------------------------------------------------------------------------

    def read_old(self, session: str, again: bool = False) -> LabelFile | None:
        """The session's format-1 file (its journal applied), read once (``again``: read it if it changed)."""
        st = self.files_of(session)
        if st.old_read and not again:
            return st.old
        got = None if self.link_problem(session) else read_file(self.old_path(session), session, self.reviewer,
                                                                 old=True)
        if got is not st.old:
            st.old = got
            st.old_by_run = {}
            for key in (got.entries.keys() | got.notes.keys()) if got is not None else ():
                st.old_by_run.setdefault(key[0], []).append(key)
            st.views.clear()
        st.old_read = True
        return got

    def read_run(self, session: str, run: str, again: bool = False) -> LabelFile | None:
        """A run's file, read once (``again``: read it if it changed)."""
        st = self.files_of(session)
        if run in st.runs and not again:
            return st.runs[run]
        problem = self.link_problem(session, again)
        last = st.runs.get(run)
        got: LabelFile | None
        if problem:  # the same refusal is the same object: nothing changed
            got = last if last is not None and last.problems == (problem,) else LabelFile(
                self.run_path(session, run), (), problems=(problem,))
        else:
            got = read_file(self.run_path(session, run), session, self.reviewer, index=self.index)
        if run not in st.runs or got is not last:
            st.runs[run] = got
            st.views.pop(run, None)
        return got

    def list_session(self, session: str, again: bool = False, every_file: bool = False) -> None:
        """Read every file of this reviewer in the session (the folder listed: files named for no run too).

        ``again``: read what changed since. When no file was created, renamed or removed in the
        folder since it was last listed (or since this store's own last write in it) the files are
        not looked at one by one: reviewer and git replace a file, never rewrite it in place; a file
        rewritten in place is seen at the folder's next change, and always before it is written
        (``every_file``: look at each file however the folder looks, as before moving a format-1 file).
        """
        st = self.files_of(session)
        if st.listed and not again:
            return
        self.read_old(session, again)
        problem = self.link_problem(session)
        seen_key = None if problem else folder_key(self.folder(session))
        if st.listed and not every_file and seen_key is not None and seen_key == st.folder_seen:
            return
        paths = [] if problem else run_files(self.folder(session))
        seen: dict[str, LabelFile] = {}
        strays: dict[str, LabelFile] = {}
        for path in paths:
            got = read_file(path, session, self.reviewer, index=self.index)
            if got is None:
                continue
            run = got.run or (path.stem if RUN_NAME.fullmatch(path.stem) else "")  # an unreadable file: by its name
            if run and path.name == run_file_name(run):
                seen[run] = got
            else:
                strays[str(path)] = got
        for run in set(st.runs) | set(seen):
            now = seen.get(run)
            if st.runs.get(run) is not now:
                st.runs[run] = now
                st.views.pop(run, None)
        if strays.keys() != st.strays.keys() or any(strays[p] is not st.strays[p] for p in strays):
            st.views.clear()
        st.strays = strays
        st.listed = True
        settled = seen_key is not None and time.time_ns() - max(seen_key[1], seen_key[2]) > SETTLED_NS
        st.folder_seen = seen_key if settled else None

    def view(self, session: str, run: str) -> RunView:
        """A run's labels on disk, merged from its file, the format-1 file and any stray file."""
        st = self.files_of(session)
        made = st.views.get(run)
        if made is not None:
            return made
        old = self.read_old(session)
        sources: list[tuple[Key, tuple[Label, ...]]] = []
        notes: dict[str, Note] = {}
        if old is not None:
            for key in st.old_by_run.get(run, ()):
                if key in old.entries:
                    sources.append((key, old.entries[key]))
                if key in old.notes:
                    notes[key[1]] = old.notes[key]
        holders = [self.read_run(session, run)] + [f for f in st.strays.values() if run in {k[0] for k in f.entries}]
        for f in holders:
            if f is None:
                continue
            sources += [(k, labs) for k, labs in f.entries.items() if k[0] == run]
            for k, n in f.notes.items():
                seen = notes.get(k[1])
                if k[0] == run and (seen is None or n.noted_at >= seen.noted_at):
                    notes[k[1]] = n
        gathered: dict[str, list[Label]] = {}
        for (_, check), labs in sources:
            gathered.setdefault(check, []).extend(labs)
        made = RunView({c: distinct(labs) for c, labs in gathered.items()}, notes)
        st.views[run] = made
        return made

    def load(self, sessions: list[str]) -> list[LoadError]:
        """Read every file of this reviewer in the sessions (stale temp files cleaned first); what is wrong with them."""
        with self.lock:
            for s in sessions:
                self.clean(s)
                self.list_session(s)
            return self.problems(sessions)

    def problems(self, sessions: list[str] | None = None) -> list[LoadError]:
        """What is wrong with this reviewer's files read so far: links, damage, duplicates, a newer program's file."""
        out: list[LoadError] = []
        with self.lock:
            for s in sessions if sessions is not None else list(self.sessions):
                problem = self.link_problem(s)
                if problem:
                    out.append(LoadError(str(self.folder(s)), problem))
                    continue
                st = self.files_of(s)
                files = [st.old, *st.runs.values(), *st.strays.values()]
                for f in files:
                    if f is None:
                        continue
                    out += [LoadError(str(f.path), p) for p in f.issues]
                for f in st.strays.values():
                    if f.run:
                        out.append(LoadError(str(f.path), f"holds labels of run {f.run} but is not named "
                                             f"{run_file_name(f.run)}: read, never written"))
                held: dict[Key, int] = {}  # failures with two tables in one file, or tables in two files
                for f in files:
                    for k, labs in (f.entries.items() if f is not None else ()):
                        held[k] = held.get(k, 0) + len(labs)
                for run, check in sorted(k for k, n in held.items() if n > 1):
                    labs = self.view(s, run).entries.get(check, ())
                    if len(labs) > 1:
                        out.append(LoadError(str(holder(files, labs[0])), describe_duplicate(self.reviewer, labs)))
        return out

    def get(self, session: str, run: str, check: str) -> Label | None:
        """This reviewer's label in force on a failure, pending changes included."""
        with self.lock:
            for s, r, c, entry in reversed(self.pending):
                if (s, r, c) == (session, run, check) and not isinstance(entry, Note):
                    return label_of(entry)
            labs = self.view(session, run).entries.get(check)
            return labs[0] if labs else None

    def entries(self, session: str, run: str, check: str) -> tuple[Label, ...]:
        """Every label this reviewer has on a failure (two or more: a duplicate), the one in force first."""
        with self.lock:
            for s, r, c, entry in reversed(self.pending):
                if (s, r, c) == (session, run, check) and not isinstance(entry, Note):
                    return () if entry is None else (entry,) if isinstance(entry, Label) else distinct(entry)
            return self.view(session, run).entries.get(check, ())

    def note(self, session: str, run: str, check: str) -> Note | None:
        """This reviewer's note-only entry on a failure (a failure with a label has none), pending changes included."""
        with self.lock:
            for s, r, c, entry in reversed(self.pending):
                if (s, r, c) != (session, run, check) or entry is None:
                    continue
                if isinstance(entry, Note):
                    return None if entry.empty else entry
                if label_of(entry) is not None:
                    return None
            if self.get(session, run, check) is not None:
                return None
            return self.view(session, run).notes.get(check)

    def run_labels(self, session: str, run: str) -> dict[str, Label]:
        """This reviewer's labels in force on one run's checks, pending changes included."""
        with self.lock:
            out = {c: labs[0] for c, labs in self.view(session, run).entries.items()}
            for s, r, c, entry in self.pending:
                if (s, r) == (session, run) and not isinstance(entry, Note):
                    lab = label_of(entry)
                    if lab is None:
                        out.pop(c, None)
                    else:
                        out[c] = lab
            return out

    def mine_all(self) -> list[Label]:
        """Every label in force of this reviewer in the sessions read so far (each session's folder
        listed). The lock is taken run by run: a worker asking this never holds up the screen's reads."""
        out: list[Label] = []
        for s in list(self.sessions):
            with self.lock:
                self.list_session(s)
                st = self.files_of(s)
                runs = sorted(set(st.runs) | set(st.old_by_run))
            for run in runs:
                out += self.run_labels(s, run).values()
        return out

    # ---- writing -----------------------------------------------------------------------------

    def put_many(self, changes: list[Change]) -> None:
        """Save changes as one decision: one atomic write per run file touched.

        Changes kept pending earlier for the same runs are written with them; other runs' are left
        to :meth:`retry`. Raises the first failure after trying every file (the changes not saved
        stay pending): LabelsUnsafe (a file that cannot be read whole), LinkOnPath, OSError, TimeoutError.
        """
        with self.lock:
            self.pending.extend(changes)
            self.flush({(s, r) for s, r, _, _ in changes})

    def put(self, session: str, run: str, check: str, entry: Entry) -> None:
        """Save one change at once (see :meth:`put_many`)."""
        self.put_many([(session, run, check, entry)])

    def flush(self, only: set[tuple[str, str]] | None = None) -> None:
        """Write the pending changes (of the ``only`` runs, when given); raises the first failure
        after trying every run."""
        with self.lock:
            runs: dict[tuple[str, str], list[Change]] = {}
            for change in self.pending:
                if only is None or (change[0], change[1]) in only:
                    runs.setdefault((change[0], change[1]), []).append(change)
            failed: BaseException | None = None
            for (session, run), changes in runs.items():
                try:
                    self.save(session, run, changes)
                except (LabelsUnsafe, OSError, TimeoutError) as exc:
                    failed = failed or exc
                    continue
                done = {id(c) for c in changes}
                self.pending = [c for c in self.pending if id(c) not in done]
                self.mine.update(((s, r, c), e) for s, r, c, e in changes if not isinstance(e, Note))
            if failed is not None:
                raise failed

    def retry(self) -> list[str]:
        """Try again to save every pending change; what still fails."""
        with self.lock:
            if not self.pending:
                return []
            try:
                self.flush()
            except (LabelsUnsafe, OSError, TimeoutError) as exc:
                return [str(exc)]
            return []

    def pending_count(self) -> int:
        """Changes made but not yet on disk."""
        return len(self.pending)

    def clean(self, session: str) -> None:
        """Remove temp files a crashed writer left in the session's labels folders (once per session)."""
        st = self.files_of(session)
        if st.cleaned or self.link_problem(session) or not st.labels_dir.is_dir():
            return
        try:
            with folder_lock(st.labels_dir):
                clean_stale_temps(st.labels_dir)
                if (st.labels_dir / self.stem).is_dir():
                    clean_stale_temps(st.labels_dir / self.stem)
        except (OSError, TimeoutError):
            return
        st.cleaned = True

    def save(self, session: str, run: str, changes: list[Change]) -> None:
        """Under the session's labels folder lock: move a format-1 file in first, read the run's
        file again, put back decisions of ours an outside change lost, apply the changes, write."""
        problem = self.link_problem(session)
        if problem:
            raise LinkOnPath(problem)
        st = self.files_of(session)
        folder = make_folder(st.trusted, st.labels_dir / self.stem)
        with folder_lock(st.labels_dir):
            if not st.cleaned:
                clean_stale_temps(st.labels_dir)
                clean_stale_temps(folder)
                st.cleaned = True
            old = self.read_old(session, again=True)
            if old is not None:
                self.move_old_file(session, old)
            current = self.read_run(session, run, again=True)
            if current is not None and not current.writable:
                raise LabelsUnsafe(f"{current.path.name} in {session}: {unsafe(current)}; it is not written over until "
                                   "it is repaired")
            view = self.view(session, run)
            entries, notes = dict(view.entries), dict(view.notes)
            restored = self.put_back(session, run, entries, {c for _, _, c, _ in changes})
            for _, _, check, entry in changes:
                apply_change(entries, notes, check, entry)
            self.write_run(session, run, entries, notes)
        self.restored += [fid for fid in restored if fid not in self.restored]

    def save_moves(self, session: str) -> None:
        """Under the session's labels folder lock: move its format-1 file into the new layout, if there is one."""
        if self.link_problem(session):
            raise LinkOnPath(self.link_problem(session))
        st = self.files_of(session)
        make_folder(st.trusted, st.labels_dir / self.stem)
        with folder_lock(st.labels_dir):
            old = self.read_old(session, again=True)
            if old is not None:
                self.move_old_file(session, old)

    def write_run(self, session: str, run: str, entries: dict[str, tuple[Label, ...]], notes: dict[str, Note]) -> None:
        """Write (or, with nothing left, remove) a run's file atomically; the store then holds what was written."""
        path = self.run_path(session, run)
        st = self.files_of(session)
        labels = [lab for labs in entries.values() for lab in labs]
        if not labels and not notes:
            remove_durably([path])
            st.runs[run] = None
        else:
            data = run_file_bytes(session, self.reviewer, run, labels, notes.values())
            atomic_write(path, data)
            made = from_contents(path, stat_key(os.lstat(path)), Contents(self.reviewer, run, tuple(labels),
                                                                           tuple(notes.values())), False, len(data))
            st.runs[run] = remember(made)
        st.views.pop(run, None)
        if st.listed and st.folder_seen is not None:  # the folder's one change since it was listed is this write
            st.folder_seen = folder_key(path.parent)

    def put_back(self, session: str, run: str, entries: dict[str, tuple[Label, ...]], deciding: set[str]) -> list[str]:
        """Put back into a run's entries the decisions made through this store that an outside change
        lost (missing, or replaced by an older label); their failure ids. A later label wins; a
        failure being decided now is left to that decision."""
        restored = []
        for (s, r, check), entry in self.mine.items():
            if (s, r) != (session, run) or check in deciding:
                continue
            ours = labels_of(entry)
            if ours and lost(ours, entries.get(check, ())):
                entries[check] = ours
                restored.append(failure_id(session, run, check))
        return restored

    def move_old_file(self, session: str, old: LabelFile) -> None:
        """Under the lock: every label of the session's format-1 file into the run files, durably, then
        the old file and its journal removed. Nothing is moved from or into a file that cannot be read whole."""
        if not old.writable:
            raise LabelsUnsafe(f"{old.path.name} in {session}: {unsafe(old)}; its labels are not moved into the new "
                               "layout and nothing is written in this session until it is repaired")
        st = self.files_of(session)
        self.list_session(session, again=True, every_file=True)
        damaged = [f for f in [*st.runs.values(), *st.strays.values()] if f is not None and not f.writable]
        if damaged:
            raise LabelsUnsafe(f"{damaged[0].path.name} in {session}: {unsafe(damaged[0])}; the labels of "
                               f"{old.path.name} are not moved into it and nothing is written in this session until it "
                               "is repaired")
        writes = []
        for run in sorted(st.old_by_run):
            view = self.view(session, run)
            current = st.runs.get(run)
            have = ({} if current is None else {k[1]: v for k, v in current.entries.items()},
                    {} if current is None else {k[1]: v for k, v in current.notes.items()})
            if (view.entries, view.notes) == have:
                continue
            labels = [lab for labs in view.entries.values() for lab in labs]
            writes.append((run, self.run_path(session, run), run_file_bytes(session, self.reviewer, run, labels,
                                                                            view.notes.values())))
        atomic_write_many([(path, data) for _, path, data in writes])
        remove_durably([old.path, journal_path(old.path)])
        moved = sum(len(labs) for labs in old.entries.values())
        self.moved.append(f"{count(moved, 'label')} of {old.path} moved into {self.folder(session)}/ (one file per run, "
                          f"format 2); the old file{' and its journal' if len(old.key) > 4 else ''} removed")
        st.old, st.old_by_run, st.views = None, {}, {}
        for run, _, _ in writes:
            st.runs.pop(run, None)

    # ---- outside changes ---------------------------------------------------------------------

    def resync(self) -> tuple[list[str], list[str]]:
        """Take in outside changes to this reviewer's files (git pull, checkout, another instance),
        writing back decisions of this store they lost.

        Returns the sessions whose files changed and the problems not reported before.
        """
        changed, errors = [], []
        with self.lock:
            for s, st in list(self.sessions.items()):
                before = (st.old, dict(st.runs), dict(st.strays))
                try:
                    if st.listed:
                        self.list_session(s, again=True)
                    else:
                        self.read_old(s, again=True)
                        for run in list(st.runs):
                            self.read_run(s, run, again=True)
                    if not differs(before, (st.old, st.runs, st.strays)):
                        continue
                    changed.append(s)
                    for run in sorted({r for (ss, r, c), e in self.mine.items() if ss == s and labels_of(e)
                                       and lost(labels_of(e), self.view(s, r).entries.get(c, ()))}):
                        if not any(c[0] == s and c[1] == run for c in self.pending):
                            self.save(s, run, [])
                    now = [f"{e.path}: {e.reason}" for e in self.problems([s])]
                    if not now:
                        self.reported.pop(s, None)
                    elif self.reported.get(s) != "; ".join(now):
                        self.reported[s] = "; ".join(now)
                        errors += now
                except (LabelsUnsafe, OSError, TimeoutError) as exc:
                    if self.reported.get(s) != str(exc):
                        self.reported[s] = str(exc)
                        errors.append(f"{s}: {exc}")
        return changed, errors

    def take_restored(self) -> list[str]:
        """Failure ids of decisions that saves wrote back after an outside change lost them (then forgotten)."""
        with self.lock:
            restored, self.restored = self.restored, []
            return restored

    def take_moved(self) -> list[str]:
        """What moving format-1 files into the new layout did, one sentence each (then forgotten)."""
        with self.lock:
            moved, self.moved = self.moved, []
            return moved


def differs(before: tuple[LabelFile | None, dict[str, LabelFile | None], dict[str, LabelFile]],
            after: tuple[LabelFile | None, dict[str, LabelFile | None], dict[str, LabelFile]]) -> bool:
    """True when any file read is not the object read before (it changed, came or went)."""
    if before[0] is not after[0] or before[1].keys() != after[1].keys() or before[2].keys() != after[2].keys():
        return True
    return any(before[1][k] is not v for k, v in after[1].items()) or any(
        before[2][k] is not v for k, v in after[2].items())


def unsafe(f: LabelFile) -> str:
    """Why a file cannot be written over, in words."""
    if f.problems:
        more = f" (and {len(f.problems) - 1} more)" if len(f.problems) > 1 else ""
        return f.problems[0] + more
    return NEWER


def own_files(root: Path, reviewer: str, adjudications: bool = False) -> tuple[list[Path], list[Path]]:
    """A reviewer's label files (both formats; ``adjudications``: also the adjudications') in the
    sessions folder, and those kept in the per-user folder (a read-only sessions folder: not in git)."""
    stems = [folder_stem(reviewer)] + ([folder_stem(reviewer, adjudications=True)] if adjudications else [])
    found: tuple[list[Path], list[Path]] = ([], [])
    for where, base in enumerate((Path(root), fallback_root(Path(root)))):
        try:
            sessions = sorted(e.name for e in os.scandir(base) if e.is_dir(follow_symlinks=False)
                              and not e.name.startswith("."))
        except OSError:
            continue
        for s in sessions:
            labels = base / s / LABELS_DIR
            for stem in stems:
                old = labels / (stem + SUFFIX)
                if old.is_file() and not old.is_symlink():
                    found[where].append(old)
                folder = labels / stem
                if folder.is_dir() and not folder.is_symlink():
                    found[where].extend(p for p in run_files(folder) if p.is_file() and not p.is_symlink())
    return found


def prepare_commit(root: Path, reviewer: str, paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """The files to commit for these label files, and the files removed that a commit must remove too.

    A format-1 file among them is first moved into the new layout (as the reviewer's next decision
    would move it): its run files are committed, and the old file and its journal are removed.

    Raises:
        LabelsUnsafe, OSError, TimeoutError: a format-1 file (or a run file) cannot be read whole:
            nothing is moved.
    """
    files: list[Path] = []
    gone: list[Path] = []
    for path in paths:
        if path.suffix != SUFFIX or path.parent.name != LABELS_DIR or path.is_dir():
            files.append(path)
            continue
        session = path.parent.parent.name
        adjudications = path.name == folder_stem(reviewer, adjudications=True) + SUFFIX
        store = LabelStore(Path(root), reviewer, adjudications=adjudications)
        if store.old_path(session) != path:
            files.append(path)
            continue
        with store.lock:
            store.save_moves(session)
        files += [p for p in run_files(store.folder(session)) if p.is_file() and not p.is_symlink()]
        gone += [path, journal_path(path)]
    return files, gone
