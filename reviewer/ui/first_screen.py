"""The first screen in one paint.

While the app opens, the scan begun by the launcher, the run list's rows, the seek for the first
failure and its view are taken in the app's thread, one after the other, instead of each in a worker whose result
comes back by message: every hop would let the screen paint a half-done state (an empty run
list, then the list without a failure, then the panes), each paint a full frame of the screen.
Bounded: a launcher's scan not done within :data:`SCAN_WAIT_SECONDS` and a seek that takes
longer than :data:`SEEK_SECONDS` (many runs without a failure, read from a slow disk) are handed
to workers, and anything that fails here is read again by its worker, which reports the failure
the usual way. A folder still being read when the screen is ready (a child parsing every
``run.toml`` of a folder without an index cache, or a cache too big to read first) opens among
its first runs (:meth:`FirstScreen.head`); the whole list follows.
"""

from __future__ import annotations

import time
from concurrent.futures import Future
from typing import Callable, Protocol

from reviewer.review.folder import Scan
from reviewer.review.selection import Selection
from reviewer.review.session import ReviewSession
from reviewer.ui import messages as m
from reviewer.ui import workers as w

SCAN_WAIT_SECONDS = 0.2
"""The longest the screen, ready to paint, waits for the launcher's scan. A folder without an index
cache is read by a child on the other core, which is mostly done by then: painting without it
would cost an empty frame and a worker's hop, then the first failure's frame."""
SEEK_SECONDS = 0.3
"""The longest the first seek runs in the app's thread before a worker takes it."""
HEAD_RUNS = 200
"""The runs a first screen reads by itself while the folder is still being read (200 manifests:
15 ms; the list pane shows about 40)."""
REST_SECONDS = 0.5
"""After a head, the rest of the folder is read once the first screen's colours are painted, or
this long after it at the latest: read beside the colour pass and the read-ahead, 10,000 runs from
their index cache took 0.9-1.3 s instead of 0.15-0.2."""
FIRST_ROWS = 50_000
"""The first run list is built in the app's thread up to this many runs (10,000 rows: 30 ms)."""


class BegunScan(Protocol):
    """The scan the launcher began (``reviewer.ui.launch.EarlyScan``)."""

    future: Future[Scan]
    """Its result, or what went wrong (for the scan worker)."""

    def take(self, timeout: float) -> Scan | None:
        """The result, waited for up to ``timeout``; None: not yet, or it failed."""

    def pending(self) -> bool:
        """A child process is still reading a folder without an index cache, or the cache is too big
        to read before the screen."""

    def after_head(self) -> None:
        """A head was shown: read the rest without loading the labels again."""


class Budget:
    """A seek's ``cancelled``: true once its time is spent (and from then on)."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds
        self.spent = False

    def __call__(self) -> bool:
        self.spent = self.spent or time.monotonic() > self.deadline
        return self.spent


class FirstScreen:
    """Whether the app is still opening (reads are taken here), and the reads themselves."""

    def __init__(self) -> None:
        self.opening = False
        self.rest: Callable[[], None] | None = None
        """After a head: what reads the rest of the folder (:meth:`read_rest` calls it once)."""

    def read_rest(self) -> None:
        """Read the rest of the folder after a head, if not begun yet."""
        rest, self.rest = self.rest, None
        if rest is not None:
            rest()

    def scan(self, early: BegunScan | None) -> Scan | None:
        """The launcher's scan, waited for a little; None: a worker takes it (and reports what went
        wrong), or scans when the launcher began none."""
        return None if early is None else early.take(SCAN_WAIT_SECONDS)

    def take(self, session: ReviewSession, early: BegunScan | None) -> tuple[Scan | None, bool]:
        """What the first screen opens with, and whether it is a head (:meth:`head`, else
        :meth:`scan`); None: a worker reads the folder."""
        head = self.head(session, early)
        return (head, True) if head is not None else (self.scan(early), False)

    def head(self, session: ReviewSession, early: BegunScan | None) -> Scan | None:
        """The folder's first :data:`HEAD_RUNS` runs, read here, when the launcher's scan is pending
        (a child still reading a folder without an index cache, or a big cache) and no failure was
        asked for (it may be anywhere): the review opens among them, the whole list follows
        (:meth:`read_rest`, once they are painted). None: the whole scan as usual."""
        if early is None or session.start_failure or not early.pending():
            return None
        try:
            scan = session.folder.read_head(HEAD_RUNS, session.identity)
        except Exception:  # noqa: BLE001 - the whole scan reads it again and says what went wrong
            return None
        if not scan.runs:  # none of the first folders loaded: the whole scan says why
            return None
        self.rest = early.after_head
        return scan

    def builds(self, runs: int) -> bool:
        """Whether the run list of a big folder is built here rather than in a worker."""
        return self.opening and runs <= FIRST_ROWS

    def seek(self, session: ReviewSession, kind: str, current: Selection, order: list[str], step: int
             ) -> m.Seeked | None:
        """The first failure found here; None: a worker looks for it."""
        if not self.opening:
            return None
        budget = Budget(SEEK_SECONDS)
        try:
            move, found = session.seek(kind, current, order, step, budget)
        except Exception:  # noqa: BLE001 - the worker seeks again and reports what went wrong
            return None
        return None if budget.spent else m.Seeked(kind, current, move, found)

    def view(self, session: ReviewSession, selection: Selection, caps: tuple[int, int]) -> m.ViewReady | None:
        """The first failure's view, plain (its Markdown and colours come from a worker after the
        first paint); None: a worker reads it."""
        if not self.opening:
            return None
        self.opening = False  # one view: what follows is the reviewer's, read in workers
        try:
            return w.view_now(session, selection, caps)
        except Exception:  # noqa: BLE001 - the worker reads it again and reports what went wrong
            return None
