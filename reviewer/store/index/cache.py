"""The index cache: what scanning a sessions folder learnt, kept so the next open only stats.

It lives outside the sessions folder, in ``$XDG_CACHE_HOME/reviewer/index-<hash>.jsonl``
(``~/.cache`` by default; ``REVIEWER_INDEX=off`` turns it off), one file per folder, named by a
hash of the folder's real path. The first line is a header (format, version, the folder's real
path, a fingerprint of the code that parses manifests and grader output, and the sha256 of the
rest); then one line per run: ``<manifest path>\\t<head>\\t<details>\\t<failing checks>\\t<fingerprints>``,
each part a JSON document (``null`` when absent), and one per labels file read by ``export``
(``@<path>\\t<key>\\t<labels>``). Only plain JSON values are stored, never pickles.

Each run is keyed by its manifest's (size, mtime_ns, ctime_ns, inode): any change to
``run.toml`` drops what was known about the run. Beside the parsed run an entry may hold the
run's failing checks, keyed the same way by every grader output they were parsed from, and
evidence fingerprints, keyed by the brief, the graded files and the outputs. Validity is
decided by ``lstat`` alone (see :mod:`reviewer.store.index.files` for the racy-write rule).

The file is our own, but it is still checked like input: a damaged or foreign file (checksum,
owner, link, header, root, code fingerprint) is ignored as a whole; a line that does not decode
into exactly the values a manifest could have given, with every path inside the root and every
dependency exactly the files the run names, is ignored. A forged line can therefore say no more
than a manifest could, and never makes the program read outside the folder.

The head (manifest key, task, model, outcome) is decoded when the folder is opened: it is all
the run list needs. The details (attempts, graders, references, metadata) stay text until the
run is first used (:class:`reviewer.model.run.LazyRun`), so a warm open of 10,000 runs builds
10,000 small objects instead of 150,000. Details are checked like everything else when they are
decoded; a bad one drops the entry and the manifest is read instead.

Memory: slots are kept as their JSON text and decoded when asked for; runs are encoded again
when the index is saved (which streams, never building the file in memory).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import stat
import threading
from pathlib import Path
from typing import Callable, Iterator, Sequence

from reviewer.model import Check, Run
from reviewer.model.run import LAZY_FIELDS, LazyRun
from reviewer.store.fs.keys import Deps, StatKey, dep_keys, deps_settled, settled
from reviewer.store.index import codec
from reviewer.store.index.entry import (
    BAD,
    Entry,
    Evidence,
    Failing,
    batch_heads,
    encode_line,
    manifest_fields,
    read_lines,
    run_dir,
)
from reviewer.store.index.files import code_fingerprint, index_enabled, index_path, open_own_file, write_private
from reviewer.store.index.labels import LABELS_MARK, LabelFiles
from reviewer.store.index.logs import LOGS_MARK, LogIds

INDEX_FORMAT = "reviewer-index"
INDEX_VERSION = 2
MESSAGE_BUDGET = 64 << 10
"""Failing checks whose messages exceed this (bytes per run) are parsed again instead."""
NOTHING_FAILING = codec.encode_keyed((), [], "")
"""The slot of a run with no grader output and no failing check (imported trajectories)."""
NO_FAILURES = Failing((), ())


class RunIndex:
    """The index of one sessions folder: runs by manifest path, with what was derived from them.

    Safe to use from several threads. ``path`` None keeps it in memory only.
    """

    def __init__(self, root: Path, path: Path | None = None) -> None:
        self.root = str(root)
        self.real = os.path.realpath(root)
        self.path = path
        self.stored: dict[str, bytes] = {}
        """Lines of the loaded file not looked up yet, by manifest path (saved again as they are)."""
        self.heads: dict[str, object] = {}
        """The heads of stored lines, decoded together (one JSON document is much faster than 10,000)."""
        self.entries: dict[str, Entry] = {}
        self.lock = threading.RLock()
        self.label_files = LabelFiles(self.lock)
        """The labels files read through the index (``reviewer export``, the other reviewers' files)."""
        self.log_ids = LogIds(self.lock)
        """The run ids of the log files read in place (see :mod:`reviewer.store.index.logs`)."""
        self.reread: Callable[[str], Run | None] | None = None
        """Reads a run whose manifest is not a file (a run of a log read in place) by its manifest path."""
        self.dirty = False
        self.generation = 0
        self.rejected = 0
        """Stored entries that did not decode (the file was damaged or foreign)."""
        self.ignored = ""
        """Why the whole file was ignored, "" when it was read (or there was none)."""

    @classmethod
    def open(cls, root: Path, logs: Sequence[str] = ()) -> "RunIndex":
        """The index of a folder (with the harness logs named with it), loaded from the cache when a
        valid one is there."""
        if not index_enabled():
            return cls(root)
        index = cls(root, index_path(root, logs))
        index.load()
        return index

    # ---- the file ------------------------------------------------------------------------

    def header(self, sha256: str) -> bytes:
        """The first line of the file."""
        return codec.dumps({"format": INDEX_FORMAT, "version": INDEX_VERSION, "root": self.real,
                      "code": code_fingerprint(), "sha256": sha256}).encode("ascii") + b"\n"

    def load(self) -> None:
        """Read the cache file line by line; anything wrong with it and it is ignored whole."""
        if self.path is None:
            return
        try:
            f = open_own_file(self.path)
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            self.ignored = str(exc)
            return
        digest = hashlib.sha256()
        with f:
            try:
                header = json.loads(f.readline())
            except (ValueError, RecursionError):
                header = None
            if not isinstance(header, dict) or self.header(str(header.get("sha256"))) != codec.dumps(header).encode() + b"\n":
                self.ignored = "written for another folder, version or program"
                return
            stored = read_lines(f, digest)
        if digest.hexdigest() != header["sha256"]:
            self.ignored = "checksum mismatch (damaged)"
            return
        for name in [k for k in stored if k.startswith(LABELS_MARK)]:
            self.label_files.load_line(name[1:], stored.pop(name))
        for name in [k for k in stored if k.startswith(LOGS_MARK)]:
            self.log_ids.load_line(name[1:], stored.pop(name))
        self.stored = stored
        self.heads = batch_heads(stored)

    def save(self) -> bool:
        """Write the index if anything changed (streamed); False when nothing was written."""
        if self.path is None or not (self.dirty or self.label_files.dirty or self.log_ids.dirty):
            return False
        with self.lock:
            self.dirty = self.label_files.dirty = self.log_ids.dirty = False
            rels = list(self.entries)
            head = list(self.stored.values()) + self.label_files.lines() + self.log_ids.lines()

        def lines() -> Iterator[bytes]:
            yield from head
            for rel in rels:
                with self.lock:
                    entry = self.entries.get(rel)
                    line = encode_line(rel, entry) if entry is not None else ""
                if line:
                    yield line.encode("ascii")

        try:
            write_private(self.path, self.header, lines())
        except OSError:
            self.dirty = True
            return False
        return True

    # ---- runs ----------------------------------------------------------------------------

    def next_generation(self) -> None:
        """A new look at the folder: derived data is checked against the disk again."""
        with self.lock:
            self.generation += 1

    def take(self, root: str, session: str, run_ids: list[str]) -> tuple[list[Run], list[tuple[str, StatKey | None]]]:
        """The runs of one session whose manifests are unchanged since the index learnt them.

        Each run the index knows is ``lstat``-ed (all before the lock is taken) and kept when its
        key is the stored one. Returns those runs and, for every other run id (in order), the
        manifest's key when it was taken (``None``: unknown to the index, or not a regular
        file), for the caller to read the manifest.
        """
        entries, stored = self.entries, self.stored
        lstat, regular = os.lstat, stat.S_ISREG
        stats: list[tuple[str, str, StatKey | None]] = []
        for run_id in run_ids:
            rel = f"{session}/runs/{run_id}/run.toml"
            if rel not in entries and rel not in stored:
                stats.append((run_id, rel, None))
                continue
            try:
                st = lstat(f"{root}/{rel}")
            except (OSError, ValueError):
                stats.append((run_id, rel, None))
                continue
            stats.append((run_id, rel, (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
                          if regular(st.st_mode) else None))
        return self.take_keyed(session, stats)

    def take_keyed(self, session: str, stats: list[tuple[str, str, StatKey | None]]
                   ) -> tuple[list[Run], list[tuple[str, StatKey | None]]]:
        """:meth:`take` for runs whose keys the caller took: (run id, manifest path, key) each (a run
        of a log read in place is keyed by the file it is read from)."""
        entries, stored = self.entries, self.stored
        found: list[Run] = []
        missed: list[tuple[str, StatKey | None]] = []
        with self.lock:
            for run_id, rel, key in stats:
                if key is None:
                    missed.append((run_id, None))
                    continue
                entry = entries.get(rel)
                if entry is None:
                    line = stored.pop(rel, None)
                    entry = None if line is None else self._decode(line, session, run_id, rel)
                    if entry is None:
                        missed.append((run_id, key))
                        continue
                    entries[rel] = entry
                if entry.key != key:
                    del entries[rel]
                    self.dirty = True
                    missed.append((run_id, key))
                    continue
                found.append(entry.run)
        return found, missed

    def _decode(self, stored: bytes, session: str, run_id: str, rel: str) -> Entry | None:
        """An entry from its line: the run list's fields now, the rest when first used."""
        try:
            parts = stored.rstrip(b"\n").split(b"\t")
            if len(parts) != 5:
                raise codec.BadEntry("not an entry")
            head = self.heads.pop(rel, None)
            key, task, model, outcome, outputs = codec.decode_head(head if head is not None else json.loads(parts[1]),
                                                             rel.rpartition("/")[0])
            body = parts[2].decode("ascii")
            entry = Entry(key, LazyRun.make(session, run_id, task, model, outcome, rel,
                                            functools.partial(self._fill, rel, body, outputs), outputs), body)
            entry.failing_text = None if parts[3] == b"null" else parts[3].decode("ascii")
            entry.evidence_text = None if parts[4] == b"null" else parts[4].decode("ascii")
        except BAD:
            self.rejected += 1
            self.dirty = True
            return None
        return entry

    def _fill(self, rel: str, body: str, outputs: tuple[str, ...]) -> tuple[object, ...]:
        """A lazy run's details from the stored text; from its manifest if that text is bad.

        The text passed the file's checksum, so only a forged or foreign file gets here: the
        entry is then dropped from the index and the manifest read instead (a manifest that
        no longer parses leaves the run without attempts or graders until the next look).
        """
        try:
            values = codec.decode_body(json.loads(body), rel)
            graders = values[LAZY_FIELDS.index("graders")]
            if tuple(g.output_ref for g in graders if g.checks is None and g.output_ref) != outputs:
                raise codec.BadEntry("the head and the details name other grader outputs")
        except BAD:
            pass
        else:
            with self.lock:
                entry = self.entries.get(rel)
                if entry is not None and entry.body is body:
                    entry.body = None  # the run holds it now (encoded again when saved)
            return values
        with self.lock:
            self.rejected += 1
            entry = self.entries.get(rel)
            if entry is not None and entry.body is body:
                del self.entries[rel]
            self.dirty = True
        run = self.reread(rel) if self.reread is not None else None
        if run is not None:
            return tuple(getattr(run, name) for name in LAZY_FIELDS)
        return manifest_fields(Path(self.root), rel)

    def remember(self, rel: str, key: StatKey, run: Run) -> None:
        """Record a freshly parsed run (``key`` taken before the manifest was read)."""
        if not settled(key):
            return
        with self.lock:
            self.entries[rel] = Entry(key, run)
            self.stored.pop(rel, None)
            self.heads.pop(rel, None)
            self.dirty = True
        if not codec.output_refs(run):  # every check is in the manifest: its failing ones are known now
            self.remember_failing(run, (), tuple((g.name, c) for g in run.graders for c in g.checks or () if c.failing))

    def retain(self, rels: set[str]) -> None:
        """After a full scan: forget runs that are gone."""
        with self.lock:
            self.heads.clear()
            if self.stored:
                self.stored.clear()
                self.dirty = True
            for rel in [r for r in self.entries if r not in rels]:
                del self.entries[rel]
                self.dirty = True

    def _entry(self, run: Run) -> Entry | None:
        entry = self.entries.get(run.manifest)
        return entry if entry is not None and entry.run is run else None

    def _reject(self, entry: Entry, failing: bool) -> None:
        """Drop a slot that did not decode (under the lock)."""
        self.rejected += 1
        self.dirty = True
        if failing:
            entry.failing_text = None
        else:
            entry.evidence, entry.evidence_text = None, None

    # ---- failing checks ------------------------------------------------------------------

    def failing(self, run: Run) -> Failing | None:
        """The run's failing checks as (grader, check), when every output is unchanged."""
        with self.lock:
            entry = self._entry(run)
            text = entry.failing_text if entry is not None else None
            if entry is None or text is None:
                return None
            if text == NOTHING_FAILING and not codec.output_refs(run):  # nothing to decode, no output to look at
                return NO_FAILURES
            try:
                outputs, checks = codec.decode_keyed(json.loads(text), codec.output_refs(run), run_dir(run),
                                                     codec.decode_failing)
            except BAD:
                self._reject(entry, True)
                return None
            checked = entry.failing_checked == self.generation
        if not checked:
            if dep_keys(self.root, [ref for ref, _ in outputs]) != outputs:
                with self.lock:
                    if entry.failing_text is text:
                        entry.failing_text, self.dirty = None, True
                return None
            with self.lock:
                entry.failing_checked = self.generation
        return Failing(outputs, checks)

    def remember_failing(self, run: Run, outputs: Deps, checks: tuple[tuple[str, Check], ...]) -> None:
        """Record a run's failing checks, parsed from outputs that had these keys before reading."""
        if [r for r, _ in outputs] != codec.output_refs(run) or not deps_settled(outputs):
            return
        if sum(len(c.message) for _, c in checks) > MESSAGE_BUDGET:
            return
        text = codec.encode_keyed(outputs, [[g, *codec.encode_check(c)] for g, c in checks], run_dir(run))
        with self.lock:
            entry = self._entry(run)
            if entry is not None:
                entry.failing_text, entry.failing_checked, self.dirty = text, self.generation, True

    # ---- evidence ------------------------------------------------------------------------

    def _evidence_slot(self, entry: Entry, run: Run) -> Evidence | None:
        """The entry's fingerprints, decoded from their text on first use (under the lock)."""
        if entry.evidence is None and entry.evidence_text is not None:
            try:
                deps, hashes = codec.decode_keyed(json.loads(entry.evidence_text), codec.hashed_refs(run), run_dir(run),
                                                  codec.decode_hashes)
            except BAD:
                self._reject(entry, False)
                return None
            entry.evidence = Evidence(deps, hashes)
        return entry.evidence

    def evidence(self, run: Run, check: str) -> str | None:
        """A failure's evidence fingerprint, when none of the files it hashes changed."""
        with self.lock:
            entry = self._entry(run)
            slot = self._evidence_slot(entry, run) if entry is not None else None
            if entry is None or slot is None:
                return None
            checked = entry.evidence_checked == self.generation
        if not checked:
            if dep_keys(self.root, [ref for ref, _ in slot.deps]) != slot.deps:
                with self.lock:
                    if entry.evidence is slot:
                        entry.evidence, entry.evidence_text, self.dirty = None, None, True
                return None
            with self.lock:
                entry.evidence_checked = self.generation
        return slot.hashes.get(check)

    def remember_evidence(self, run: Run, deps: Deps, check: str, value: str) -> None:
        """Record a fingerprint computed from files that had ``deps`` keys before reading."""
        if [r for r, _ in deps] != codec.hashed_refs(run) or not deps_settled(deps):
            return
        with self.lock:
            entry = self._entry(run)
            if entry is None:
                return
            slot = self._evidence_slot(entry, run)
            if slot is None or slot.deps != deps:
                slot = entry.evidence = Evidence(deps, {})
                entry.evidence_checked = self.generation
            slot.hashes[check] = value
            entry.evidence_text, self.dirty = None, True
