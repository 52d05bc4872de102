"""The journal beside a big labels file: decisions appended one line each, folded into the TOML later.

Rewriting a labels file of 200,000 labels (30 MB) for every decision takes seconds. Once the
file is over :data:`JOURNAL_FROM` bytes, a decision is appended instead to
``<session>/labels/<reviewer>.journal``: one JSON object per line, keys sorted, readable and
diffable. The first line says what the journal belongs to::

    {"base":[1234,30123456,1700000000000000000],"journal":1,"reviewer":"alice","session":"s1"}
    {"check":"heldout:T1","evidence":"sha256:...","labelled_at":"2026-11-29T12:00:00Z","note":"","run":"r1","tags":[],"verdict":"capability"}
    {"check":"heldout:T2","clear":true,"labelled_at":"2026-11-29T12:00:05Z","run":"r1"}

A line is a label (the fields of a ``[[label]]`` table), the removal of one (``clear``), a
note-only entry (the fields of a ``[[note]]`` table and ``"entry":"note"``) or the removal of one
(``"clear":true,"entry":"note"``); later lines win, and a label takes the failure's note entry
away, as in the TOML::

    {"check":"heldout:T3","entry":"note","evidence":"sha256:...","note":"wants yes","noted_at":"2026-11-29T12:00:09Z","run":"r1","tags":[]}
    {"check":"heldout:T3","clear":true,"entry":"note","noted_at":"2026-11-29T12:00:12Z","run":"r1"}
 ``base`` is the TOML file's inode, size and mtime when the journal was started: while
the file is still that one, the journal simply applies on top of it; when it changed since (a
``git pull``, a ``git checkout`` of an older file), a journal line wins only over an older label
(by ``labelled_at``, or a note's ``noted_at``), and the next save folds the two into the TOML at once. A fold (at load
when the journal is long, before a commit, after an outside change) writes the TOML atomically
and then removes the journal, so a crash in between leaves the same labels twice, never none.

Every append is one ``write`` of whole lines followed by ``fsync``; a line cut short by a crash
(no newline at the end of the file) was never acknowledged: readers ignore it and the next
writer cuts it off before appending. Any other line that is not a journal line makes the
journal damaged: it is reported and never written to, like a damaged TOML file.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
from dataclasses import field
from pathlib import Path
from typing import Any

from reviewer.model.label import Label, Note, Verdict
from reviewer.model.records import record
from reviewer.store.atomic import fsync_dir
from reviewer.store.labelcodec import (
    Entry,
    Key,
    dumps_line,
    journal_json,
    label_from_table,
    note_from_table,
    note_json,
)

JOURNAL_FORMAT = 1
SUFFIX = ".journal"
JOURNAL_FROM = int(os.environ.get("REVIEWER_JOURNAL_FROM", str(1 << 20)) or 0)
"""Labels files from this many bytes up take decisions in a journal (``REVIEWER_JOURNAL_FROM``
overrides it; 0: always)."""
FOLD_RECORDS = 2_000
"""A journal of this many lines is folded into the TOML when the file is next loaded."""
TAIL_CHUNK = 1 << 16

Stamp = tuple[int, int, int]


class JournalDamaged(ValueError):
    """A journal line that is neither a label, a note entry nor a removal; nothing is written to the journal."""


def journal_path(toml_path: Path) -> Path:
    """``<reviewer>.journal`` beside ``<reviewer>.toml``."""
    return toml_path.with_suffix(SUFFIX)


def stamp(st: os.stat_result | None) -> Stamp | None:
    """What identifies a TOML file's version for its journal: inode, size, mtime."""
    return None if st is None else (st.st_ino, st.st_size, st.st_mtime_ns)


@record
class Record:
    """One journal line: what ``key`` holds from ``at`` on.

    ``entry`` is a label, None (the label removed) or a note-only entry (an empty one: the note
    entry removed), as in :func:`reviewer.store.labelown.apply_entries`.
    """

    key: Key
    entry: Entry
    at: str


