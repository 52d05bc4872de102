"""Where things live: the default sessions folder, the bundled example corpus, and the per-user
folder that takes what the program writes for a folder it must not write into."""

from __future__ import annotations

import hashlib
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
    ``pyproject.toml`` next to it ships as ``reviewer/examples``, which ``reviewer sessions`` opens
    in the Quick start. Labels and re-scores of it go where the installed corpus's go (the per-user
    data folder), never into the checkout, whose tests read the corpus as it is in git."""
    path = Path(folder)
    try:
        with open(path.parent / "pyproject.toml", "rb") as project:
            data = tomllib.loads(project.read(PROJECT_FILE_CAP).decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError, RecursionError):
        return False
    shipped: object = data
    for key in ("tool", "hatch", "build", "targets", "wheel", "force-include"):
        shipped = shipped.get(key) if isinstance(shipped, dict) else None
    project_table = data.get("project")
    return (isinstance(shipped, dict) and shipped.get(path.name) == "reviewer/examples"
            and isinstance(project_table, dict) and project_table.get("name") == "reviewer")


def user_data_dir() -> Path:
    """``$XDG_DATA_HOME/reviewer`` (default ``~/.local/share/reviewer``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "reviewer"


def fallback_root(root: Path) -> Path:
    """Where labels (and tags, re-scores) of a read-only or installed sessions folder go: a per-user folder.

    The bundled corpus gets one fixed folder (``reviewer-examples``), so its labels survive a
    reinstall or a new virtualenv; any other folder one keyed by its real path.
    """
    if installed_location(root) == "bundled":
        return user_data_dir() / "labels" / "reviewer-examples"
    real = os.path.realpath(root)
    digest = hashlib.sha256(real.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    name = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in Path(real).name)[:40]
    return user_data_dir() / "labels" / f"{name}-{digest}"


def writable(folder: Path) -> bool:
    """True when files can be created in ``folder`` (or in its nearest existing parent)."""
    probe = folder
    while not probe.exists():
        if probe.parent == probe:
            return False
        probe = probe.parent
    return probe.is_dir() and os.access(probe, os.W_OK | os.X_OK)


def redirect_reason(root: Path, folder: Path | None = None) -> str:
    """Why what is written for ``root`` (in ``folder`` below it, when given) goes to the per-user
    folder, or "" when it goes in the sessions folder.

    A folder inside an installed package (the bundled corpus, or any folder of an installed
    copy) is never written into, whatever its write bit says: a reinstall would delete it.
    """
    where = installed_location(root)
    if where == "bundled":
        package = Path(os.path.realpath(Path(reviewer.__file__).parent))
        if Path(os.path.realpath(root)).is_relative_to(package):
            return "the sessions folder is the example corpus inside the installed reviewer package"
        return "the sessions folder is the example corpus of this source checkout (kept as it is in git)"
    if where == "package":
        return "the sessions folder is inside an installed package"
    if not writable(Path(folder) if folder is not None else Path(root)):
        return "the sessions folder is not writable"
    return ""
