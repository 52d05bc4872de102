"""Starting the app from the command line: settings, reviewer, the review session, then the screen."""

from __future__ import annotations

import gc
from pathlib import Path

GC_YOUNG = 20_000
"""Allocations between young collections (Python's default is 700)."""


def launch(folder: Path, failure: str | None = None, reviewer: str | None = None) -> int:
    """Open the review app on a sessions folder; returns the exit status."""
    from reviewer.review.session import ReviewSession
    from reviewer.store.config import load_settings
    from reviewer.store.identity import resolve_reviewer
    from reviewer.store.labeller import Labeller
    from reviewer.store.labels import LabelStore
    from reviewer.store.sessions import SessionStore
    from reviewer.store.tags import load_vocabulary
    from reviewer.ui.app import ReviewApp
    from reviewer.ui.bindings import DEFAULT_KEYS

    settings, warnings = load_settings(known_binding_ids=DEFAULT_KEYS)
    name = resolve_reviewer(reviewer, settings.reviewer)
    store = SessionStore(Path(folder))
    vocabulary, vocabulary_warning = load_vocabulary(store.root)
    session = ReviewSession(store, Labeller(store, LabelStore(store.root, name)), auto_advance=settings.auto_advance,
                            blind=settings.blind, start_failure=failure or "", vocabulary=vocabulary)
    app = ReviewApp(session, settings, settings.keys, [*warnings, *([vocabulary_warning] if vocabulary_warning else [])])
    # What is loaded by now lives as long as the process: out of the collector's full passes, which
    # would otherwise walk it again at every start; and fewer, not longer, young collections (a
    # screen paint makes thousands of short-lived objects).
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 20, 100)
    result = app.run()
    return int(result or 0) if app.return_code is None else app.return_code
