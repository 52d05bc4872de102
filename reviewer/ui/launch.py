"""Starting the app from the command line: settings, reviewer, labels, then the screen."""

from __future__ import annotations

from pathlib import Path

from reviewer.store.sessions import SessionStore


def launch(folder: Path, failure: str | None = None, reviewer: str | None = None) -> int:
    """Open the review app on a sessions folder; returns the exit status."""
    from reviewer.store.config import load_settings
    from reviewer.store.identity import resolve_reviewer
    from reviewer.ui.app import ReviewApp
    from reviewer.ui.bindings import DEFAULT_KEYS

    settings, warnings = load_settings(known_binding_ids=DEFAULT_KEYS)
    name = resolve_reviewer(reviewer, settings.reviewer)
    app = ReviewApp(
        SessionStore(Path(folder)),
        start_failure=failure,
        reviewer=name,
        keymap=settings.keys,
        settings=settings,
        warnings=warnings,
    )
    result = app.run()
    return int(result or 0) if app.return_code is None else app.return_code
