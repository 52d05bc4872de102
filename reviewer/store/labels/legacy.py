"""The format-1 layout, read so that people's repositories keep working: ``<session>/labels/<reviewer>.toml``
and the journal a big one had beside it, ``<reviewer>.journal``.

Nothing writes this layout any more: a reviewer's next decision in a session moves the file's
labels into format 2 (:mod:`reviewer.store.labels.store`), then removes the file and its journal.

The journal holds one JSON object a line. The first line names the file and the TOML it extends
(``base``: inode, size and mtime of the TOML when the journal began); every other line is a label
(the fields of a ``[[label]]`` table), its removal (``"clear": true``), a note-only entry (the
fields of a ``[[note]]`` table and ``"entry": "note"``) or the removal of one. Lines apply in
order over the TOML; a label line replaces every label of its failure and takes its note entry
away. When the TOML changed since the journal began (a ``git pull``, a checkout), a line wins only
over an entry written earlier than it. A last line without its newline was cut short by a crash
and never acknowledged: it is ignored. Any other line that cannot be read is damage: it is named
(line number and why) and left out, the other lines still apply.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

from reviewer.model.label import Label, Note
from reviewer.model.records import record
from reviewer.store.labels.format import Contents, Key, Unreadable, label_from_table, note_from_table, parse

JOURNAL_FORMAT = 1
JOURNAL_SUFFIX = ".journal"

Stamp = tuple[int, int, int]


def journal_path(toml_path: Path) -> Path:
    """``<reviewer>.journal`` beside ``<reviewer>.toml``."""
    return toml_path.with_suffix(JOURNAL_SUFFIX)


@record
class Line:
    """One journal line: what ``key`` holds from ``at`` on (a label, None: no label, or a note entry;
    an empty note entry removes it)."""

    key: Key
    entry: Label | Note | None
    at: str


@record
class Journal:
    """A journal as read: the TOML it extends, written by a newer program, its lines, its damage."""

    base: Stamp | None
    newer: bool
    lines: tuple[Line, ...]
    damage: tuple[str, ...]


def read_bytes(path: Path, cap: int) -> bytes | None:
    """A regular file's bytes (at most ``cap`` + 1), never through a link; None when absent.

    Raises:
        Unreadable: a link, not a regular file, or over ``cap``.
        OSError: it cannot be read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Unreadable("is a symbolic link, not a regular file") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Unreadable("is not a regular file")
        if st.st_size > cap:
            raise Unreadable(f"is {st.st_size / 1e6:.0f} MB, over the {cap >> 20} MiB this program reads")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def parse_header(doc: Any, session: str, reviewer: str) -> tuple[Stamp | None, bool]:
    """(base stamp, written by a newer program) of a header line; Unreadable when it is not one."""
    if not isinstance(doc, dict) or not isinstance(doc.get("journal"), int) or isinstance(doc.get("journal"), bool):
        raise Unreadable("does not start with a journal header")
    base = doc.get("base")
    if not (base is None or (isinstance(base, list) and len(base) == 3 and all(type(x) is int for x in base))):
        raise Unreadable("has a header whose `base` is not the TOML's inode, size and mtime")
    if doc.get("reviewer") != reviewer or doc.get("session") not in (session, None):
        raise Unreadable("has a header for another file")
    return ((base[0], base[1], base[2]) if base else None), doc["journal"] > JOURNAL_FORMAT


def parse_line(doc: Any, session: str, reviewer: str) -> Line:
    """A label, note entry or removal line; ValueError otherwise."""
    if not isinstance(doc, dict):
        raise ValueError("is not a JSON object")
    if "entry" in doc:
        if doc["entry"] != "note":
            raise ValueError(f"names an entry of an unknown kind ({str(doc['entry'])[:40]!r})")
        if doc.get("clear") is True:
            doc = {"run": doc.get("run"), "check": doc.get("check"), "noted_at": doc.get("noted_at", "")}
        n = note_from_table(doc, session, reviewer)
        return Line((n.run, n.check), n, n.noted_at)
    if doc.get("clear") is True:
        run, check, at = doc.get("run"), doc.get("check"), doc.get("labelled_at", "")
        if not (isinstance(run, str) and isinstance(check, str) and run and check and isinstance(at, str)):
            raise ValueError("is a removal without `run` or `check`")
        return Line((run, check), None, at)
    lab = label_from_table(doc, session, reviewer)
    return Line((lab.run, lab.check), lab, lab.labelled_at)


