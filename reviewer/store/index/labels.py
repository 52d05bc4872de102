"""The labels files the index cache remembers (lines ``@<path>\\t<key>\\t<labels>``).

Labels files are read through the cache (:func:`reviewer.store.labels.reading.read_file`): a
format-2 file whose ``lstat`` key is unchanged is not parsed again. Only a file read whole with
labels alone is cached: one with note entries, adjudications, damage or a newer format is parsed
each time, as is a format-1 file (its journal may have grown).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from reviewer.model.label import Label
from reviewer.store.fs.keys import StatKey, settled
from reviewer.store.index import codec
from reviewer.store.index.entry import BAD

LABELS_MARK = "@"
"""Lines of labels files start with this (a run's manifest path never does)."""


class LabelFiles:
    """Labels files by path: their key and their labels as stored text. Safe to use from several threads."""

    def __init__(self, lock: threading.RLock) -> None:
        self.lock = lock
        self.files: dict[str, tuple[StatKey, str]] = {}
        self.dirty = False
        self.rejected = 0
        """Stored lines or texts that did not decode."""

    def load_line(self, name: str, line: bytes) -> None:
        """Keep one stored line (``name`` without its mark); a line that does not decode is counted."""
        parts = line.split(b"\t")
        try:
            if len(parts) != 3:
                raise codec.BadEntry("not a labels entry")
            self.files[name] = (codec.decode_key(json.loads(parts[1])), parts[2].decode("ascii").rstrip("\n"))
        except BAD:
            self.rejected += 1

    def lines(self) -> list[bytes]:
        """Every remembered file as a line of the index (under the lock)."""
        return [f"{LABELS_MARK}{path}\t{codec.dumps(list(key))}\t{text}\n".encode("utf-8", "surrogateescape")
                for path, (key, text) in self.files.items()]

    def get(self, path: Path, key: StatKey, session: str) -> tuple[str, tuple[Label, ...]] | None:
        """A labels file's reviewer and labels as last parsed, when its key is unchanged."""
        with self.lock:
            found = self.files.get(str(path))
        if found is None or found[0] != key:
            return None
        try:
            return codec.decode_labels(json.loads(found[1]), session)
        except BAD:
            with self.lock:
                self.rejected += 1
                self.files.pop(str(path), None)
                self.dirty = True
            return None

    def has(self, path: Path, key: StatKey) -> bool:
        """A labels file is remembered with this key (nothing decoded)."""
        with self.lock:
            found = self.files.get(str(path))
        return found is not None and found[0] == key

    def remember(self, path: Path, key: StatKey, reviewer: str, labels: tuple[Label, ...]) -> None:
        """Record a labels file parsed after its key was taken."""
        if not settled(key) or any(ch in str(path) for ch in "\t\n\r"):
            return
        try:
            text = codec.encode_labels(reviewer, labels)
        except (TypeError, ValueError, RecursionError):
            return
        with self.lock:
            self.files[str(path)] = (key, text)
            self.dirty = True

    def retain(self, paths: set[str]) -> None:
        """Forget labels files that are gone."""
        with self.lock:
            for path in [p for p in self.files if p not in paths]:
                del self.files[path]
                self.dirty = True
