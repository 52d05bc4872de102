"""Starting the app: settings, who is labelling, the review session, then the screen."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from reviewer.store.config import Settings
    from reviewer.store.labeller import Labeller
    from reviewer.store.protocol import Store
    from reviewer.ui.app import ReviewApp

GC_YOUNG = 20_000
"""Allocations between young collections (Python's default is 700)."""


def build_app(store: "Store", reviewer: str | None = None, start_failure: str | None = None,
              keymap: Mapping[str, str] | None = None, settings: "Settings | None" = None,
              warnings: list[str] | None = None, labeller: "Labeller | None" = None,
              app_class: "type[ReviewApp] | None" = None) -> "ReviewApp":
    """The review app on a store: a review session for the reviewer, with the folder's tags."""
    from reviewer.review.session import ReviewSession
    from reviewer.store.config import Settings
    from reviewer.store.identity import resolve_identity
    from reviewer.store.labeller import Labeller
    from reviewer.store.labels import LabelStore
    from reviewer.store.tags import load_vocabulary
    from reviewer.ui.app import ReviewApp

    settings = settings or Settings()
    identity = resolve_identity(reviewer, settings.reviewer)
    name = identity.name
    labeller = labeller or Labeller(store, LabelStore(store.root, name))
    vocabulary, vocabulary_warning = load_vocabulary(store.root)
    session = ReviewSession(store, labeller, auto_advance=settings.auto_advance, blind=settings.blind,
                            start_failure=start_failure or "", vocabulary=vocabulary, identity=identity)
    return (app_class or ReviewApp)(session, settings, keymap,
                                    [*(warnings or []), *([vocabulary_warning] if vocabulary_warning else [])])


def launch(folder: Path, failure: str | None = None, reviewer: str | None = None) -> int:
    """Open the review app on a sessions folder; returns the exit status."""
    from reviewer.store.config import load_settings
    from reviewer.store.sessions import SessionStore
    from reviewer.ui.bindings import DEFAULT_KEYS

    settings, warnings = load_settings(known_binding_ids=DEFAULT_KEYS)
    app = build_app(SessionStore(Path(folder)), reviewer, failure, settings.keys, settings, warnings)
    # What is loaded by now lives as long as the process: out of the collector's full passes, which
    # would otherwise walk it again at every start; and fewer, not longer, young collections (a
    # screen paint makes thousands of short-lived objects).
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 20, 100)
    result = app.run()
    return int(result or 0) if app.return_code is None else app.return_code
