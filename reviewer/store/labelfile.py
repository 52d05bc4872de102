"""One reviewer's labels for one session: a deterministic TOML file (and, when it is big, its journal).

A decision costs the same whatever the file holds: a file under ``JOURNAL_FROM`` bytes is
rewritten whole (temp file, fsync, rename); a bigger one takes it as one line appended to its
journal (:mod:`reviewer.store.labeljournal`), folded into the TOML at a load with a long journal,
before a commit and after an outside change. Every save happens under the folder's lock and reads
only what changed: the TOML when its stat changed, the journal from where it was last read.
Note-only entries (a note on a failure with no verdict) travel in the same file, journal and saves.
"""

from __future__ import annotations

import os
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from reviewer.model.label import Label, Note
from reviewer.model.records import record
from reviewer.store import labeljournal as jr
from reviewer.store import labelown as own
from reviewer.store import labelread
from reviewer.store.atomic import atomic_write, clean_stale_temps, folder_lock
from reviewer.store.index_files import stat_key
from reviewer.store.labelcodec import Entry, Key, Parsed, label_from_table, labels_to_bytes, parse_labels
from reviewer.store.labelown import LABEL_FILE_CAP, LabelsUnsafe
from reviewer.store.nofollow import LinkOnPath, check_dir, make_folder

if TYPE_CHECKING:
    from reviewer.store.index import RunIndex

__all__ = ["LABEL_FILE_CAP", "Entry", "Key", "LabelFile", "LabelsUnsafe", "Parsed", "label_from_table",
           "labels_to_bytes", "parse_labels"]  # labelcodec's names too: callers import them from here


