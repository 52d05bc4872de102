"""The first read of a folder without an index cache, done by a second process on another core.

Opening a folder that has no index cache (see :mod:`reviewer.store.index.cache`) parses every run's
``run.toml``: about 0.2 s per 1,000 runs of pure Python, which would hold the interpreter while the
app imports and draws its screen. :func:`start` forks a child before the UI is imported; the
child scans the folder, writes the index cache and exits. The app's own scan then waits for it
and finds every run in the cache (by ``lstat``: a manifest changed meanwhile is read again), so it
costs what a warm open costs. Nothing is handed over but the cache file, which the app checks
like any input; when the child fails or cannot be made, the app scans by itself as before.

The child runs the same reading code the app would run, on the same folder; it writes nothing to
the terminal and never returns into the caller's code (it leaves with ``os._exit``).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from reviewer.store.index.files import index_enabled, index_path

if TYPE_CHECKING:
    from reviewer.store.sessions.inplace import LogSource


class Prescan:
    """A child process reading a folder into its index cache."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.done = threading.Event()
        self.ok = False

    def wait(self) -> bool:
        """Wait for the child (it is reaped once); True when it wrote the cache."""
        if not self.done.is_set():
            try:
                _, status = os.waitpid(self.pid, 0)
                self.ok = os.waitstatus_to_exitcode(status) == 0
            except ChildProcessError:
                self.ok = False
            self.done.set()
        return self.ok

    def finished(self, within: float = 0.0) -> bool:
        """Whether the child has ended (reaped when it has), waiting up to ``within`` seconds."""
        deadline = time.monotonic() + within
        while not self.reaped() and time.monotonic() < deadline:
            time.sleep(0.002)
        return self.done.is_set()

    def reaped(self) -> bool:
        """Whether the child has ended (reaped when it has), without waiting."""
        if not self.done.is_set():
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                pid, status = self.pid, 1 << 8
            if pid == 0:
                return False
            self.ok = os.waitstatus_to_exitcode(status) == 0
            self.done.set()
        return True

    def stop(self) -> None:
        """The app is closing before the child finished: end it."""
        if not self.done.is_set():
            try:
                os.kill(self.pid, 9)
            except OSError:
                pass
            self.wait()


CHILD_FROM = 2_000
"""The fewest run folders read by a child. A smaller folder opens among its first runs without one
and is read in-process once they are painted (1,000 runs: 65 ms of parsing): the child's work
beside the start made the first screen of 1,000 runs 8 % slower in tmux (16 interleaved rounds,
0.447 against 0.413 s), for the whole list 0.25 s sooner."""


def wanted(root: Path, logs: Sequence[LogSource] = ()) -> bool:
    """A second process pays: the index cache is on, missing for this folder, there is a second
    core, and the folder holds :data:`CHILD_FROM` runs or more (or a harness log is named: reading
    its samples once is the slow part of its first open)."""
    if not hasattr(os, "fork") or (os.cpu_count() or 1) < 2 or not index_enabled():
        return False
    try:
        if logs:
            return not index_path(root, [str(log.path) for log in logs]).exists()
        return not index_path(root).exists() and run_folders(root, CHILD_FROM) >= CHILD_FROM
    except (OSError, ValueError):
        return False


def run_folders(root: Path, limit: int) -> int:
    """How many entries the sessions' ``runs`` folders hold, counted up to ``limit`` (no link is
    followed: a ``runs`` that is not a folder counts nothing)."""
    count = 0
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        with os.scandir(root) as sessions:
            names = [e.name for e in sessions if not e.name.startswith(".") and e.is_dir(follow_symlinks=False)]
    except OSError:
        return 0
    for name in sorted(names):
        try:
            fd = os.open(os.path.join(root, name, "runs"), flags)
        except OSError:
            continue
        try:
            with os.scandir(fd) as runs:
                for _ in runs:
                    count += 1
                    if count >= limit:
                        return count
        finally:
            os.close(fd)
    return count


def cache_size(root: Path, logs: Sequence[LogSource] = ()) -> int | None:
    """The size of the folder's index cache in bytes; None: there is none (or it is off). A scan
    with it mostly checks files by ``lstat``: 10,000 runs, 5-15 MB, take 0.2-0.3 s."""
    try:
        return os.path.getsize(index_path(Path(root), [str(log.path) for log in logs])) if index_enabled() else None
    except (OSError, ValueError, TypeError):
        return None


def start(root: Path, logs: Sequence[LogSource] = ()) -> Prescan | None:
    """Fork the child when it pays (call before any thread is started); None otherwise."""
    if not wanted(root, logs) or threading.active_count() > 1:
        return None
    try:
        pid = os.fork()
    except OSError:
        return None
    if pid:
        return Prescan(pid)
    code = 1
    try:
        from reviewer.store.sessions.store import SessionStore

        store = SessionStore(root, logs=logs)
        store.scan()
        code = 0 if store.save_index() else 1
    except BaseException:  # the app scans by itself
        code = 1
    finally:
        os._exit(code)