@record(frozen=False)
class JournalRead:
    """What was read from a journal: its header (when read from the start), lines, where reading stopped."""

    base: Stamp | None = None
    newer: bool = False
    records: list[Record] = field(default_factory=list)
    end: int = 0
    ino: int = 0
    size: int = 0


def header_line(session: str, reviewer: str, base: Stamp | None) -> bytes:
    """The first line of a new journal."""
    return dumps_line({"base": list(base) if base else None, "journal": JOURNAL_FORMAT, "reviewer": reviewer,
                       "session": session})


def record_line(key: Key, entry: Entry, at: str) -> bytes:
    """The line for setting (``entry``) or removing a label, or setting or removing (empty) a note entry."""
    if isinstance(entry, Note):
        if entry.empty:
            return dumps_line({"check": key[1], "clear": True, "entry": "note", "noted_at": entry.noted_at or at,
                               "run": key[0]})
        return dumps_line(note_json(entry))
    if entry is not None:
        return dumps_line(journal_json(entry))
    return dumps_line({"check": key[1], "clear": True, "labelled_at": at, "run": key[0]})


def parse_header(doc: Any, session: str, reviewer: str) -> tuple[Stamp | None, bool]:
    """(base stamp, written by a newer version) of a header line; JournalDamaged when it is not one."""
    if not isinstance(doc, dict) or not isinstance(doc.get("journal"), int) or isinstance(doc.get("journal"), bool):
        raise JournalDamaged("does not start with a journal header")
    base = doc.get("base")
    ok = base is None or (isinstance(base, list) and len(base) == 3 and all(type(x) is int for x in base))
    if not ok or doc.get("reviewer") != reviewer or doc.get("session") not in (session, None):
        raise JournalDamaged("has a header for another file")
    stamp_: Stamp | None = (base[0], base[1], base[2]) if base else None
    return stamp_, doc["journal"] > JOURNAL_FORMAT


def parse_record(doc: Any, session: str, reviewer: str) -> Record:
    """A label, note entry or removal line; JournalDamaged otherwise."""
    if not isinstance(doc, dict):
        raise JournalDamaged("holds a line that is not an object")
    try:
        if "entry" in doc:
            if doc["entry"] != "note":
                raise ValueError(f"names an entry of an unknown kind ({str(doc['entry'])[:40]!r})")
            if doc.get("clear") is True:
                doc = {"run": doc.get("run"), "check": doc.get("check"), "noted_at": doc.get("noted_at", "")}
            n = note_from_table(doc, session, reviewer)
            return Record((n.run, n.check), n, n.noted_at)
        if doc.get("clear") is True:
            run, check, at = doc.get("run"), doc.get("check"), doc.get("labelled_at", "")
            if not (isinstance(run, str) and isinstance(check, str) and run and check and isinstance(at, str)):
                raise ValueError("a removal lacks `run` or `check`")
            return Record((run, check), None, at)
        lab = label_from_table(doc, session, reviewer)
    except ValueError as exc:
        raise JournalDamaged(str(exc)) from None
    return Record((lab.run, lab.check), lab, lab.labelled_at)


