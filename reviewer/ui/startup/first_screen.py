"""What the first screen opens with, and the bounds of building it in one paint.

The app builds its first screen in the app's thread, before it paints: the scan, the run list's
rows and the opening move (its counting and its view) are taken one after the other, where a
worker's hop for each would let the screen paint a half-done state (an empty run list, then the
list without a failure, then the panes), each a full frame. :class:`FirstScan` gives the scan
it opens with: the launcher's (:class:`~reviewer.ui.startup.early_scan.EarlyScan`), waited for a
little (:data:`SCAN_WAIT_SECONDS`), or, while a folder is still being read (a child parsing every
``run.toml`` of a folder without an index cache, or a cache too big to read first), the folder's
first runs (:meth:`FirstScan.take`); the whole list follows. The app's one path for a move
bounds the opening move by :data:`SEEK_SECONDS` (:class:`Deadline`) and builds up to
:data:`FIRST_ROWS` rows at once; whatever is over its bound or fails here is read by the usual
worker, which reports what went wrong.
"""

from __future__ import annotations

import time
from concurrent.futures import Future
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from reviewer.review.runlist.folder import Scan
    from reviewer.review.session import ReviewSession
    from reviewer.ui.startup.early_scan import EarlyScan

SCAN_WAIT_SECONDS = 0.2
"""The longest the screen, ready to paint, waits for the launcher's scan. A folder without an index
cache is read by a child on the other core, which is mostly done by then: painting without it
would cost an empty frame and a worker's hop, then the first failure's frame."""
SEEK_SECONDS = 0.3
"""The longest the opening move is carried out in the app's thread before a worker takes it."""
HEAD_RUNS = 200
"""The runs a first screen reads by itself while the folder is still being read (200 manifests:
15 ms; the list pane shows about 40)."""
REST_SECONDS = 0.5
"""After a head, the rest of the folder is read once the first screen's colours are painted, or
this long after it at the latest: read beside the colour pass and the read-ahead, 10,000 runs from
their index cache took 0.9-1.3 s instead of 0.15-0.2."""
FIRST_ROWS = 50_000
"""The first run list is built in the app's thread up to this many runs (10,000 rows: 30 ms)."""


class Deadline:
    """A ``cancelled`` for work carried out in the app's thread: true once ``seconds`` have passed
    (and from then on)."""

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds
        self.passed = False

    def __call__(self) -> bool:
        self.passed = self.passed or time.monotonic() > self.at
        return self.passed


class FirstScan:
    """The scan the first screen opens with, and the rest of the folder after a head."""

    def __init__(self, early: EarlyScan | None) -> None:
        self.early = early
        """The scan the launcher began (None: the app scans the folder itself)."""
        self.rest: Callable[[], None] | None = None
        """After a head: what reads the rest of the folder (:meth:`read_rest` calls it once)."""

    @property
    def scan_future(self) -> Future[Scan] | None:
        """What the scan worker waits for (None: it scans the folder itself)."""
        return self.early.future if self.early is not None else None

    def take(self, session: ReviewSession) -> tuple[Scan | None, bool]:
        """What the first screen opens with, and whether it is a head (the folder's first runs,
        :meth:`head`); None: the scan worker reads the folder (and says what went wrong)."""
        early = self.early
        if early is None:
            return None, False
        head = self.head(session, early)
        return (head, True) if head is not None else (early.take(SCAN_WAIT_SECONDS), False)

    def head(self, session: ReviewSession, early: EarlyScan) -> Scan | None:
        """The folder's first :data:`HEAD_RUNS` runs, read here, when the launcher's scan is pending
        (a child still reading a folder without an index cache, or a big cache) and no failure was
        asked for (it may be anywhere): the review opens among them, the whole list follows
        (:meth:`read_rest`, once they are painted). None: the whole scan as usual."""
        if session.start_failure or not early.pending():
            return None
        try:
            scan = session.folder.read_head(HEAD_RUNS, session.identity)
        except Exception:  # noqa: BLE001 - the whole scan reads it again and says what went wrong
            return None
        if not scan.runs:  # none of the first folders loaded: the whole scan says why
            return None
        self.rest = early.after_head
        return scan

    def read_rest(self) -> None:
        """Read the rest of the folder after a head, if not begun yet."""
        rest, self.rest = self.rest, None
        if rest is not None:
            rest()
