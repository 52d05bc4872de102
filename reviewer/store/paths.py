"""Where things live: the default sessions folder and the bundled example corpus."""

from __future__ import annotations

from pathlib import Path

import reviewer


def bundled_sessions() -> Path:
    """The example corpus shipped with the package (or the checkout's ``sessions/``)."""
    here = Path(reviewer.__file__).resolve().parent
    installed = here / "examples"
    if installed.is_dir():
        return installed
    return here.parent / "sessions"


def default_sessions(cwd: Path | None = None) -> Path:
    """``./sessions`` when it exists, else the bundled corpus."""
    local = (cwd or Path.cwd()) / "sessions"
    return local if local.is_dir() else bundled_sessions()
