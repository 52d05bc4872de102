"""Reading any reviewer's labels file (and its journal) within a size budget, unchanged files from memory.

The other reviewers' files arrive by ``git pull``: one can be 200 MB. Parsing it would keep gigabytes
resident and hold the interpreter for many seconds, so a file (TOML and journal together) over
:data:`READ_BUDGET` bytes is not read: the caller gets an error that says so, to show. Files read
are kept (up to :data:`CACHE_BYTES` of them, least recently used first out) by their stat, and a
journal that only grew is read from where it was left, so reading every reviewer's labels again
after each decision costs what changed.
"""

from __future__ import annotations

import os
import stat
import threading
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path
from typing import Callable

from reviewer.model.label import Label, Note
from reviewer.model.records import record
from reviewer.store import labeljournal as jr
from reviewer.store.index_files import stat_key
from reviewer.store.labelcodec import Key, Parsed, parse_labels
from reviewer.store.tomlfile import BadToml

READ_BUDGET = 64 << 20
"""The largest labels file (TOML plus journal) of another reviewer that is read: about 400,000 labels."""
CACHE_BYTES = 160 << 20


class OverBudget(ValueError):
    """A labels file is over the read budget; it was not read."""


@record(frozen=False)
class FileRead:
    """A file as last read: the TOML's stat key and labels, the journal read so far, the combined view."""

    toml_key: tuple[int, ...]
    toml: Parsed
    journal: tuple[int, int] | None
    journal_base: jr.Stamp | None
    records: list[jr.Record]
    merged: Parsed
    size: int


CACHE: OrderedDict[str, FileRead] = OrderedDict()
LOCK = threading.Lock()


def size_of(path: Path) -> int:
    """Bytes of a file (0 when absent)."""
    try:
        return os.lstat(path).st_size
    except OSError:
        return 0


def read_labels_file(path: Path, session: str, fallback_reviewer: str, budget: int = READ_BUDGET) -> Parsed:
    """A labels file with its journal applied, as its reviewer's LabelFile would see it (note-only
    entries in ``notes``).

    Raises:
        OverBudget: TOML and journal together are over ``budget`` bytes (nothing was read).
        BadToml, ValueError (JournalDamaged), OSError: the file cannot be read or trusted.
    """
    return read_labels_entry(path, session, fallback_reviewer, budget).merged


def read_labels_entry(path: Path, session: str, fallback_reviewer: str, budget: int = READ_BUDGET) -> FileRead:
    """:func:`read_labels_file` with what it was made of (the TOML's parse, the journal's lines).

    Raises:
        OverBudget: TOML and journal together are over ``budget`` bytes (nothing was read).
        BadToml, ValueError (JournalDamaged), OSError: the file cannot be read or trusted.
    """
    st = os.lstat(path)
    if not stat.S_ISREG(st.st_mode):
        raise ValueError("is not a regular file")
    journal = jr.journal_path(path)
    total = st.st_size + size_of(journal)
    if total > budget:
        raise OverBudget(f"is {total / 1e6:.0f} MB, over the {budget >> 20} MiB budget for reading another "
                         "reviewer's labels: not read (its labels are left out here)")
    key = stat_key(st)
    with LOCK:
        entry = CACHE.get(str(path))
        if entry is not None:
            CACHE.move_to_end(str(path))
    if entry is not None:
        entry = replace(entry)  # a copy: another thread may be reading the cached one
    if entry is None or entry.toml_key != key:
        toml = parse_toml(path, key, session, fallback_reviewer, budget)
        entry = FileRead(key, toml, None, None, [], toml, st.st_size)
    reviewer = entry.toml.reviewer
    try:
        jst = os.lstat(journal)
        jnow: tuple[int, int] | None = (jst.st_ino, jst.st_size)
    except FileNotFoundError:
        jnow = None
    if jnow is None:
        entry.journal, entry.records, entry.merged = None, [], entry.toml
    elif entry.journal is None or jnow[0] != entry.journal[0] or jnow[1] < entry.journal[1]:
        got = jr.read_journal(journal, session, reviewer, cap=budget)
        if got is not None:
            entry.journal, entry.journal_base, entry.records = (got.ino, got.end), got.base, got.records
            entry.merged = combine(entry, st)
    elif jnow[1] > entry.journal[1]:
        got = jr.read_journal(journal, session, reviewer, start=entry.journal[1], cap=budget)
        if got is not None and got.records:
            entry.records = entry.records + got.records
            entry.journal = (got.ino, got.end)
            entry.merged = combine(entry, st)
    with LOCK:
        CACHE[str(path)] = entry
        CACHE.move_to_end(str(path))
        evict()
    return entry


def remember_toml(path: Path, key: tuple[int, ...], parsed: Parsed, size: int) -> None:
    """Keep a TOML file's labels just written (its writer knows them: no reader parses it again)."""
    with LOCK:
        CACHE[str(path)] = FileRead(key, parsed, None, None, [], parsed, size)
        CACHE.move_to_end(str(path))
        evict()


def cached_toml(path: Path, key: tuple[int, ...]) -> Parsed | None:
    """The TOML file's labels as last parsed, when its stat key is unchanged (never the journal)."""
    with LOCK:
        entry = CACHE.get(str(path))
    return entry.toml if entry is not None and entry.toml_key == key else None


def parse_toml(path: Path, key: tuple[int, ...], session: str, fallback_reviewer: str, cap: int) -> Parsed:
    """Parse a labels TOML file (reading at most ``cap`` bytes), or take it from the cache; the parse is
    kept for the next reader (the reviewer's own LabelFile and the others' readers share one copy)."""
    hit = cached_toml(path, key)
    if hit is not None:
        return hit
    with open(path, "rb") as fh:
        data = fh.read(cap + 1)
    parsed = parse_labels(data, session, fallback_reviewer)
    with LOCK:
        entry = CACHE.get(str(path))
        if entry is None or entry.toml_key != key:
            CACHE[str(path)] = FileRead(key, parsed, None, None, [], parsed, len(data))
            CACHE.move_to_end(str(path))
            evict()
    return parsed


def evict() -> None:
    """Drop the least recently read files while the cache holds more than CACHE_BYTES (under LOCK)."""
    while len(CACHE) > 1 and sum(e.size for e in CACHE.values()) > CACHE_BYTES:
        CACHE.popitem(last=False)


def combine(entry: FileRead, st: os.stat_result) -> Parsed:
    """The TOML's labels and note entries with the journal's lines applied (by time when the TOML
    changed since)."""
    labels: dict[Key, Label] = dict(entry.toml.labels)
    notes: dict[Key, Note] = dict(entry.toml.notes)
    outside = entry.journal_base != jr.stamp(st)
    jr.apply(labels, notes, entry.records, (entry.toml.labels, entry.toml.notes) if outside else None)
    return Parsed(entry.toml.reviewer, labels, entry.toml.newer, notes)


def describe(exc: BaseException) -> str:
    """Why a labels file could not be read, in words."""
    if isinstance(exc, OSError):
        return f"cannot be read: {exc.strerror or exc}"
    return str(exc)


def clear_cache() -> None:
    """Forget every file read (tests and benchmarks)."""
    with LOCK:
        CACHE.clear()
    for forget in FORGET:
        forget()


FORGET: list[Callable[[], None]] = []
"""What else to forget with the cache (readers built on it register here)."""


__all__ = ["BadToml", "FileRead", "OverBudget", "READ_BUDGET", "clear_cache", "describe", "read_labels_entry",
           "read_labels_file", "remember_toml"]