def parse_journal(data: bytes, session: str, reviewer: str) -> Journal:
    """Every complete line of a journal; damaged lines are named and left out.

    Raises:
        Unreadable: the first line is not this file's journal header (no line can be trusted).
    """
    complete = data[: data.rfind(b"\n") + 1]  # a last line without its newline was never acknowledged
    raw = complete.split(b"\n")[:-1]
    if not raw:
        return Journal(None, False, (), ())
    try:
        head = json.loads(raw[0])
    except (ValueError, RecursionError):
        raise Unreadable("does not start with a journal header (line 1 is not JSON)") from None
    base, newer = parse_header(head, session, reviewer)
    lines: list[Line] = []
    damage: list[str] = []
    for n, text in enumerate(raw[1:], start=2):
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError):
            what = "git conflict markers" if text.startswith((b"<<<<<<<", b"=======", b">>>>>>>")) else "not JSON"
            damage.append(f"line {n} is {what}")
            continue
        if newer:
            continue
        try:
            lines.append(parse_line(doc, session, reviewer))
        except ValueError as exc:
            damage.append(f"line {n} {exc}")
    return Journal(base, newer, tuple(lines), tuple(damage))


def apply(labels: dict[Key, list[Label]], notes: dict[Key, Note], lines: tuple[Line, ...],
          base: tuple[dict[Key, list[Label]], dict[Key, Note]] | None = None) -> None:
    """Apply journal lines in order to the label entries and note entries.

    With ``base`` (the TOML's entries, when it changed since the journal began) a line wins only
    over a base entry (the newest label, else the note) written earlier than it.
    """
    for line in lines:
        key = line.key
        if base is not None:
            older_labels = base[0].get(key)
            older: Label | Note | None = max(older_labels, key=lambda lab: lab.labelled_at) if older_labels \
                else base[1].get(key)
            if older is not None and (labels.get(key) is older_labels or notes.get(key) is older) and (
                    (older.labelled_at if isinstance(older, Label) else older.noted_at) > line.at):
                continue
        entry = line.entry
        if entry is None:
            labels.pop(key, None)
        elif isinstance(entry, Note):
            if entry.empty:
                notes.pop(key, None)
            else:
                notes[key] = entry
        else:
            labels[key] = [entry]
            notes.pop(key, None)


def read_old_file(path: Path, session: str, fallback_reviewer: str, cap: int) -> tuple[Contents, tuple[int, ...]]:
    """A format-1 file with its journal applied, and the journal's (inode, size) (() when it has none).

    Damage of the TOML or of journal lines is in the contents' ``damage`` (``<name>.journal line
    4 is not JSON``), the rest read. A TOML that cannot be used at all raises, as does one over ``cap``.

    Raises:
        Unreadable: the TOML cannot be used; OSError: it cannot be read.
    """
    data = read_bytes(path, cap)
    if data is None:
        raise FileNotFoundError(errno.ENOENT, "no such file", str(path))
    toml = parse(data, session, fallback_reviewer)
    st = os.lstat(path)
    journal = journal_path(path)
    try:
        raw = read_bytes(journal, cap)
    except (Unreadable, OSError) as exc:
        reason = str(exc) if isinstance(exc, Unreadable) else (exc.strerror or str(exc))
        return (Contents(toml.reviewer, "", toml.labels, toml.notes,
                         (*toml.damage, f"{journal.name} {reason}: none of its decisions were read"), toml.newer),
                (-1, -1))
    if raw is None:
        return toml, ()
    jst = os.lstat(journal)
    try:
        got = parse_journal(raw, session, toml.reviewer)
    except Unreadable as exc:
        return (Contents(toml.reviewer, "", toml.labels, toml.notes,
                         (*toml.damage, f"{journal.name} {exc}: none of its decisions were read"), toml.newer),
                (jst.st_ino, jst.st_size))
    labels: dict[Key, list[Label]] = {}
    for lab in toml.labels:
        labels.setdefault((lab.run, lab.check), []).append(lab)
    notes = {(n.run, n.check): n for n in toml.notes}
    outside = got.base != (st.st_ino, st.st_size, st.st_mtime_ns)
    apply(labels, notes, got.lines, ({k: v for k, v in labels.items()}, dict(notes)) if outside else None)
    damage = (*toml.damage, *(f"{journal.name} {d}: that decision was not read" for d in got.damage))
    return (Contents(toml.reviewer, "", tuple(lab for entries in labels.values() for lab in entries),
                     tuple(notes.values()), damage, toml.newer or got.newer),
            (jst.st_ino, jst.st_size))
