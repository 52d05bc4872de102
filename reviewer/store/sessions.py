"""The sessions store: a scanned folder plus lazy, cached reads of everything heavy."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from reviewer.model import Check, Failure, LoadError, Run, Turn
from reviewer.model.check import check_id
from reviewer.parsers import parse_output
from reviewer.store.loader import Corpus, load_manifest, scan
from reviewer.store.manifest import BadManifest, turns_from_doc
from reviewer.store.safe_fs import TextBlob, Unreadable, read_text
from reviewer.store.tomlfile import BadToml


@dataclass(frozen=True, slots=True)
class GraderChecks:
    """The checks one grader yielded, and why none could be had when that happened."""

    grader: str
    checks: tuple[Check, ...]
    error: str = ""


@dataclass(frozen=True, slots=True)
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

    def clear(self) -> None:
        """Forget everything."""
        with self.lock:
            self.data.clear()


class SessionStore:
    """A sessions folder: scan once, read briefs, code, output and transcripts on demand.

    Safe to call from worker threads.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.corpus = Corpus(root=self.root)
        self.by_key: dict[str, Run] = {}
        self.texts = LRU(64)
        self.check_cache = LRU(4096)

    def scan(self) -> Corpus:
        """(Re)scan manifests and return the corpus."""
        self.corpus = scan(self.root)
        self.by_key = {r.key: r for r in self.corpus.runs}
        self.texts.clear()
        self.check_cache.clear()
        return self.corpus

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

    def text(self, ref: str) -> TextBlob:
        """A referenced file's text (cached)."""
        if not ref:
            return TextBlob(error="not recorded")
        hit = self.texts.get(ref)
        if isinstance(hit, TextBlob):
            return hit
        blob = read_text(self.root, ref)
        self.texts.put(ref, blob)
        return blob

    def brief(self, run: Run) -> TextBlob:
        """The brief the model was given."""
        return self.text(run.brief_ref)

    def transcript(self, run: Run) -> Transcript:
        """The run's transcript turns."""
        if not run.transcript_ref:
            return Transcript()
        try:
            return Transcript(turns_from_doc(load_manifest(self.root, run.transcript_ref)))
        except (Unreadable, BadToml, BadManifest) as exc:
            return Transcript(error=f"{run.transcript_ref}: {exc}")
        except RecursionError:
            return Transcript(error=f"{run.transcript_ref}: nested too deeply to read")

    def grader_checks(self, run: Run) -> tuple[GraderChecks, ...]:
        """Every grader's checks: recorded ones, else parsed from its output (cached)."""
        hit = self.check_cache.get(run.key)
        if isinstance(hit, tuple):
            return hit
        out = []
        for g in run.graders:
            if g.checks is not None:
                out.append(GraderChecks(g.name, g.checks))
                continue
            if not g.output_ref:
                out.append(GraderChecks(g.name, (), "no output recorded and no checks"))
                continue
            blob = self.text(g.output_ref)
            if blob.error:
                out.append(GraderChecks(g.name, (), f"{g.output_ref}: {blob.error}"))
                continue
            checks = parse_output(blob.text, g.format or None, exit_status=g.exit_status)
            out.append(GraderChecks(g.name, tuple(checks)))
        result = tuple(out)
        self.check_cache.put(run.key, result)
        return result

    def failures(self, run: Run) -> list[Failure]:
        """The run's failing checks, in grader then output order."""
        return [
            Failure(run.failure_id(check_id(gc.grader, c.key)), run.key, gc.grader, c)
            for gc in self.grader_checks(run)
            for c in gc.checks
            if c.failing
        ]
