"""Starting the app from the command line."""

from __future__ import annotations

from pathlib import Path

from reviewer.store.sessions import SessionStore


def launch(folder: Path, failure: str | None = None, reviewer: str | None = None) -> int:
    """Open the review app on a sessions folder; returns the exit status."""
    from reviewer.ui.app import ReviewApp

    app = ReviewApp(SessionStore(Path(folder)), start_failure=failure, reviewer=reviewer)
    result = app.run()
    return int(result or 0) if app.return_code is None else app.return_code
