"""The sessions store: a scanned folder plus lazy, cached reads of everything heavy."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reviewer.model import Check, Failure, LoadError, Run, Turn
from reviewer.model.check import check_id
from reviewer.model.records import record
from reviewer.store.fs.keys import Deps, dep_keys
from reviewer.store.fs.tomlfile import BadToml, parse_toml_bytes
from reviewer.store.fs.untrusted import (
    MANIFEST_CAP,
    TEXT_CAP,
    RawRead,
    TextBlob,
    Unreadable,
    decode_for_display,
    read_capped,
)
from reviewer.store.index.cache import RunIndex
from reviewer.store.index.codec import output_refs
from reviewer.store.runs.manifest import BadManifest, load_manifest, turns_from_doc
from reviewer.store.sessions.inplace import LogSource
from reviewer.store.sessions.scan import Corpus, Logs, head, scan


@record
class GraderChecks:
    """The checks one grader yielded, and why none could be had when that happened."""

    grader: str
    checks: tuple[Check, ...]
    error: str = ""


@record
class Transcript:
    """A run's turns, or the reason they could not be read."""

    turns: tuple[Turn, ...] = ()
    error: str = ""


class LRU:
    """A small thread-safe least-recently-used cache."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.data: OrderedDict[object, object] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: object) -> object | None:
        """The cached value or None."""
        with self.lock:
            if key in self.data:
                self.data.move_to_end(key)
                return self.data[key]
        return None

    def put(self, key: object, value: object) -> None:
        """Store a value, evicting the oldest past the size."""
        with self.lock:
            self.data[key] = value
            self.data.move_to_end(key)
            while len(self.data) > self.size:
                self.data.popitem(last=False)

    def pop(self, key: object) -> None:
        """Forget one key."""
        with self.lock:
            self.data.pop(key, None)

    def clear(self) -> None:
        """Forget everything."""
        with self.lock:
            self.data.clear()


def basis_of(deps: Deps | None) -> int:
    """What refresh compares for a run's outputs: a hash of their keys (-1 when they had none)."""
    return hash(tuple(key for _, key in deps)) if deps is not None else -1


@record
class Changes:
    """What a refresh found: new runs, runs whose manifest or output changed, runs gone."""

    added: list[Run]
    changed: list[Run]
    removed: list[str]
    errors_changed: bool = False

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed or self.errors_changed)


