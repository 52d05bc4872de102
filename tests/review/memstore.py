"""An in-memory sessions store for the review session's tests: the Store protocol, no folder to read.

Runs are built from a few facts each (task, model, checks, files, turns); their texts live in a
dict. Labels still go through the real labels store into ``root`` (a test's temporary folder).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reviewer.model import (
    Attempt,
    AttemptFile,
    Check,
    CheckStatus,
    Failure,
    GraderRecord,
    LoadError,
    Run,
    Turn,
    check_id,
)
from reviewer.store.fs.untrusted import Missing, RawRead, TextBlob
from reviewer.store.sessions.scan import Corpus
from reviewer.store.sessions.store import LRU, Changes, GraderChecks, Transcript


@dataclass
class Made:
    """A run to hold: its failing and passing checks, its files and its transcript."""

    session: str
    id: str
    task: str = "roman-go"
    model: str = "model-a"
    failing: tuple[str, ...] = ("TestA",)
    passing: tuple[str, ...] = ()
    files: dict[str, str] = field(default_factory=lambda: {"roman.go": "package roman\n"})
    turns: tuple[Turn, ...] = ()
    message: str = "want IV"


class MemoryStore:
    """The Store protocol over runs held in memory."""

    def __init__(self, root: Path, made: list[Made]) -> None:
        self.root = root
        self.index = None
        self.evidence_contexts = LRU(8)
        self.texts: dict[str, str] = {}
        self.turns: dict[str, tuple[Turn, ...]] = {}
        self.corpus = Corpus(root=root)
        self.pending: list[Run] | None = None
        self.set([self.build(m) for m in made])

    def build(self, m: Made) -> Run:
        """One run, its texts remembered."""
        files = []
        for path, text in m.files.items():
            ref = f"{m.session}/runs/{m.id}/attempts/1/{path}"
            self.texts[ref] = text
            files.append(AttemptFile(path, ref))
        self.texts[f"{m.session}/runs/{m.id}/brief.md"] = f"# {m.task}\n\nWrite it.\n"
        self.texts[f"{m.session}/runs/{m.id}/out.txt"] = "\n".join(f"--- FAIL: {k}" for k in m.failing) + "\n"
        checks = tuple(Check(k, k, CheckStatus.FAIL, m.message) for k in m.failing) + tuple(
            Check(k, k, CheckStatus.PASS) for k in m.passing)
        run = Run(m.session, m.id, m.task, m.model, outcome="fail" if m.failing else "pass",
                  brief_ref=f"{m.session}/runs/{m.id}/brief.md",
                  transcript_ref=f"{m.session}/runs/{m.id}/transcript.toml" if m.turns else "",
                  attempts=(Attempt(1, tuple(files)),),
                  graders=(GraderRecord("g", 1, output_ref=f"{m.session}/runs/{m.id}/out.txt", checks=checks),))
        self.turns[run.key] = m.turns
        return run

    def set(self, runs: list[Run]) -> None:
        """Hold these runs (in display order)."""
        self.corpus = Corpus(root=self.root, runs=runs)
        self.by_key = {r.key: r for r in runs}

    def later(self, made: list[Made]) -> None:
        """The folder changes: the next refresh finds these runs instead."""
        self.pending = [self.build(m) for m in made]

    @property
    def runs(self) -> list[Run]:
        """Every run."""
        return self.corpus.runs

    @property
    def errors(self) -> list[LoadError]:
        """Nothing failed to load."""
        return []

    def scan(self) -> Corpus:
        """The runs held."""
        return self.corpus

    def head(self, limit: int) -> Corpus:
        """The first ``limit`` runs held, by run id."""
        first = sorted(self.corpus.runs, key=lambda r: (r.session, r.id))[:limit]
        return Corpus(root=self.root, sessions=dict(self.corpus.sessions),
                      runs=sorted(first, key=lambda r: (r.session, r.task, r.model, r.id)))

    def refresh(self) -> Changes:
        """What :meth:`later` changed."""
        if self.pending is None:
            return Changes([], [], [])
        old, runs, self.pending = self.by_key, self.pending, None
        new = {r.key: r for r in runs}
        self.set(runs)
        return Changes([r for k, r in new.items() if k not in old], [r for k, r in new.items() if k in old and old[k] != r],
                       [k for k in old if k not in new])

    def save_index(self) -> bool:
        """No index."""
        return False

    def run(self, key: str) -> Run | None:
        """A run by key."""
        return self.by_key.get(key)

    def raw(self, ref: str, cap: int = 1 << 30) -> RawRead:
        """A held text's bytes."""
        text = self.texts.get(ref)
        if text is None:
            raise Missing("file not found")
        data = text.encode()
        return RawRead(data[:cap], len(data), len(data) > cap)

    def read(self, ref: str, cap: int = 1 << 30) -> TextBlob:
        """A held text."""
        return self.text(ref)

    def text(self, ref: str) -> TextBlob:
        """A held text."""
        text = self.texts.get(ref)
        return TextBlob(error="not recorded") if text is None else TextBlob(text, len(text))

    def brief(self, run: Run) -> TextBlob:
        """The run's brief."""
        return self.text(run.brief_ref)

    def transcript(self, run: Run) -> Transcript:
        """The run's turns."""
        return Transcript(self.turns.get(run.key, ()))

    def grader_checks(self, run: Run) -> tuple[GraderChecks, ...]:
        """Recorded checks."""
        return tuple(GraderChecks(g.name, g.checks or ()) for g in run.graders)

    def failures(self, run: Run) -> list[Failure]:
        """Failing checks."""
        return [Failure(run.failure_id(check_id(g.name, c.key)), run.key, g.name, c)
                for g in run.graders for c in (g.checks or ()) if c.failing]
