"""Starting the app: settings, who is labelling, the review session, then the screen.

:func:`launch` builds the review session (no Textual) and starts reading the folder before it
imports the screen (the app's scan worker takes the scan begun here, see :class:`EarlyScan`): a
folder with an index cache is read at once, one without it by a child process on the other core
while the UI is imported, so the first failure is ready sooner.
"""

from __future__ import annotations

import gc
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

if TYPE_CHECKING:
    from reviewer.review.folder import Scan
    from reviewer.review.session import ReviewSession
    from reviewer.store.index.prescan import Prescan
    from reviewer.store.labels import Labeller
    from reviewer.store.sessions.inplace import LogSource
    from reviewer.store.sessions.protocol import Store
    from reviewer.store.settings.config import Settings
    from reviewer.ui.app import ReviewApp

READ_AT_ONCE = 16 << 20
"""The biggest index cache read before the UI starts (10,000 to 35,000 runs, by what it holds of
them: under a second); a bigger folder opens among its first runs, and is read once they are
painted. (Below it, the head's first screen came 0.05-0.1 s sooner at 10,000 runs, but the whole
list 0.4-0.5 s later: after the first screen's colours, not before the UI.)"""
HEAD_FROM = 200
"""The fewest runs a folder without an index cache has for its first screen to open among its
first runs (the head's size, ``reviewer.ui.first_screen.HEAD_RUNS``)."""
GC_YOUNG = 20_000
"""Allocations between young collections (Python's default is 700)."""


class EarlyScan:
    """The session's first scan, begun before the UI is imported (after the child that reads a
    folder without an index cache, when there is one: :mod:`reviewer.store.index.prescan`).

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
        from reviewer.store.index.prescan import cache_size
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
        too small for a child (:data:`reviewer.store.index.prescan.CHILD_FROM`) and bigger than a head."""
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
    but which is too small for a child (:data:`reviewer.store.index.prescan.CHILD_FROM`): the first
    screen opens among its first runs, and the rest is read once they are painted. Smaller ones
    are read in a thread beside the UI's start, done before the screen is ready; so are bigger
    ones without a child (one core, the cache off, a test's process): parsing 10,000 manifests
    after the first screen made the whole list come 0.15-0.35 s later than beside the start."""
    from reviewer.store.index.prescan import CHILD_FROM, run_folders

    return HEAD_FROM <= run_folders(root, CHILD_FROM) < CHILD_FROM


def build_session(store: "Store", reviewer: str | None = None, start_failure: str | None = None,
                  settings: "Settings | None" = None, labeller: "Labeller | None" = None
                  ) -> tuple["ReviewSession", str | None]:
    """A review session for the reviewer, with the folder's tags; and the tags file's problem, if any."""
    from reviewer.review.session import ReviewSession
    from reviewer.store.labels import Labeller, LabelStore
    from reviewer.store.labels.tags import load_vocabulary
    from reviewer.store.settings.config import Settings
    from reviewer.store.settings.identity import resolve_identity

    settings = settings or Settings()
    identity = resolve_identity(reviewer, settings.reviewer)
    labeller = labeller or Labeller(store, LabelStore(store.root, identity.name))
    vocabulary, vocabulary_warning = load_vocabulary(store.root)
    session = ReviewSession(store, labeller, auto_advance=settings.auto_advance, blind=settings.blind,
                            start_failure=start_failure or "", vocabulary=vocabulary, identity=identity)
    return session, vocabulary_warning


def build_app(store: "Store", reviewer: str | None = None, start_failure: str | None = None,
              keymap: Mapping[str, str] | None = None, settings: "Settings | None" = None,
              warnings: list[str] | None = None, labeller: "Labeller | None" = None,
              app_class: "type[ReviewApp] | None" = None) -> "ReviewApp":
    """The review app on a store: a review session for the reviewer, with the folder's tags."""
    session, vocabulary_warning = build_session(store, reviewer, start_failure, settings, labeller)
    return app_for(session, settings, keymap, [*(warnings or []), *([vocabulary_warning] if vocabulary_warning else [])],
                   app_class)


def app_for(session: "ReviewSession", settings: "Settings | None", keymap: Mapping[str, str] | None,
            warnings: list[str], app_class: "type[ReviewApp] | None" = None,
            early: EarlyScan | None = None) -> "ReviewApp":
    """The app around a session."""
    from reviewer.ui.app import ReviewApp

    return (app_class or ReviewApp)(session, settings, keymap, warnings, early_scan=early)


def tune_collector() -> None:
    """Just before the app runs: what is loaded by now lives as long as the process, so out of the
    collector's full passes, which would otherwise walk it again at every start; and fewer, not
    longer, young collections (a screen paint makes thousands of short-lived objects)."""
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 20, 100)


def launch(folder: Path, failure: str | None = None, reviewer: str | None = None,
           logs: "Sequence[LogSource]" = ()) -> int:
    """Open the review app on a sessions folder (``logs``: harness logs named instead, read in place,
    their labels in ``folder``); returns the exit status.

    No cyclic collection until the app runs: the imports and the session make objects that live as
    long as the process, and each collection on the way walked them all again (the UI's import
    chain alone took 10 ms longer); :func:`tune_collector` then freezes them."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        from reviewer.store.index import prescan

        child = prescan.start(Path(folder), logs)  # first, while the process has one thread
        from reviewer.store.sessions.store import SessionStore
        from reviewer.store.settings.config import load_settings

        settings, _ = load_settings()  # what the session needs; the keys are checked below, with the UI
        session, vocabulary_warning = build_session(SessionStore(Path(folder), logs=logs), reviewer, failure, settings)
        early = EarlyScan(session, child)
        from reviewer.ui.bindings import DEFAULT_KEYS

        settings, warnings = load_settings(known_binding_ids=DEFAULT_KEYS)
        app = app_for(session, settings, settings.keys,
                      [*warnings, *([vocabulary_warning] if vocabulary_warning else [])], early=early)
        early.begin()
    finally:
        if collecting:
            gc.enable()
    tune_collector()
    try:
        result = app.run()
    finally:
        if child is not None:
            child.stop()
    return int(result or 0) if app.return_code is None else app.return_code
