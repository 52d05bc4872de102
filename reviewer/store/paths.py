"""Where things live: the default sessions folder and the bundled example corpus."""

from __future__ import annotations

import os
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Literal

import reviewer

PROJECT_FILE_CAP = 1 << 20
"""The largest ``pyproject.toml`` read to tell a source checkout's example corpus."""


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
    """Whether a folder is the example corpus or lives inside an installed package: ``bundled``
    for the example corpus (shipped as ``reviewer.examples``, or a source checkout's ``sessions/``
    that becomes it: :func:`checkout_examples`), ``package`` for another folder of an installed
    package (under ``site-packages`` or ``dist-packages``), "" otherwise.

    Decided by where the folder really is, never by its write bit: a user's own virtualenv is
    writable, and a reinstall would delete anything written there.
    """
    real = Path(os.path.realpath(folder))
    package = Path(os.path.realpath(Path(reviewer.__file__).parent))
    if real.is_relative_to(package):
        return "bundled" if real.is_relative_to(package / "examples") else "package"
    if any(part in ("site-packages", "dist-packages") for part in real.parts):
        return "package"
    if any(checkout_examples(str(corpus)) for corpus in (real, *real.parents)):
        return "bundled"
    return ""


@lru_cache(maxsize=64)
def checkout_examples(folder: str) -> bool:
    """Whether a folder (a real path) is a source checkout's example corpus: the folder its
    ``pyproject.toml`` next to it ships as ``reviewer.examples``, which ``reviewer sessions`` opens
    in the Quick start. Labels and re-scores of it go where the installed corpus's go (the per-user
    data folder), never into the checkout, whose tests read the corpus as it is in git."""
    path = Path(folder)
    try:
        with open(path.parent / "pyproject.toml", "rb") as project:
            data = tomllib.loads(project.read(PROJECT_FILE_CAP).decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError, RecursionError):
        return False
    tool = data.get("tool")
    setuptools = tool.get("setuptools") if isinstance(tool, dict) else None
    package_dir = setuptools.get("package-dir") if isinstance(setuptools, dict) else None
    project_table = data.get("project")
    return (isinstance(package_dir, dict) and package_dir.get("reviewer.examples") == path.name
            and isinstance(project_table, dict) and project_table.get("name") == "reviewer")
