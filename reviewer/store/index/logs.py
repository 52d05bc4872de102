"""The run ids of harness logs read in place, as the index cache remembers them (lines ``%<log>\\t<key>\\t<ids>``).

A sample's run id comes from the sample itself, so knowing a log's run ids means reading every
sample once. The cache keeps, for each log file read in place, the id each of its units asked
for, keyed by the log's ``lstat`` key: an unchanged log is opened without reading a sample (its
runs then come from the index like any run), a changed one is read again. What is kept is only
a list of strings, checked like every line of the cache: a forged list can name no more than a
log could (each id is a run id the loader claims in order, as an import does).
"""

from __future__ import annotations

import json
import threading

from reviewer.store.fs.keys import StatKey, settled
from reviewer.store.index import codec
from reviewer.store.index.entry import BAD

LOGS_MARK = "%"
"""Lines of logs start with this (a run's manifest path and a labels file's mark never do)."""
MAX_IDS = 1_000_000


class LogIds:
    """Wanted run ids of logs by the log's path relative to the root. Safe to use from several threads."""

    def __init__(self, lock: threading.RLock) -> None:
        self.lock = lock
        self.logs: dict[str, tuple[StatKey, str]] = {}
        self.dirty = False
        self.rejected = 0

    def load_line(self, name: str, line: bytes) -> None:
        """Keep one stored line (``name`` without its mark); a line that does not split is counted."""
        parts = line.split(b"\t")
        try:
            if len(parts) != 3:
                raise codec.BadEntry("not a log entry")
            self.logs[name] = (codec.decode_key(json.loads(parts[1])), parts[2].decode("ascii").rstrip("\n"))
        except BAD:
            self.rejected += 1

    def lines(self) -> list[bytes]:
        """Every remembered log as a line of the index (under the lock)."""
        return [f"{LOGS_MARK}{rel}\t{codec.dumps(list(key))}\t{text}\n".encode("utf-8", "surrogateescape")
                for rel, (key, text) in self.logs.items()]

    def get(self, rel: str, key: StatKey, units: int) -> list[str] | None:
        """The ids the log's ``units`` units asked for, when its key is unchanged."""
        with self.lock:
            found = self.logs.get(rel)
        if found is None or found[0] != key:
            return None
        try:
            ids = json.loads(found[1])
            if type(ids) is not list or len(ids) != units or any(type(i) is not str or not i for i in ids):
                raise codec.BadEntry("not the log's ids")
        except BAD:
            with self.lock:
                self.rejected += 1
                self.logs.pop(rel, None)
                self.dirty = True
            return None
        return ids

    def remember(self, rel: str, key: StatKey, ids: list[str]) -> None:
        """Record the ids every unit of a log asked for (read after ``key`` was taken)."""
        if not settled(key) or any(ch in rel for ch in "\t\n\r") or len(ids) > MAX_IDS:
            return
        with self.lock:
            self.logs[rel] = (key, codec.dumps(ids))
            self.dirty = True

    def retain(self, rels: set[str]) -> None:
        """Forget logs that are gone."""
        with self.lock:
            for rel in [r for r in self.logs if r not in rels]:
                del self.logs[rel]
                self.dirty = True