@record(frozen=False)
class LabelFile:
    """The labels of one reviewer in one session, as on disk plus pending changes.

    Every change is saved at once. When the file cannot be read (damaged, conflict markers, a
    newer format, a damaged journal), it is never written: changes stay pending in memory and
    ``error`` says why.

    Each save brings the view up to date with the disk first: what others changed is kept, except
    that a decision made through this object (``mine``) that an outside change removed, or
    replaced by an older label (a ``git checkout`` of an older file, ``git stash``), is written
    back, and ``restored`` names it until :meth:`take_restored` is called.

    Note-only entries (``notes``) travel in the same file, journal and saves; they are never
    labels (:meth:`get`, :meth:`view` and :meth:`run_labels` do not see them).
    """

    path: Path
    session: str
    reviewer: str
    labels: dict[Key, Label] = field(default_factory=dict)
    pending: list[tuple[Key, Entry]] = field(default_factory=list)
    error: str = ""
    mine: dict[Key, Label | None] = field(default_factory=dict)
    restored: list[Key] = field(default_factory=list)
    index: "RunIndex | None" = None
    """The folder's index cache: an unchanged file is taken from it instead of parsed again."""
    base: Path | None = None
    """The trusted root the file's ``<session>/labels`` folder is made in (default: the folder
    above ``<session>``): a link below it is never followed, for reading or writing."""
    toml_key: tuple[int, ...] | None = None
    """The TOML file's stat key as last read or written (None: absent)."""
    toml_size: int = 0
    journal_at: tuple[int, int] | None = None
    """The journal's (inode, end offset) as last read or written (None: no journal)."""
    journal_size: int = 0
    """The journal's size as last seen (past ``journal_at``'s end when a crash cut its last line short)."""
    journal_base: jr.Stamp | None = None
    journal_lines: int = 0
    outside: bool = False
    """The TOML changed since the journal began: the next save folds."""
    by_run: dict[str, set[str]] | None = None
    """The checks labelled per run, built on first use and kept up to date by every change."""
    notes: dict[Key, Note] = field(default_factory=dict)
    """Note-only entries as on disk (the TOML's and the journal's), like ``labels``."""

    @property
    def trusted(self) -> Path:
        """The root below which no link is followed."""
        return self.base if self.base is not None else self.path.parents[2]

    @property
    def journal(self) -> Path:
        """The journal beside the TOML file."""
        return jr.journal_path(self.path)

    def link_problem(self) -> str:
        """Why the file's folder must not be used ("" when it is a real folder or absent)."""
        rel = self.path.parent.relative_to(self.trusted).as_posix()
        try:
            check_dir(self.trusted, rel)
        except LinkOnPath as exc:
            return f"{exc}; labels are neither read nor written there"
        except OSError:
            return ""
        return ""

    def load(self) -> None:
        """Read the file and its journal (absent = no labels yet), cleaning stale temp files first.

        A long journal, or one whose TOML changed since it began, is folded into the TOML.
        """
        problem = self.link_problem()
        if problem:
            self.labels, self.notes, self.error, self.by_run = {}, {}, problem, None
            return
        folder = self.path.parent
        if not folder.is_dir():
            self.labels, self.notes, self.error, self.toml_key, self.journal_at, self.by_run = {}, {}, "", None, None, None
            return
        try:
            with folder_lock(folder):
                clean_stale_temps(folder)
                self.error = self.read_all()
                if not self.error and self.journal_at and (self.outside or self.journal_lines >= jr.FOLD_RECORDS
                                                           or self.toml_size < jr.JOURNAL_FROM):
                    self.write_toml(self.labels, self.notes)
        except OSError:
            self.error = self.error or self.read_all()

    # ---- reading -----------------------------------------------------------------------------

    def read_all(self) -> str:
        """Read the TOML and the whole journal into ``labels`` and ``notes``; an error text ("" when usable)."""
        toml, toml_notes, error = self.read_toml()
        self.by_run = None
        if error:
            self.labels, self.notes = toml, toml_notes
            return error
        try:
            got = jr.read_journal(self.journal, self.session, self.reviewer)
        except (jr.JournalDamaged, OSError) as exc:
            self.labels, self.notes = toml, toml_notes
            return f"{self.journal.name} {exc}; it is not written over until it is repaired"
        labels, notes = dict(toml), dict(toml_notes)
        self.journal_at, self.journal_base, self.journal_lines, self.outside = None, None, 0, False
        if got is not None:
            self.journal_at, self.journal_base, self.journal_lines = (got.ino, got.end), got.base, len(got.records)
            self.journal_size = got.size
            self.outside = got.base != self.toml_stamp()
            jr.apply(labels, notes, got.records, (toml, toml_notes) if self.outside else None)
            if got.newer:
                self.labels, self.notes = labels, notes
                return f"{self.journal.name} was written by a newer reviewer; read only"
        self.labels, self.notes, self.by_run = labels, notes, None
        return ""

    def toml_stamp(self) -> jr.Stamp | None:
        """The stamp of the TOML file as last read or written."""
        k = self.toml_key
        return None if k is None else (k[3], k[0], k[1])

    def read_toml(self) -> tuple[dict[Key, Label], dict[Key, Note], str]:
        """The TOML file's labels, note entries and an error text; sets ``toml_key`` and ``toml_size``."""
        got = own.read_own_toml(self.path, self.session, self.reviewer, self.index)
        if got.key is not None or not got.error:
            self.toml_key, self.toml_size = got.key, got.size
        return got.labels, got.notes, got.error

    def catch_up(self) -> bool:
        """Under the lock: bring ``labels`` up to date with the disk; True when someone else changed it.

        Reads the journal's new lines only, unless the TOML changed or the journal was replaced.
        Raises LabelsUnsafe when the file cannot be used now.
        """
        try:
            st = os.lstat(self.path)
            key: tuple[int, ...] | None = stat_key(st)
        except FileNotFoundError:
            key = None
        except OSError:
            key = ()
        try:
            jst = os.lstat(self.journal)
            jnow: tuple[int, int] | None = (jst.st_ino, jst.st_size)
        except FileNotFoundError:
            jnow = None
        except OSError:
            jnow = (-1, -1)
        at = self.journal_at
        if not self.error and key == self.toml_key and (jnow is None) == (at is None) and (at is None or (jnow and jnow[0] == at[0]
                                                                                       and jnow[1] >= at[1])):
            if at is None or jnow is None or jnow[1] == at[1]:
                return False
            try:
                got = jr.read_journal(self.journal, self.session, self.reviewer, start=at[1])
            except (jr.JournalDamaged, OSError) as exc:
                self.error = f"{self.journal.name} {exc}; it is not written over until it is repaired"
                raise LabelsUnsafe(self.error) from None
            if got is not None and got.ino == at[0]:
                jr.apply(self.labels, self.notes, got.records)
                self.touch(rec.key for rec in got.records)
                self.journal_at, self.journal_lines = (got.ino, got.end), self.journal_lines + len(got.records)
                self.journal_size = got.size
                return bool(got.records)
        error = self.read_all()
        if error:
            self.error = error
            raise LabelsUnsafe(error)
        return True

    # ---- the view ----------------------------------------------------------------------------

    def get(self, run: str, check: str) -> Label | None:
        """This reviewer's label on a failure, pending changes included."""
        decided, lab = own.pending_label(self.pending, (run, check))
        return lab if decided else self.labels.get((run, check))

    def note(self, run: str, check: str) -> Note | None:
        """This reviewer's note-only entry on a failure, pending changes included."""
        decided, note = own.pending_note(self.pending, (run, check))
        return note if decided else self.notes.get((run, check))

    def notes_view(self) -> dict[Key, Note]:
        """All note-only entries, pending changes applied."""
        notes = dict(self.notes)
        own.apply_entries({}, notes, self.pending)
        return notes

    def touch(self, keys: Iterable[Key]) -> None:
        """Keep the per-run index up to date after ``labels`` changed at ``keys``."""
        if self.by_run is not None:
            own.touch(self.by_run, self.labels, keys)

    def run_labels(self, run: str) -> dict[str, Label]:
        """This reviewer's labels on one run's checks, pending changes included (no walk over the file)."""
        if self.by_run is None:
            self.by_run = own.index_runs(self.labels)
        return own.labels_of_run(self.by_run, self.labels, self.pending, run)

    def view(self) -> dict[Key, Label]:
        """All labels, pending changes applied."""
        view = dict(self.labels)
        if self.pending:
            own.apply_entries(view, {}, self.pending)
        return view

    # ---- writing -----------------------------------------------------------------------------

    def change(self, run: str, check: str, label: Entry) -> None:
        """Set (or with None, clear) one label, or set a note-only entry (an empty one removes it), and save at once.

        Raises:
            LabelsUnsafe or OSError: not saved; the change is kept pending in memory.
        """
        self.change_many([((run, check), label)])

    def change_many(self, changes: list[tuple[Key, Entry]]) -> None:
        """Apply several changes as one decision, written in one atomic replace or one journal append."""
        self.pending.extend(changes)
        self.flush()

    def flush(self) -> None:
        """Merge pending changes into what is on disk now, and write."""
        if self.pending:
            self.merge_and_write()

    def resync(self) -> bool:
        """After an outside change to the file: catch up with it and write back decisions of ours it lost.

        Returns True when the file had changed since it was last read or written.

        Raises:
            LabelsUnsafe or OSError: the file cannot be read or written now (``error`` says why).
        """
        if not self.changed_on_disk():
            return False
        self.merge_and_write()
        return True

    def merge_and_write(self) -> None:
        """Under the folder lock: catch up with the disk, re-apply lost decisions and pending ones, write.

        The folder is made from the trusted root down without following a link
        (:class:`~reviewer.store.nofollow.LinkOnPath` when one is on the way: nothing is written).
        """
        folder = self.path.parent
        make_folder(self.trusted, folder)
        with folder_lock(folder):
            self.catch_up()
            if self.error:
                self.error = ""
            restored = self.reapply(self.labels)
            changes = [(k, self.labels[k]) for k in restored] + list(self.pending)
            if changes or (self.outside and self.journal_at is not None):  # an outside change folds at once
                self.save(changes)
        self.mine.update((k, e) for k, e in self.pending if not isinstance(e, Note))
        self.restored += [k for k in restored if k not in self.restored]
        self.pending.clear()
        self.error = ""

    def save(self, changes: list[tuple[Key, Entry]]) -> None:
        """Write the changes: a journal line each (a big TOML file), or the whole TOML.

        On failure nothing in memory claims to be on disk: the next save reads the disk again.
        """
        try:
            if self.toml_key is None or self.toml_size < jr.JOURNAL_FROM or self.outside:
                merged, notes = dict(self.labels), dict(self.notes)
                own.apply_entries(merged, notes, changes)
                self.write_toml(merged, notes)
                self.labels, self.notes = merged, notes
                self.touch(k for k, _ in changes)
                return
            changes = own.effective(self.notes, changes)  # clearing a label also clears a note entry, if any
            if not changes:
                return
            at = own.now()
            lines = b"".join(jr.record_line(key, lab, at) for key, lab in changes)
            header = jr.header_line(self.session, self.reviewer, self.toml_stamp())
            ino, end = jr.append(self.journal, lines, header)
        except BaseException:
            self.toml_key = (-1,)
            raise
        if self.journal_at is None:
            self.journal_base = self.toml_stamp()
        self.journal_at, self.journal_size, self.journal_lines = (ino, end), end, self.journal_lines + len(changes)
        own.apply_entries(self.labels, self.notes, changes)
        self.touch(k for k, _ in changes)

    def write_toml(self, labels: dict[Key, Label], notes: dict[Key, Note]) -> None:
        """Under the lock: the whole TOML atomically from ``labels`` and ``notes``, then the journal
        folded in is removed."""
        atomic_write(self.path, labels_to_bytes(self.session, self.reviewer, labels, notes))
        st = os.lstat(self.path)
        self.toml_key, self.toml_size = stat_key(st), st.st_size
        if st.st_size >= jr.JOURNAL_FROM:  # a big file: its readers take these labels instead of parsing it again
            labelread.remember_toml(self.path, self.toml_key, Parsed(self.reviewer, dict(labels), False, dict(notes)),
                                    st.st_size)
        if self.journal_at is not None or os.path.lexists(self.journal):
            jr.remove(self.journal)
        self.journal_at, self.journal_base, self.journal_lines, self.outside = None, None, 0, False
        self.journal_size = 0

    def fold(self) -> None:
        """Fold the journal into the TOML now (before a commit); nothing to do without one.

        Raises:
            LabelsUnsafe or OSError: not folded (the file or the journal cannot be used).
        """
        folder = self.path.parent
        if not os.path.lexists(self.journal):
            return
        make_folder(self.trusted, folder)
        with folder_lock(folder):
            self.catch_up()
            if self.error:
                raise LabelsUnsafe(self.error)
            if self.journal_at is not None:
                self.write_toml(dict(self.labels), dict(self.notes))

    def reapply(self, disk: dict[Key, Label]) -> list[Key]:
        """Put back into ``disk`` this object's decisions that an outside change lost; their keys.

        A label of ours missing from disk, or replaced by a label decided earlier than ours, was
        lost by the outside change; a later label on disk (another instance) wins.
        """
        restored = own.restore_mine(self.mine, self.pending, disk)
        if disk is self.labels:
            self.touch(restored)
        return restored

    def take_restored(self) -> list[Key]:
        """The decisions the saves since the last call wrote back (and forget them)."""
        restored, self.restored = self.restored, []
        return restored

    def changed_on_disk(self) -> bool:
        """True when the TOML's stat or the journal's length differs from what was last read or written."""
        try:
            key: tuple[int, ...] | None = stat_key(os.lstat(self.path))
        except FileNotFoundError:
            key = None
        except OSError:
            return True
        try:
            jst = os.lstat(self.journal)
            jnow: tuple[int, int] | None = (jst.st_ino, jst.st_size)
        except OSError:
            jnow = None
        seen = None if self.journal_at is None else (self.journal_at[0], self.journal_size)
        return key != self.toml_key or jnow != seen

    def refresh(self) -> None:
        """Re-read after an outside change (git pull, another instance); pending stays."""
        self.error = self.read_all()
        self.by_run = None
