"""Reading labels files (any reviewer's, either format), unchanged files from memory, and what is wrong with them.

A file is read into a :class:`LabelFile`: its labels grouped by failure (two tables for one
failure are both kept), its note entries, and its problems (the file or a table or journal line
that could not be read, one sentence each). Reading never raises for anything in the file: a
damaged file gives what could be read and says what could not. Files are kept by path and
``lstat`` key (a format-1 file with its journal's inode and size), up to :data:`CACHE_BYTES`, so
reading every reviewer's labels again after each decision costs the files that changed.

One reviewer's files in one session (their run files, a format-1 file and its journal, in the
sessions folder and in the per-user folder) make a :class:`ReviewerLabels`: every distinct label
per failure, newest first. The newest by ``labelled_at`` is the one in force; two or more are a
*duplicate*, reported by every reader (:func:`problems`) and kept on disk until the reviewer
labels that failure again. Another reviewer's files over :data:`READ_BUDGET` bytes in one session
are not read (a 200 MB file arriving by ``git pull`` would hold gigabytes in memory): the caller
gets a problem that says so.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections import OrderedDict
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from reviewer.model import LoadError
from reviewer.model.check import failure_id
from reviewer.model.label import Label, Note
from reviewer.model.records import record
from reviewer.store.fs.keys import stat_key
from reviewer.store.labels.format import Contents, Key, Unreadable, parse
from reviewer.store.labels.layout import (
    ADJUDICATED,
    ADJUDICATED_FILE,
    FINAL,
    folder_key,
    label_dirs,
    reviewer_entries,
    run_files,
)
from reviewer.store.labels.legacy import journal_path, read_bytes, read_old_file

if TYPE_CHECKING:
    from reviewer.store.index.cache import RunIndex

NEWER = "was written by a newer version of reviewer: read as far as this version can, never written over (upgrade reviewer)"
FILE_CAP = 256 << 20
"""The largest labels file (with its journal) this program reads at all."""
READ_BUDGET = 64 << 20
"""The most bytes of another reviewer's labels read in one session: about 400,000 labels."""
CACHE_BYTES = 160 << 20


@record
class LabelFile:
    """One labels file as read.

    Attributes:
        path: the file.
        key: what it was read at (``lstat`` key; a format-1 file's also its journal's inode and size).
        reviewer: the name in the file ("" when it could not be read).
        run: a format-2 file's run ("" for format 1).
        entries: label tables by failure, in file order (two for one failure are both here).
        notes: note-only entries by failure.
        problems: what could not be read, one sentence each without the path ("is not valid TOML...",
            "[[label]] 3 (run r1, check heldout:T1) has no verdict this program knows",
            "alice.journal line 4 is not JSON: that decision was not read").
        newer: written by a newer program.
        old: format 1.
        size: bytes read.
    """

    path: Path
    key: tuple[int, ...]
    reviewer: str = ""
    run: str = ""
    entries: dict[Key, tuple[Label, ...]] = field(default_factory=dict)
    notes: dict[Key, Note] = field(default_factory=dict)
    problems: tuple[str, ...] = ()
    newer: bool = False
    old: bool = False
    size: int = 0

    @property
    def labels(self) -> list[Label]:
        """Every label table read, duplicates included."""
        return [lab for labs in self.entries.values() for lab in labs]

    @property
    def issues(self) -> tuple[str, ...]:
        """Its problems, and that a newer program wrote it (this one may not read all of it)."""
        return (*self.problems, NEWER) if self.newer else self.problems

    @property
    def writable(self) -> bool:
        """Nothing in it was left out and no newer program wrote it: it may be written over."""
        return not self.problems and not self.newer


def from_contents(path: Path, key: tuple[int, ...], got: Contents, old: bool, size: int) -> LabelFile:
    """A LabelFile of parsed contents."""
    entries: dict[Key, tuple[Label, ...]] = {}
    for lab in got.labels:
        k = (lab.run, lab.check)
        entries[k] = (*entries[k], lab) if k in entries else (lab,)
    return LabelFile(path, key, got.reviewer, got.run, entries, {(n.run, n.check): n for n in got.notes}, got.damage,
                     got.newer, old, size)


CACHE: OrderedDict[str, LabelFile] = OrderedDict()
CACHED_BYTES = 0
"""The sizes of the files in CACHE, added up."""
LOCK = threading.Lock()
FORGET: list[Callable[[], None]] = []
"""What else to forget with the cache (readers built on it register here)."""


def remember(made: LabelFile) -> LabelFile:
    """Keep a file as read (least recently read out first past CACHE_BYTES)."""
    global CACHED_BYTES
    with LOCK:
        key = str(made.path)
        last = CACHE.pop(key, None)
        CACHED_BYTES += made.size - (last.size if last is not None else 0)
        CACHE[key] = made
        while len(CACHE) > 1 and CACHED_BYTES > CACHE_BYTES:
            CACHED_BYTES -= CACHE.popitem(last=False)[1].size
    return made


