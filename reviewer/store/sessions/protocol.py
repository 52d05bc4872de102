"""What the review session and the labeller need from a sessions folder, as a Protocol.

:class:`~reviewer.store.sessions.store.SessionStore` is the real one; tests pass an in-memory
stand-in that implements the same methods. Every method may be called from a worker thread.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from reviewer.model import Failure, LoadError, Run
from reviewer.store.fs.untrusted import RawRead, TextBlob

if TYPE_CHECKING:
    from reviewer.store.index.cache import RunIndex
    from reviewer.store.sessions.scan import Corpus
    from reviewer.store.sessions.store import LRU, Changes, GraderChecks, Transcript


class Store(Protocol):
    """A sessions folder: scanned once, then read lazily and cached."""

    root: Path
    """The sessions folder."""
    index: RunIndex | None
    """The index cache, when one is in use."""
    evidence_contexts: LRU
    """Per run key: what its failures' evidence fingerprints share."""
    corpus: Corpus
    """The last scan: runs, sessions and load errors."""

    @property
    def runs(self) -> list[Run]:
        """Runs that loaded, in display order."""

    @property
    def errors(self) -> list[LoadError]:
        """Everything that did not load."""

    def scan(self) -> Corpus:
        """(Re)scan the folder."""

    def head(self, limit: int) -> Corpus:
        """The sessions and the first ``limit`` runs by folder name (a first screen's, while the
        folder is read; the store's runs until its first scan)."""

    def refresh(self) -> Changes:
        """Look at the folder again and say what changed."""

    def save_index(self) -> bool:
        """Write the index cache if anything new was learnt."""

    def run(self, key: str) -> Run | None:
        """A run by key."""

    def raw(self, ref: str, cap: int = ...) -> RawRead:
        """A referenced file's bytes, at most ``cap`` (Unreadable when it cannot be read)."""

    def read(self, ref: str, cap: int = ...) -> TextBlob:
        """A referenced file's text, read now."""

    def text(self, ref: str) -> TextBlob:
        """A referenced file's text (cached)."""

    def brief(self, run: Run) -> TextBlob:
        """The brief of a run."""

    def transcript(self, run: Run) -> Transcript:
        """A run's transcript."""

    def grader_checks(self, run: Run) -> tuple[GraderChecks, ...]:
        """Every grader's checks."""

    def failures(self, run: Run) -> list[Failure]:
        """The run's failing checks."""