class SessionStore:
    """A sessions folder: scan once, read briefs, code, output and transcripts on demand.

    ``logs``: harness logs named on the command line, read in place as sessions of their own (the
    store then shows those sessions only; ``root`` keeps their labels). Every file a run names is
    read through :meth:`raw`, from the folder or, for a run of a log read in place, from the log.
    Safe to call from worker threads.
    """

    def __init__(self, root: Path, use_index: bool = True, logs: Sequence[LogSource] = ()) -> None:
        self.root = Path(root)
        self.logs = Logs(attached=tuple(logs))
        """The logs read in place, kept open between scans."""
        self.corpus = Corpus(root=self.root)
        self.by_key: dict[str, Run] = {}
        self.texts = LRU(64)
        self.transcripts = LRU(16)
        self.check_cache = LRU(512)
        self.evidence_contexts = LRU(8)
        """Per run key: what its failures' evidence fingerprints share (reviewer.store.sessions.fingerprint)."""
        self.use_index = use_index
        self.index: RunIndex | None = None
        """The index cache (opened by the first scan; see reviewer.store.index.cache)."""
        self.basis: dict[str, int] = {}
        """Per run manifest: a hash of the keys of the grader outputs its failures came from."""
        self.scan_lock = threading.Lock()
        self.basis_lock = threading.Lock()
        """Guards ``basis``: counting workers write it while a refresh reads it."""

    def scan(self) -> Corpus:
        """(Re)scan manifests and return the corpus (unchanged runs come from the index)."""
        with self.scan_lock:
            self.open_index()
            self.corpus = scan(self.root, self.index, logs=self.logs)
            self.by_key = {r.key: r for r in self.corpus.runs}
            self.texts.clear()
            self.transcripts.clear()
            self.check_cache.clear()
            self.evidence_contexts.clear()
            with self.basis_lock:
                self.basis = {}
            return self.corpus

    def head(self, limit: int) -> Corpus:
        """The sessions and the first ``limit`` runs by folder name, read while the whole folder is
        being read (see :func:`reviewer.store.sessions.scan.head`): the store's runs until its first scan
        (labels are saved against them meanwhile)."""
        with self.scan_lock:
            corpus = head(self.root, limit, self.logs)
            if not self.corpus.runs and not self.corpus.sessions:
                self.corpus, self.by_key = corpus, {r.key: r for r in corpus.runs}
            return corpus

    def refresh(self) -> Changes:
        """Look at the folder again (stat only for what is known) and say what changed.

        Runs whose manifest or grader output changed, new runs and runs that are gone are
        reported; unchanged runs keep their objects. Cached texts and checks of changed runs
        are dropped.
        """
        with self.scan_lock:
            old_corpus = self.corpus
            with self.basis_lock:
                old_basis = list(self.basis.items())
            self.open_index()
            corpus = scan(self.root, self.index, first=False, logs=self.logs)
            old = {r.key: r for r in old_corpus.runs}
            changed: list[Run] = []
            for i, run in enumerate(corpus.runs):
                before = old.get(run.key)
                if before is None or before is run:
                    continue
                if before == run and before.metadata == run.metadata:
                    corpus.runs[i] = before  # read again but the same: keep the object
                else:
                    changed.append(run)
            new = {r.key: r for r in corpus.runs}
            changed_keys = {r.key for r in changed}
            root = str(self.root)
            by_manifest = {r.manifest: r for r in corpus.runs}
            for manifest, basis in old_basis:
                found = by_manifest.get(manifest)
                if found is not None and found.key not in changed_keys and basis_of(dep_keys(root, output_refs(found))) != basis:
                    changed.append(found)
                    changed_keys.add(run.key)
            added = [r for k, r in new.items() if k not in old]
            removed = [k for k in old if k not in new]
            errors_changed = old_corpus.errors != corpus.errors or old_corpus.sessions != corpus.sessions
            self.corpus, self.by_key = corpus, new
            for key in changed_keys | set(removed):
                with self.basis_lock:
                    self.basis.pop(f"{key.replace('/', '/runs/', 1)}/run.toml", None)
                self.check_cache.pop(key)
                self.evidence_contexts.pop(key)
            if changed or removed:
                self.texts.clear()
                self.transcripts.clear()
            return Changes(added, changed, removed, errors_changed)

    def open_index(self) -> None:
        """Open the index cache for a look at the folder (once), and start its next generation."""
        if self.index is None and self.use_index:
            self.index = RunIndex.open(self.root, [str(log.path) for log in self.logs.attached])
            self.index.reread = self.logs.shelf.run
        if self.index is not None:
            self.index.next_generation()

    def save_index(self) -> bool:
        """Write the index cache if anything new was learnt (call from a worker)."""
        return self.index.save() if self.index is not None else False

    @property
    def runs(self) -> list[Run]:
        """Runs that loaded, in display order."""
        return self.corpus.runs

    @property
    def errors(self) -> list[LoadError]:
        """Everything that did not load."""
        return self.corpus.errors

    def run(self, key: str) -> Run | None:
        """The run ``<session>/<run>``, or None."""
        return self.by_key.get(key)

    def raw(self, ref: str, cap: int = TEXT_CAP) -> RawRead:
        """The bytes of a referenced file, at most ``cap``: from the folder, or from the log a run
        is read from in place.

        Raises:
            Unreadable: missing, not a regular file, outside the folder, or its log unreadable.
        """
        found = self.logs.shelf.read(ref, cap)
        return found if found is not None else read_capped(self.root, ref, cap)

    def read(self, ref: str, cap: int = TEXT_CAP) -> TextBlob:
        """A referenced file's text, read now (never raises: errors go into ``TextBlob.error``)."""
        try:
            return decode_for_display(self.raw(ref, cap))
        except Unreadable as exc:
            return TextBlob(error=str(exc))

    def text(self, ref: str) -> TextBlob:
        """A referenced file's text (cached)."""
        if not ref:
            return TextBlob(error="not recorded")
        hit = self.texts.get(ref)
        if isinstance(hit, TextBlob):
            return hit
        blob = self.read(ref)
        self.texts.put(ref, blob)
        return blob

    def brief(self, run: Run) -> TextBlob:
        """The brief the model was given."""
        return self.text(run.brief_ref)

    def transcript(self, run: Run) -> Transcript:
        """The run's transcript turns (cached like texts)."""
        if not run.transcript_ref:
            return Transcript()
        hit = self.transcripts.get(run.transcript_ref)
        if isinstance(hit, Transcript):
            return hit
        try:
            found = Transcript(turns_from_doc(self.manifest(run.transcript_ref)))
        except (Unreadable, BadToml, BadManifest) as exc:
            return Transcript(error=f"{run.transcript_ref}: {exc}")  # not kept: it may be written yet
        except RecursionError:
            return Transcript(error=f"{run.transcript_ref}: nested too deeply to read")
        self.transcripts.put(run.transcript_ref, found)
        return found

    def manifest(self, ref: str) -> dict[str, Any]:
        """A manifest a run names (its transcript), parsed (see :func:`reviewer.store.sessions.scan.load_manifest`)."""
        if self.logs.shelf.owner(ref) is None:
            return load_manifest(self.root, ref)
        raw = self.raw(ref, MANIFEST_CAP)
        if raw.truncated:
            raise BadManifest(f"is larger than {MANIFEST_CAP // 1024} KiB, too large for a manifest")
        return parse_toml_bytes(raw.data)

    def grader_checks(self, run: Run) -> tuple[GraderChecks, ...]:
        """Every grader's checks: recorded ones, else parsed from its output (cached)."""
        hit = self.check_cache.get(run.key)
        if isinstance(hit, tuple):
            return hit
        outputs = output_refs(run)
        deps = dep_keys(str(self.root), outputs)  # keys before the outputs are read
        out = []
        for g in run.graders:
            if g.checks is not None:
                out.append(GraderChecks(g.name, g.checks))
                continue
            if not g.output_ref:
                out.append(GraderChecks(g.name, (), "no output recorded and no checks"))
                continue
            from reviewer.parsers import parse_output  # only an output to parse needs the parsers
            from reviewer.parsers.unreadable import KEY as UNREADABLE_KEY
            from reviewer.parsers.unreadable import unreadable

            blob = self.read(g.output_ref)
            if blob.error:
                problem = f"{g.output_ref}: {blob.error}"
                out.append(GraderChecks(g.name, (unreadable(problem),), problem))
                continue
            if blob.binary:
                problem = f"{g.output_ref} holds binary data (NUL bytes), not UTF-8 text"
                out.append(GraderChecks(g.name, (unreadable(problem),), problem))
                continue
            checks = parse_output(blob.text, g.format or None, exit_status=g.exit_status)
            if blob.truncated:
                problem = (f"{g.output_ref} is {blob.size} bytes, over the {TEXT_CAP >> 20} MiB read cap: only its "
                           "start was parsed and checks after it are not seen")
                checks = [c for c in checks if c.key != UNREADABLE_KEY] + [unreadable(problem)]
            out.append(GraderChecks(g.name, tuple(checks)))
        result = tuple(out)
        self.check_cache.put(run.key, result)
        if deps is not None:
            with self.basis_lock:
                self.basis[run.manifest] = basis_of(deps)
            if self.index is not None:
                self.index.remember_failing(run, deps, tuple((gc.grader, c) for gc in result for c in gc.checks if c.failing))
        return result

    def failures(self, run: Run) -> list[Failure]:
        """The run's failing checks, in grader then output order (from the index when unchanged)."""
        cached = self.index.failing(run) if self.index is not None else None
        if cached is not None:
            with self.basis_lock:
                self.basis.setdefault(run.manifest, basis_of(cached.outputs))
            failing = cached.checks
        else:
            failing = tuple((gc.grader, c) for gc in self.grader_checks(run) for c in gc.checks if c.failing)
        return [Failure(run.failure_id(check_id(g, c.key)), run.key, g, c) for g, c in failing]