def cached(path: Path, key: tuple[int, ...]) -> LabelFile | None:
    """The file as last read, when it is unchanged."""
    with LOCK:
        hit = CACHE.get(str(path))
    return hit if hit is not None and hit.key == key else None


def clear_cache() -> None:
    """Forget every file read (tests and benchmarks)."""
    global CACHED_BYTES
    with LOCK:
        CACHE.clear()
        CACHED_BYTES = 0
    GROUPS.clear()
    LOOKED.clear()
    for forget in FORGET:
        forget()


def old_key(path: Path, st: os.stat_result) -> tuple[int, ...]:
    """A format-1 file's key: its own and its journal's (inode, size; () without one)."""
    try:
        jst = os.lstat(journal_path(path))
        journal: tuple[int, ...] = (jst.st_ino, jst.st_size)
    except FileNotFoundError:
        journal = ()
    except OSError:
        journal = (-1,)
    return (*stat_key(st), *journal)


def read_file(path: Path, session: str, fallback_reviewer: str, old: bool = False, cap: int = FILE_CAP,
              index: RunIndex | None = None, st: os.stat_result | None = None) -> LabelFile | None:
    """A labels file (format 2, or ``old``: format 1 with its journal applied); None when absent.

    Never raises for what the file holds or how it fails to be read: that is in ``problems``.
    ``index`` (the folder's index cache) gives an unchanged format-2 file without parsing it;
    ``st``: its ``lstat`` taken just before, when the caller has one.
    """
    if st is None:
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return None
        except OSError as exc:
            return LabelFile(path, (), problems=(f"cannot be read: {exc.strerror or exc}",))
    if not stat.S_ISREG(st.st_mode):
        what = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a regular file"
        return LabelFile(path, (), problems=(f"is {what}; labels are never read or written through it",))
    key = old_key(path, st) if old else stat_key(st)
    hit = cached(path, key)
    if hit is not None:
        if index is not None and not old and not index.label_files.has(path, key):
            keep_in(index, hit)
        return hit
    if index is not None and not old:
        found = index.label_files.get(path, key, session)
        if found is not None and found[1]:
            labels = found[1]
            return remember(from_contents(path, key, Contents(found[0], labels[0].run, labels), False, st.st_size))
    try:
        if old:
            got, _ = read_old_file(path, session, fallback_reviewer, cap)
        else:
            data = read_bytes(path, cap)
            if data is None:
                return None
            got = parse(data, session, fallback_reviewer)
    except FileNotFoundError:
        return None
    except Unreadable as exc:
        return remember(LabelFile(path, key, problems=(str(exc),), size=st.st_size))
    except OSError as exc:
        return LabelFile(path, key, problems=(f"cannot be read: {exc.strerror or exc}",))
    made = remember(from_contents(path, key, got, old, st.st_size))
    if index is not None and not old:
        keep_in(index, made)
    return made


def keep_in(index: RunIndex, made: LabelFile) -> None:
    """Remember a format-2 file in the index cache when it holds labels alone, read whole (the
    cache keeps no notes, adjudication fields or damage)."""
    labels = made.labels
    if made.writable and labels and not made.notes and not any(lab.adjudicator or lab.settled for lab in labels):
        index.label_files.remember(made.path, made.key, made.reviewer, tuple(labels))


def distinct(labels: Iterable[Label]) -> tuple[Label, ...]:
    """Labels of one failure without repeats, the one in force first: the newest by ``labelled_at``
    (of two equally new, the one read later)."""
    if type(labels) is tuple and len(labels) == 1:
        return labels
    seen: list[Label] = []
    for lab in labels:
        if lab not in seen:
            seen.append(lab)
    if len(seen) < 2:
        return tuple(seen)
    order = sorted(range(len(seen)), key=lambda i: (seen[i].labelled_at, i), reverse=True)
    return tuple(seen[i] for i in order)


def describe_duplicate(reviewer: str, labels: tuple[Label, ...], verdicts: bool = True) -> str:
    """``alice has 2 labels on s/r#c: specification (2026-11-29T12:00:00Z, in force), capability (...)``
    (without ``verdicts``: only their times, for a reader that must not show another reviewer's verdicts)."""
    first = labels[0]
    listed = ", ".join(f"{lab.verdict.value + ' ' if verdicts else ''}({lab.labelled_at or 'no time'}"
                       f"{', in force' if n == 0 else ''})" for n, lab in enumerate(labels))
    return (f"{reviewer or 'a reviewer'} has {len(labels)} labels on "
            f"{failure_id(first.session, first.run, first.check)}: {listed}; the newest is in force and all are kept "
            "until one is chosen (label the failure again)")


