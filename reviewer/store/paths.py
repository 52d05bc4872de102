"""Where things live: the default sessions folder and the bundled example corpus."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

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


def installed_location(folder: Path) -> Literal["bundled", "package", ""]:
    """Whether a folder lives inside an installed package: ``bundled`` for the example corpus
    shipped as ``reviewer.examples``, ``package`` for another folder of an installed package
    (under ``site-packages`` or ``dist-packages``), "" otherwise.

    Decided by where the folder really is, never by its write bit: a user's own virtualenv is
    writable, and a reinstall would delete anything written there.
    """
    real = Path(os.path.realpath(folder))
    package = Path(os.path.realpath(Path(reviewer.__file__).parent))
    if real.is_relative_to(package):
        return "bundled" if real.is_relative_to(package / "examples") else "package"
    if any(part in ("site-packages", "dist-packages") for part in real.parts):
        return "package"
    return ""
