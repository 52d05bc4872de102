"""A file's key, as the caches know it, and whether it has settled.

A file is known by its key, ``(size, mtime_ns, ctime_ns, inode)`` from ``lstat`` (ctime
changes on every write and cannot be set back, inode on every atomic replace). A file
modified less than :data:`RACY_NS` before it was looked at is *not settled*: a second write in
the same clock tick could keep every part of the key, so nothing derived from it is recorded.
"""

from __future__ import annotations

import os
import stat
import time
from typing import Sequence

RACY_NS = 2_000_000_000
"""A file modified this recently (ns) is not recorded: it may still be being written."""

StatKey = tuple[int, ...]
"""(size, mtime_ns, ctime_ns, inode) of a regular file; () for a missing one."""
Deps = tuple[tuple[str, StatKey], ...]
"""Files (paths relative to the root) with the keys they had when something was derived."""


def stat_key(st: os.stat_result) -> StatKey:
    """The key of a file's stat."""
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def settled(key: StatKey, now_ns: int | None = None) -> bool:
    """True when the file (or its absence) has not changed for :data:`RACY_NS`."""
    if not key:
        return True
    now = time.time_ns() if now_ns is None else now_ns
    return now - max(key[1], key[2]) > RACY_NS


def file_key(root: str, ref: str) -> StatKey | None:
    """The key of ``root/ref`` by ``lstat``; () when missing; None when it cannot be keyed."""
    try:
        st = os.lstat(os.path.join(root, ref))
    except FileNotFoundError:
        return ()
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return stat_key(st)


def dep_keys(root: str, refs: Sequence[str]) -> Deps | None:
    """Keys of several files, or None when one of them cannot be keyed."""
    out = []
    for ref in refs:
        key = file_key(root, ref)
        if key is None:
            return None
        out.append((ref, key))
    return tuple(out)


def deps_settled(deps: Deps) -> bool:
    """Every file of ``deps`` is settled."""
    now = time.time_ns()
    return all(settled(key, now) for _, key in deps)