@record(frozen=False)
class ReviewerLabels:
    """One reviewer's labels in one session, read only: every file of theirs there, merged.

    Attributes:
        session: the session.
        stem: the reviewer's folder name ("" for a refused labels folder).
        reviewer: the name in their files ("" when none could be read).
        files: the files read, by path (format-2 run files, a format-1 file with its journal).
        entries: every distinct label per failure, the one in force first.
        notes: note-only entries by failure (the newest where two files hold one).
        refused: what was not read at all, (path, reason) each (a link, over the budget).
    """

    session: str
    stem: str
    reviewer: str = ""
    files: dict[str, LabelFile] = field(default_factory=dict)
    entries: dict[Key, tuple[Label, ...]] = field(default_factory=dict)
    notes: dict[Key, Note] = field(default_factory=dict)
    refused: tuple[tuple[str, str], ...] = ()
    in_force: tuple[Label, ...] | None = None

    @property
    def labels(self) -> tuple[Label, ...]:
        """The label in force on each failure."""
        if self.in_force is None:
            self.in_force = tuple(labs[0] for labs in self.entries.values())
        return self.in_force

    def duplicates(self) -> dict[Key, tuple[Label, ...]]:
        """Failures with two or more labels (newest first)."""
        return {k: labs for k, labs in self.entries.items() if len(labs) > 1}

    def issues(self) -> list[LoadError]:
        """What is wrong, as (path, reason): every refusal, every file problem, every duplicate."""
        out = [LoadError(where, why) for where, why in self.refused]
        out += [LoadError(str(f.path), p) for f in self.files.values() for p in f.issues]
        out += [LoadError(str(holder(self.files.values(), labs[0])), describe_duplicate(self.reviewer, labs, verdicts=False))
                for labs in self.duplicates().values()]
        return out

    @property
    def problems(self) -> tuple[str, ...]:
        """What is wrong, "path: reason" each (see :meth:`issues`)."""
        return tuple(f"{e.path}: {e.reason}" for e in self.issues())


def holder(files: Iterable[LabelFile | None], lab: Label) -> Path | str:
    """The file holding a label: its run's file when that holds one, else the format-1 file."""
    key = (lab.run, lab.check)
    found = [f for f in files if f is not None and key in f.entries]
    runs = [f.path for f in found if not f.old]
    return runs[-1] if runs else found[-1].path if found else lab.session


def merge(files: Iterable[LabelFile]) -> tuple[dict[Key, tuple[Label, ...]], dict[Key, Note]]:
    """Every distinct label per failure of these files, and the newest note entry per failure."""
    gathered: dict[Key, list[Label]] = {}
    notes: dict[Key, Note] = {}
    for f in files:
        for k, labs in f.entries.items():
            gathered.setdefault(k, []).extend(labs)
        for k, n in f.notes.items():
            seen = notes.get(k)
            if seen is None or n.noted_at >= seen.noted_at:
                notes[k] = n
    return {k: distinct(labs) for k, labs in gathered.items()}, notes


def regroup(last: ReviewerLabels, files: dict[str, LabelFile]) -> ReviewerLabels:
    """The group of these files, built from ``last`` (same session and stem) by the files that changed."""
    changed = {p for p in last.files.keys() | files.keys() if last.files.get(p) is not files.get(p)}
    if not changed:
        return last
    if any((f.old or not f.run) for p in changed for f in (last.files.get(p), files.get(p)) if f is not None) \
            or len(changed) > 64:
        entries, notes = merge(files.values())
    else:
        entries, notes = dict(last.entries), dict(last.notes)
        runs = {f.run for p in changed for f in (last.files.get(p), files.get(p)) if f is not None}
        holders = [f for f in files.values() if f.old or f.run in runs]
        fresh_entries, fresh_notes = merge(holders)
        for k in [k for k in entries if k[0] in runs]:
            del entries[k]
        for k in [k for k in notes if k[0] in runs]:
            del notes[k]
        entries.update((k, v) for k, v in fresh_entries.items() if k[0] in runs)
        notes.update((k, v) for k, v in fresh_notes.items() if k[0] in runs)
    reviewer = next((f.reviewer for f in files.values() if f.reviewer), last.reviewer)
    return ReviewerLabels(last.session, last.stem, reviewer, dict(files), entries, notes, last.refused)


GROUPS: dict[tuple[str, str, str], ReviewerLabels] = {}
"""The last group made per (labels folders, session, stem): an unchanged reviewer gives the same object."""
LOOKED: dict[tuple[str, str, str], tuple[object, ...]] = {}
"""What the folders and format-1 files were when each group was made (see :func:`looked_at`)."""
GROUPS_LOCK = threading.Lock()


