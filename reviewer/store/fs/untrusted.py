"""Reading files that came from other people without ever blocking, escaping or exploding.

Every read goes through here: resolve the path, require it to stay inside the sessions root,
``lstat`` before opening (FIFOs and devices are never opened), open non-blocking, re-check the
opened descriptor, and read at most a cap.
"""

from __future__ import annotations

import errno
import os
import posixpath
import re
import stat
from pathlib import Path

from reviewer.model.records import record

SIMPLE_REF = re.compile(r"^(?:[\w-]+(?:\.[\w-]+)*)(?:/[\w-]+(?:\.[\w-]+)*)*$")
_SIMPLE_SEEN: set[str] = set()
SIMPLE_SEEN_MAX = 4096


def simple_ref(path: str) -> bool:
    """``path`` is plain names joined by ``/`` (no empty, ``.`` or ``..`` step, nothing absolute).

    The same references come back in every run (``attempts/1/main.go``, ``grader/go.out``):
    the ones that passed are remembered (a few thousand at most), so the pattern runs once each.
    """
    if path in _SIMPLE_SEEN:
        return True
    if SIMPLE_REF.match(path) is None:
        return False
    if len(_SIMPLE_SEEN) >= SIMPLE_SEEN_MAX:
        _SIMPLE_SEEN.clear()
    _SIMPLE_SEEN.add(path)
    return True
MANIFEST_CAP = 1 << 20
TEXT_CAP = 32 << 20


class Unreadable(Exception):
    """A file that cannot be read safely; the message says why, in plain words."""


class Missing(Unreadable):
    """The file does not exist."""


class IsLink(Unreadable):
    """The last step of the path is a symbolic link (resolve it before reading)."""


def lexically_inside(base_rel: str, ref: str) -> str:
    """Join a manifest reference to the manifest's folder without touching the disk.

    Args:
        base_rel: the manifest's folder, relative to the sessions root ("" for the root).
        ref: the reference as written in the manifest.

    Returns:
        The normalised path relative to the root.

    Raises:
        Unreadable: the reference is absolute, empty, holds a NUL, or climbs out of the root.
    """
    if type(ref) is str and simple_ref(ref):  # the common case: plain names, no dots-only steps
        return f"{base_rel}/{ref}" if base_rel else ref
    if not isinstance(ref, str) or not ref.strip():
        raise Unreadable("empty path")
    if "\x00" in ref:
        raise Unreadable("path holds a NUL byte")
    if ref.startswith("/") or ref.startswith("\\") or (len(ref) > 1 and ref[1] == ":"):
        raise Unreadable(f"absolute path {ref!r} is not allowed")
    joined = posixpath.normpath(posixpath.join(base_rel, ref.replace("\\", "/")))
    if joined == ".." or joined.startswith("../"):
        raise Unreadable(f"path {ref!r} leaves the sessions folder")
    return "" if joined == "." else joined


def resolve_inside(root: Path, rel: str) -> Path:
    """The real path of ``root/rel``; Unreadable when a symlink takes it out of the root."""
    real_root = Path(os.path.realpath(root))
    real = Path(os.path.realpath(real_root / rel))
    if not real.is_relative_to(real_root):
        raise Unreadable(f"{rel} is a link that leaves the sessions folder")
    return real


def describe_mode(mode: int) -> str:
    """A word for a file type that is not a regular file."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device file"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


@record
class RawRead:
    """Bytes read from a file, and whether the cap cut them."""

    data: bytes
    size: int
    truncated: bool
    stat: os.stat_result | None = None
    """The file's ``fstat``, taken after opening and before reading (when known)."""


def read_capped(root: Path, rel: str, cap: int = TEXT_CAP) -> RawRead:
    """Read at most ``cap`` bytes of a regular file inside the root.

    Raises:
        Unreadable: missing, not a regular file, outside the root, or an OS error.
    """
    path = resolve_inside(root, rel)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise Missing("file not found") from None
    except OSError as exc:
        raise Unreadable(f"cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise Unreadable(f"is {describe_mode(st.st_mode)}, not a regular file")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise Unreadable(f"cannot open: {exc.strerror or exc}") from None
    try:
        fst = os.fstat(fd)
        if not stat.S_ISREG(fst.st_mode):
            raise Unreadable(f"is {describe_mode(fst.st_mode)}, not a regular file")
        chunks: list[bytes] = []
        remaining = cap + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
    except OSError as exc:
        raise Unreadable(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    truncated = len(data) > cap
    return RawRead(data[:cap], max(fst.st_size, len(data)), truncated)


def read_listed(path: str, cap: int) -> RawRead:
    """Read a file found by listing a folder that was itself reached without links.

    Skips resolving the path (it is known to be inside the root); refuses a link at the last
    step (``O_NOFOLLOW``) and anything that is not a regular file, never blocking on a FIFO.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise Missing("file not found") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise IsLink("is a symbolic link") from None
        if exc.errno == errno.ENXIO:
            raise Unreadable("is not a regular file (a FIFO, socket or device)") from None
        raise Unreadable(f"cannot open: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Unreadable(f"is {describe_mode(st.st_mode)}, not a regular file")
        chunks: list[bytes] = []
        got = 0
        while got <= cap:
            want = min(cap + 1 - got, 1 << 20, max(st.st_size + 1 - got, 1 << 12))
            chunk = os.read(fd, want)
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
            if len(chunk) < want and got >= st.st_size:
                break  # a regular file read short past its size: at its end (saves a read per file)
        data = b"".join(chunks)
    except OSError as exc:
        raise Unreadable(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return RawRead(data[:cap], max(st.st_size, len(data)), len(data) > cap, st)


@record
class TextBlob:
    """Text read for display.

    Attributes:
        text: the decoded text ("" when unreadable).
        size: the file's size in bytes.
        truncated: the read stopped at the cap.
        binary: the file looks binary (NUL bytes); text is then a notice.
        invalid_utf8: some bytes were not UTF-8 and were replaced.
        error: why it could not be read, or "".
    """

    text: str = ""
    size: int = 0
    truncated: bool = False
    binary: bool = False
    invalid_utf8: bool = False
    error: str = ""


def decode_for_display(raw: RawRead) -> TextBlob:
    """Decode bytes for display: UTF-8 with replacement; binary files become a notice."""
    head = raw.data[:8192]
    if b"\x00" in head and head.count(b"\x00") * 16 > len(head):
        return TextBlob(f"(binary file, {raw.size} bytes, not shown)", raw.size, raw.truncated, True)
    try:
        text = raw.data.decode("utf-8")
        bad = False
    except UnicodeDecodeError:
        text = raw.data.decode("utf-8", errors="replace")
        bad = True
    if text.startswith("\ufeff"):
        text = text[1:]
    return TextBlob(text, raw.size, raw.truncated, False, bad)


def read_text(root: Path, rel: str, cap: int = TEXT_CAP) -> TextBlob:
    """Read a file for display; never raises, errors go into ``TextBlob.error``."""
    try:
        return decode_for_display(read_capped(root, rel, cap))
    except Unreadable as exc:
        return TextBlob(error=str(exc))