def read_journal(path: Path, session: str, reviewer: str, start: int = 0, cap: int = 256 << 20) -> JournalRead | None:
    """The journal's lines from byte ``start`` (its header too when 0); None when there is no journal.

    Raises:
        JournalDamaged: a complete line that cannot be read (the last line, cut short by a
            crash, is left out instead), or the journal is over ``cap`` bytes.
        OSError: it cannot be opened.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise JournalDamaged("is a symbolic link, not a regular file") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise JournalDamaged("is not a regular file")
        if st.st_size - start > cap:
            raise JournalDamaged(f"is over {cap >> 20} MiB")
        os.lseek(fd, start, os.SEEK_SET)
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        data = b"".join(chunks)
    finally:
        os.close(fd)
    got = JournalRead(ino=st.st_ino, size=st.st_size)
    complete = data[: data.rfind(b"\n") + 1]
    got.end = start + len(complete)
    for n, line in enumerate(complete.split(b"\n")[:-1]):
        try:
            doc = json.loads(line)
        except (ValueError, RecursionError):
            what = "git conflict markers" if line.startswith((b"<<<<<<<", b"=======", b">>>>>>>")) else "a line that is not JSON"
            raise JournalDamaged(f"holds {what} (line {n + 1} from byte {start})") from None
        if start == 0 and n == 0:
            got.base, got.newer = parse_header(doc, session, reviewer)
        elif not got.newer:
            got.records.append(parse_record(doc, session, reviewer))
    return got


def apply(labels: dict[Key, Label], notes: dict[Key, Note], records: list[Record],
          base: tuple[dict[Key, Label], dict[Key, Note]] | None = None) -> None:
    """Apply journal lines in order to the labels and note entries.

    With ``base`` (the TOML's labels and note entries, when it changed since the journal began) a
    line wins only over a base entry (label, else note) written earlier than it.
    """
    for rec in records:
        if base is not None:
            older: Label | Note | None = base[0].get(rec.key) or base[1].get(rec.key)
            if older is not None and (labels.get(rec.key) is older or notes.get(rec.key) is older) and (
                    (older.labelled_at if isinstance(older, Label) else older.noted_at) > rec.at):
                continue
        entry = rec.entry
        if entry is None:
            labels.pop(rec.key, None)
        elif isinstance(entry, Note):
            if entry.empty:
                notes.pop(rec.key, None)
            else:
                notes[rec.key] = entry
        else:
            labels[rec.key] = entry
            notes.pop(rec.key, None)


def append(path: Path, lines: bytes, header: bytes) -> tuple[int, int]:
    """Append whole lines durably (``header`` first when the journal is new); (inode, end offset).

    A last line cut short by a crash is cut off first. Raises OSError (nothing acknowledged).
    """
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OSError(exc.errno, f"{path.name} is a symbolic link, not a regular file; not written through") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{path.name} is not a regular file")
        size = st.st_size
        if size:
            size = cut_torn_tail(fd, size)
        data = (header if size == 0 else b"") + lines
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except BaseException:
            with contextlib.suppress(OSError):  # a partial line (disk full) would only be cut off later
                os.ftruncate(fd, size)
            raise
        created = st.st_size == 0
        ino = st.st_ino
    finally:
        os.close(fd)
    if created:
        fsync_dir(path.parent)
    return ino, size + len(data)


def cut_torn_tail(fd: int, size: int) -> int:
    """Truncate after the last newline (a line a crash cut short); the new size."""
    pos = size
    while pos > 0:
        start = max(0, pos - TAIL_CHUNK)
        chunk = os.pread(fd, pos - start, start)
        if pos == size and chunk.endswith(b"\n"):
            return size
        found = chunk.rfind(b"\n")
        if found >= 0:
            os.ftruncate(fd, start + found + 1)
            return start + found + 1
        pos = start
    os.ftruncate(fd, 0)
    return 0


def remove(path: Path) -> None:
    """Remove a folded journal (gone already is fine), durably."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        return
    fsync_dir(path.parent)


def clear_label(key: Key, at: str) -> Record:
    """A removal line's record (for callers that build records in memory)."""
    return Record(key, None, at)


def set_label(label: Label) -> Record:
    """A label line's record."""
    return Record((label.run, label.check), label, label.labelled_at)


def set_note(note: Note) -> Record:
    """A note entry line's record (an empty note: its removal)."""
    return Record((note.run, note.check), note, note.noted_at)


__all__ = ["JOURNAL_FROM", "FOLD_RECORDS", "JournalDamaged", "Record", "Verdict", "append", "apply", "journal_path",
           "read_journal", "record_line", "header_line", "remove", "stamp"]
