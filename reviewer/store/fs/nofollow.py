"""Folders the project writes into, made and checked from a trusted root down, never through a link.

A sessions repository can commit a symlink anywhere: ``<session>/labels`` pointing at a folder
elsewhere on the machine, a ``rescores`` link, a link among an import's target folders. Checking
that the file written is not a link is not enough; every folder on the way must be a real folder
below the root. :func:`ensure_dir` walks from the root one component at a time with directory
descriptors opened ``O_NOFOLLOW``, creating what is missing, and refuses a link or a non-folder on
the way with :class:`LinkOnPath` (an ``OSError``, so callers that report write failures report it).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path, PurePosixPath

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class LinkOnPath(OSError):
    """A folder on the way to a write is a symlink or not a folder: nothing was written."""


def components(rel: str | PurePosixPath) -> list[str]:
    """The parts of a relative path; refuses absolute paths and ``..``."""
    path = PurePosixPath(rel)
    if path.is_absolute():
        raise LinkOnPath(f"{rel}: an absolute path where a path inside the folder was expected")
    parts = [p for p in path.parts if p not in ("", ".")]
    if ".." in parts:
        raise LinkOnPath(f"{rel}: '..' leaves the folder")
    return parts


def ensure_dir(root: Path, rel: str | PurePosixPath, mode: int = 0o777) -> Path:
    """Make ``root/rel`` a real folder (creating missing parts) without following any link below ``root``.

    ``root`` itself is trusted (the user named it). Raises :class:`LinkOnPath` when a component
    is a symlink or not a folder, ``OSError`` for other failures. Returns ``root/rel``.
    """
    parts = components(rel)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        here = root
        for part in parts:
            here = here / part
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, mode, dir_fd=fd)
            try:
                child = os.open(part, DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                raise LinkOnPath(f"{here}: {refusal(fd, part)}; nothing was written there") from exc
            os.close(fd)
            fd = child
        return here
    finally:
        os.close(fd)


def refusal(dir_fd: int, name: str) -> str:
    """Why ``name`` in a folder cannot be entered, in words."""
    try:
        st = os.lstat(name, dir_fd=dir_fd)
    except OSError as exc:
        return exc.strerror or "cannot be opened"
    if stat.S_ISLNK(st.st_mode):
        return "is a symbolic link (a folder reviewer writes into must be a real folder inside the sessions folder)"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a folder"
    return "cannot be opened"


def check_dir(root: Path, rel: str | PurePosixPath) -> Path:
    """Like :func:`ensure_dir` but creates nothing; raises ``FileNotFoundError`` when a part is missing."""
    parts = components(rel)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        here = root
        for part in parts:
            here = here / part
            try:
                child = os.open(part, DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                raise
            except OSError as exc:
                raise LinkOnPath(f"{here}: {refusal(fd, part)}") from exc
            os.close(fd)
            fd = child
        return here
    finally:
        os.close(fd)


def make_folder(trusted: Path, folder: Path, mode: int = 0o777) -> Path:
    """Make ``folder`` (and what is missing above it) without following a link below ``trusted``.

    ``trusted`` is a root the user chose or owns (the sessions folder, ``$XDG_DATA_HOME``): links
    in it and above it are the user's own and are followed; below it nothing is. A ``folder``
    outside ``trusted`` is made from its nearest existing ancestor. Raises :class:`LinkOnPath`.
    """
    trusted, folder = Path(os.path.abspath(trusted)), Path(os.path.abspath(folder))
    root = trusted if folder.is_relative_to(trusted) else folder
    while not os.path.isdir(root):
        if root.parent == root:
            raise LinkOnPath(f"{folder}: no existing folder above it")
        root = root.parent
    return ensure_dir(root, folder.relative_to(root).as_posix(), mode)
