"""Atomic file replacement: temp file in the same folder, fsync, rename, fsync the folder."""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import stat
import time
from pathlib import Path
from typing import Iterator

TEMP_MARK = ".tmp-"


def temp_name(target: Path) -> Path:
    """A temp file name beside ``target`` that start-up cleanup recognises."""
    return target.with_name(f".{target.name}{TEMP_MARK}{os.getpid()}-{secrets.token_hex(4)}")


def atomic_write(target: Path, data: bytes) -> None:
    """Replace ``target`` with ``data`` so that a crash leaves either the old or the new file.

    Keeps the existing file's permission bits. Raises OSError on failure (the old file stays).
    """
    tmp = temp_name(target)
    mode = None
    with contextlib.suppress(FileNotFoundError):
        st = os.stat(target)
        mode = stat.S_IMODE(st.st_mode)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644 if mode is None else mode)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    os.close(fd)
    if mode is not None:
        os.chmod(tmp, mode)
    try:
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(target.parent)


def fsync_dir(folder: Path) -> None:
    """fsync a folder so a rename in it is durable."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextlib.contextmanager
def folder_lock(folder: Path, timeout: float = 10.0) -> Iterator[None]:
    """An exclusive advisory lock on a folder (flock on its descriptor), between processes."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{folder} is locked by another reviewer process") from None
                time.sleep(0.01)
        yield
    finally:
        os.close(fd)


def clean_stale_temps(folder: Path) -> list[Path]:
    """Remove temp files left by a crashed writer; call while holding ``folder_lock``."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for e in entries:
        if e.name.startswith(".") and TEMP_MARK in e.name and e.is_file(follow_symlinks=False):
            with contextlib.suppress(OSError):
                os.unlink(e.path)
                removed.append(Path(e.path))
    return removed


SYNC_EACH = 16
"""A batch of up to this many files is made durable file by file (fsync each); a bigger one with one
``sync`` (an fsync costs milliseconds a file: 10,000 files would take tens of seconds)."""


def atomic_write_many(files: list[tuple[Path, bytes]]) -> None:
    """Write several files so that a crash leaves each either old or new, and every new one is
    durable before this returns: all are written to temp files beside their targets and made
    durable first, then renamed into place (each folder fsynced after).

    Keeps an existing file's permission bits. Raises OSError (temp files removed; files renamed
    before the failure keep their new, complete contents).
    """
    temps: list[tuple[Path, Path]] = []
    try:
        for target, data in files:
            tmp = temp_name(target)
            mode = None
            with contextlib.suppress(FileNotFoundError):
                mode = stat.S_IMODE(os.stat(target).st_mode)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644 if mode is None else mode)
            temps.append((tmp, target))
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                if len(files) <= SYNC_EACH:
                    os.fsync(fd)
            finally:
                os.close(fd)
            if mode is not None:
                os.chmod(tmp, mode)
        if len(files) > SYNC_EACH:
            os.sync()
        for n, (tmp, target) in enumerate(temps):
            os.replace(tmp, target)
            temps[n] = (target, target)
    except BaseException:
        for tmp, target in temps:
            if tmp != target:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
        raise
    for folder in sorted({target.parent for _, target in temps}):
        fsync_dir(folder)


def remove_durably(paths: list[Path]) -> None:
    """Remove files (gone already is fine), in order, each folder fsynced after each removal."""
    for path in paths:
        try:
            os.unlink(path)
        except FileNotFoundError:
            continue
        fsync_dir(path.parent)
