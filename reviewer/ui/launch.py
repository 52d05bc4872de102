"""Starting the app: settings, who is labelling, the review session, then the screen.

:func:`launch` builds the review session (no Textual) and starts reading the folder before it
imports the screen (:class:`~reviewer.ui.startup.early_scan.EarlyScan`: a folder with an index
cache is read at once, one without it by a child process on the other core while the UI is
imported), so the first failure is ready sooner.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

if TYPE_CHECKING:
    from reviewer.review.session import ReviewSession
    from reviewer.store.labels import Labeller
    from reviewer.store.sessions.inplace import LogSource
    from reviewer.store.sessions.protocol import Store
    from reviewer.store.settings.config import Settings
    from reviewer.ui.app import ReviewApp
    from reviewer.ui.startup.early_scan import EarlyScan

GC_YOUNG = 20_000
"""Allocations between young collections (Python's default is 700)."""


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
            early: "EarlyScan | None" = None) -> "ReviewApp":
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
        from reviewer.store.sessions import prescan

        child = prescan.start(Path(folder), logs)  # first, while the process has one thread
        from reviewer.store.sessions.store import SessionStore
        from reviewer.store.settings.config import load_settings

        settings, _ = load_settings()  # what the session needs; the keys are checked below, with the UI
        session, vocabulary_warning = build_session(SessionStore(Path(folder), logs=logs), reviewer, failure, settings)
        from reviewer.ui.startup.early_scan import EarlyScan

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