def looked_at(places: list[tuple[Path | None, Path | None]]) -> tuple[object, ...] | None:
    """What says a reviewer's files are unchanged: each format-1 file's key (with its journal's) and
    each folder's; None when a folder changed less than two seconds ago (a change within the same
    clock tick would not show) or cannot be looked at."""
    now = time.time_ns()
    out: list[object] = []
    for old_file, folder in places:
        if old_file is not None:
            try:
                out.append(old_key(old_file, os.lstat(old_file)))
            except OSError:
                return None
        if folder is not None:
            key = folder_key(folder)
            if key is None or now - max(key[1], key[2]) < SETTLED_NS:
                return None
            out.append(key)
    return tuple(out)


SETTLED_NS = 2_000_000_000


def group_of(session: str, stem: str, places: list[tuple[Path | None, Path | None]], fallback_reviewer: str,
             budget: int | None, index: RunIndex | None = None) -> ReviewerLabels:
    """One reviewer's files in one session (``places``: their format-1 file and format-2 folder in
    each labels folder), read and merged; over ``budget`` bytes, not read.

    When no folder changed (no file created, renamed or removed in it: how git and reviewer write)
    and no format-1 file either, the last group is given again without listing its files; a file
    rewritten in place is seen at the next change of its folder.
    """
    key = ("\0".join(str(p) for p in places), session, stem)
    seen = looked_at(places)
    with GROUPS_LOCK:
        last = GROUPS.get(key)
        if last is not None and seen is not None and LOOKED.get(key) == seen and not last.refused:
            return last
    paths: list[tuple[Path, bool, os.stat_result | None]] = []
    total = 0
    for old_file, folder in places:
        for p, is_old in ([(old_file, True)] if old_file is not None else []) + (
                [(p, False) for p in run_files(folder)] if folder is not None else []):
            try:
                st: os.stat_result | None = os.lstat(p)
            except FileNotFoundError:
                continue
            except OSError:
                st = None
            paths.append((p, is_old, st))
            total += (st.st_size if st is not None else 0) + (size_of(journal_path(p)) if is_old else 0)
    if budget is not None:
        if total > budget:
            where = places[0][1] or places[0][0]
            return ReviewerLabels(session, stem, refused=((
                str(where), f"{stem}'s labels are {total / 1e6:.0f} MB, over the {budget >> 20} MiB budget for reading "
                "another reviewer's labels: not read (their labels are left out here)"),))
    files: dict[str, LabelFile] = {}
    for p, is_old, st in paths:
        got = read_file(p, session, fallback_reviewer, old=is_old, index=index, st=st)
        if got is not None:
            files[str(p)] = got
    made = regroup(last or ReviewerLabels(session, stem), files)
    with GROUPS_LOCK:
        GROUPS[key] = made
        if seen is not None:
            LOOKED[key] = seen
        else:
            LOOKED.pop(key, None)
    return made


def size_of(path: Path) -> int:
    """Bytes of a file by ``lstat`` (0 when absent)."""
    try:
        return os.lstat(path).st_size
    except OSError:
        return 0


def read_all_labels(root: Path, sessions: list[str], budget: int | None = READ_BUDGET,
                    index: RunIndex | None = None) -> list[ReviewerLabels]:
    """Every reviewer's labels in the sessions, one :class:`ReviewerLabels` per reviewer and session.

    A labels folder or a reviewer's folder reached through a link, and a reviewer over ``budget``
    (None: no budget), come back as a group with ``refused`` set and no labels.
    """
    out: list[ReviewerLabels] = []
    refused: list[tuple[Path, str]] = []
    by_session: dict[str, dict[str, list[tuple[Path | None, Path | None]]]] = {}
    for session, folder in label_dirs(Path(root), sessions, refused):
        for stem, place in sorted(reviewer_entries(folder, refused).items()):
            by_session.setdefault(session, {}).setdefault(stem, []).append(place)
    out += [ReviewerLabels("", "", refused=((str(where), why),)) for where, why in refused]
    for session in sessions:
        for stem, places in sorted(by_session.get(session, {}).items()):
            out.append(group_of(session, stem, places, stem, budget, index))
    return out


def read_adjudications_of(root: Path, sessions: list[str]) -> list[ReviewerLabels]:
    """The adjudications of each session (``_adjudicated/`` and ``_adjudicated.toml``), one group a session."""
    out = []
    for session, folder in label_dirs(Path(root), sessions):
        old, new = folder / ADJUDICATED_FILE, folder / ADJUDICATED
        places = [(old if os.path.lexists(old) else None, new if new.is_dir() and not new.is_symlink() else None)]
        if places[0] != (None, None):
            out.append(group_of(session, ADJUDICATED, places, FINAL, None))
    return out


def problems(groups: Iterable[ReviewerLabels]) -> list[LoadError]:
    """Every problem of these groups as load errors (path, reason): damage, refusals, duplicates."""
    return [e for g in groups for e in g.issues()]
