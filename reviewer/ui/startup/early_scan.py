"""The folder's first scan, begun before the UI is imported.

:class:`EarlyScan` is made by the launcher (``reviewer.ui.launch``) right after the review session:
a folder with an index cache is read at once, one without it by a child process on the other core
(:mod:`reviewer.store.sessions.prescan`) while the UI is imported, so the first screen has its runs sooner.
The app takes the scan through :class:`reviewer.ui.startup.first_screen.FirstScan`; nothing else
in the app knows where it came from.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reviewer.review.runlist.folder import Scan
    from reviewer.review.session import ReviewSession
    from reviewer.store.sessions.prescan import Prescan

READ_AT_ONCE = 16 << 20
"""The biggest index cache read before the UI starts (10,000 to 35,000 runs, by what it holds of
them: under a second); a bigger folder opens among its first runs, and is read once they are
painted. (Below it, the head's first screen came 0.05-0.1 s sooner at 10,000 runs, but the whole
list 0.4-0.5 s later: after the first screen's colours, not before the UI.)"""
HEAD_FROM = 200
"""The fewest runs a folder without an index cache has for its first screen to open among its
first runs (the head's size, ``reviewer.ui.startup.first_screen.HEAD_RUNS``)."""


class EarlyScan:
    """The session's first scan, begun before the UI is imported (after the child that reads a
    folder without an index cache, when there is one: :mod:`reviewer.store.sessions.prescan`).

    A warm scan is mostly ``lstat`` calls, each of which lets go of the interpreter; beside a busy
    thread (the UI's imports, Textual's start) each one waited for it to let go in turn: in
    ``bench.py`` 10,000 runs took 0.9-1.0 s beside the app's start, 0.3 s alone. So a folder with
    an index cache (up to :data:`READ_AT_ONCE` bytes of it) is read at once, in the launching
    thread; the cache a child wrote is read once the UI is imported (:meth:`begin`) if the child
    is done by then, else by the first screen, ready to paint (:meth:`take`): Textual's start runs
    while the child finishes, and the cache is read in the app's thread, not in one beside it
    (there the read took 54 ms instead of 13, in a traced start). A bigger cache, and a child
    still reading when the screen is ready, leave the first screen to the folder's first runs
    (:meth:`pending`); the whole folder is then read in a thread (:meth:`after_head`). Any other
    folder is read in a thread beside the UI's start, whose screen says so if it is not done by then.
    """

    def __init__(self, session: "ReviewSession", prescan: "Prescan | None" = None) -> None:
        from reviewer.store.sessions.prescan import cache_size
        from reviewer.store.sessions.store import SessionStore

        self.future: Future[Scan] = Future()
        self.session = session
        self.prescan = prescan
        self.begun = False
        self.labels = True
        """Whether the scan loads the labels (not after a head: :meth:`after_head`)."""
        root = session.store.root
        logs = session.store.logs.attached if isinstance(session.store, SessionStore) else ()
        size = None if prescan is not None else cache_size(root, logs)
        self.deferred = prescan is None and (size > READ_AT_ONCE if size is not None
                                             else bool(logs) or deferred_without_cache(root))
        """Read after the first screen (:meth:`pending`): a big index cache, or a folder without one
        too small for a child (:data:`reviewer.store.sessions.prescan.CHILD_FROM`) and bigger than a head."""
        if prescan is None and not self.deferred:
            if size is not None:
                self.run()
            else:
                self.begin(in_thread=True)

    def begin(self, in_thread: bool = False) -> None:
        """The UI is imported: read the folder here when its child is done (else :meth:`take` does);
        ``in_thread``: read it in a thread."""
        if self.begun or self.future.done() or (self.deferred and not in_thread):
            return
        if in_thread or self.prescan is None or self.prescan.finished():
            self.begun = True
            if in_thread:
                threading.Thread(target=self.run, name="early-scan", daemon=True).start()
            else:
                self.run()

    def pending(self) -> bool:
        """A child is still reading a folder without an index cache, or the cache is too big to read
        before the screen: the first screen may show the folder's first runs meanwhile."""
        if self.begun or self.future.done():
            return False
        return self.deferred or (self.prescan is not None and not self.prescan.finished())

    def after_head(self) -> None:
        """The first screen showed the folder's first runs, with the labels: read the folder (the
        child's cache) in a thread, without loading the labels again (the reviewer may be labelling
        by then)."""
        self.labels = False
        self.begin(in_thread=True)

    def take(self, timeout: float) -> Scan | None:
        """The scan for the first screen, about to paint: once the child is done (waited for up to
        ``timeout``) its cache is read here; else None, and a thread reads it for the scan worker,
        which waits on :attr:`future` and says what went wrong."""
        if self.deferred:
            self.begin(in_thread=True)
        elif self.prescan is not None and not self.begun and not self.future.done():
            if not self.prescan.finished(within=timeout):
                self.begin(in_thread=True)
                return None
            self.begin()
        try:
            return self.future.result(timeout=timeout)
        except Exception:  # noqa: BLE001 - not read yet, or failed: the worker takes it
            return None

    def run(self) -> None:
        """Read the folder; the result (or what went wrong) waits in the future."""
        session = self.session
        try:
            if self.prescan is not None:
                self.prescan.wait()
            self.future.set_result(session.folder.read_scan(session.identity if self.labels else None, self.labels))
        except BaseException as exc:  # handed to the scan worker, which reports it
            self.future.set_exception(exc)


def deferred_without_cache(root: Path) -> bool:
    """A folder without an index cache and no child reading it, whose first runs are not all of it
    but which is too small for a child (:data:`reviewer.store.sessions.prescan.CHILD_FROM`): the first
    screen opens among its first runs, and the rest is read once they are painted. Smaller ones
    are read in a thread beside the UI's start, done before the screen is ready; so are bigger
    ones without a child (one core, the cache off, a test's process): parsing 10,000 manifests
    after the first screen made the whole list come 0.15-0.35 s later than beside the start."""
    from reviewer.store.sessions.prescan import CHILD_FROM, run_folders

    return HEAD_FROM <= run_folders(root, CHILD_FROM) < CHILD_FROM
