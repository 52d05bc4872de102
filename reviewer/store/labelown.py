"""The reviewer's own labels file: reading its TOML (shared parse, index cache) and its per-run index.

Helpers of :class:`reviewer.store.labelfile.LabelFile`, kept apart so that class stays about
keeping the file and the memory in step.
"""

from __future__ import annotations

import datetime as dt
import os
import stat
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from reviewer.model.label import Label, Note
from reviewer.model.records import record
from reviewer.store import labelread
from reviewer.store.index_files import stat_key
from reviewer.store.labelcodec import Entry, Key
from reviewer.store.tomlfile import BadToml

if TYPE_CHECKING:
    from reviewer.store.index import RunIndex

LABEL_FILE_CAP = 256 << 20


class LabelsUnsafe(Exception):
    """Saving would overwrite labels that could not be read; nothing was written."""


def now() -> str:
    """Now, RFC 3339 UTC to the second (the time of a removal in the journal)."""
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@record(frozen=False)
class TomlRead:
    """A labels TOML as read: its labels and note entries (dicts of our own), an error text, its stat key and size."""

    labels: dict[Key, Label] = field(default_factory=dict)
    error: str = ""
    key: tuple[int, ...] | None = None
    size: int = 0
    notes: dict[Key, Note] = field(default_factory=dict)


def read_own_toml(path: Path, session: str, reviewer: str, index: "RunIndex | None") -> TomlRead:
    """The reviewer's TOML file: from the shared parse when unchanged, else the index cache, else parsed.

    ``key`` is None when the file is absent; an error that leaves ``key`` None (cannot stat) keeps
    the caller's last key.
    """
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return TomlRead()
    except OSError as exc:
        return TomlRead(error=f"cannot read {path.name}: {exc.strerror or exc}")
    if not stat.S_ISREG(st.st_mode):
        return TomlRead(error=f"{path.name} is not a regular file; labels are not saved over it")
    key = stat_key(st)
    shared = labelread.cached_toml(path, key)
    if shared is not None and not shared.newer:
        return TomlRead(dict(shared.labels), "", key, st.st_size, dict(shared.notes))
    cached = index.label_files.get(path, key, session) if index is not None else None
    if cached is not None and cached[0] == reviewer:  # files with note entries are never cached
        return TomlRead({(lab.run, lab.check): lab for lab in cached[1]}, "", key, st.st_size)
    try:
        parsed = labelread.parse_toml(path, key, session, path.stem, LABEL_FILE_CAP)
    except OSError as exc:
        return TomlRead({}, f"cannot read {path.name}: {exc.strerror or exc}", key, st.st_size)
    except (BadToml, ValueError) as exc:
        return TomlRead({}, f"{path.name} {exc}; it is not overwritten until it is repaired", key, st.st_size)
    if parsed.newer:
        return TomlRead(dict(parsed.labels), f"{path.name} was written by a newer reviewer; read only", key, st.st_size,
                        dict(parsed.notes))
    if index is not None and st.st_size <= LABEL_FILE_CAP and not parsed.notes:  # the cache holds labels only
        index.label_files.remember(path, key, parsed.reviewer, tuple(parsed.labels.values()))
    return TomlRead(dict(parsed.labels), "", key, st.st_size, dict(parsed.notes))


def apply_entries(labels: dict[Key, Label], notes: dict[Key, Note], changes: list[tuple[Key, Entry]]) -> None:
    """Apply changes in order: a label replaces the note entry, None clears the label, a note
    entry is set (or, empty, removed) beside no label."""
    for key, entry in changes:
        if entry is None:
            labels.pop(key, None)
        elif isinstance(entry, Note):
            if entry.empty:
                notes.pop(key, None)
            else:
                notes[key] = entry
        else:
            labels[key] = entry
            notes.pop(key, None)


def effective(notes: dict[Key, Note], changes: list[tuple[Key, Entry]]) -> list[tuple[Key, Entry]]:
    """The changes without removals of note entries that do not exist (nothing to journal for them)."""
    present: dict[Key, bool] = {}
    out = []
    for key, entry in changes:
        if isinstance(entry, Note):
            if entry.empty and not present.get(key, key in notes):
                continue
            present[key] = not entry.empty
        elif entry is not None:
            present[key] = False
        out.append((key, entry))
    return out


def pending_label(pending: list[tuple[Key, Entry]], key: Key) -> tuple[bool, Label | None]:
    """(True, the label) when a pending change sets or clears the label at ``key`` (the latest wins)."""
    for k, entry in reversed(pending):
        if k == key and not isinstance(entry, Note):
            return True, entry
    return False, None


def pending_note(pending: list[tuple[Key, Entry]], key: Key) -> tuple[bool, Note | None]:
    """(True, the note entry or None) when a pending change decides the note entry at ``key``: a
    note entry sets it (removes it when empty), a label takes it away; clearing a label leaves it."""
    for k, entry in reversed(pending):
        if k != key or entry is None:
            continue
        if isinstance(entry, Note):
            return True, None if entry.empty else entry
        return True, None
    return False, None


def index_runs(labels: dict[Key, Label]) -> dict[str, set[str]]:
    """The checks labelled per run."""
    index: dict[str, set[str]] = {}
    for run, check in list(labels):
        index.setdefault(run, set()).add(check)
    return index


def touch(index: dict[str, set[str]], labels: dict[Key, Label], keys: Iterable[Key]) -> None:
    """Bring the per-run index up to date after ``labels`` changed at ``keys``."""
    for run, check in keys:
        if (run, check) in labels:
            index.setdefault(run, set()).add(check)
        else:
            index.get(run, set()).discard(check)


def labels_of_run(index: dict[str, set[str]], labels: dict[Key, Label], pending: list[tuple[Key, Entry]],
                  run: str) -> dict[str, Label]:
    """One run's labels by check, the pending changes applied (note entries are not labels)."""
    out = {c: labels[(run, c)] for c in index.get(run, ()) if (run, c) in labels}
    for (r, c), lab in pending:
        if r != run or isinstance(lab, Note):
            continue
        if lab is None:
            out.pop(c, None)
        else:
            out[c] = lab
    return out


def restore_mine(mine: dict[Key, Label | None], pending: list[tuple[Key, Entry]], disk: dict[Key, Label]) -> list[Key]:
    """Put back into ``disk`` the decisions in ``mine`` that an outside change lost; their keys.

    A label of ours missing from disk, or replaced by a label decided earlier than ours, was
    lost; a later label on disk (another instance) wins, and a pending change decides anyway.
    """
    keys = {key for key, _ in pending}
    restored = []
    for key, lab in mine.items():
        if lab is None or key in keys:
            continue
        current = disk.get(key)
        if current is None or (current != lab and current.labelled_at < lab.labelled_at):
            disk[key] = lab
            restored.append(key)
    return restored
