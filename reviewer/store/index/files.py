"""Where the index cache lives, the code fingerprint that invalidates it, reading and writing it.

Files are known by their keys (:mod:`reviewer.store.fs.keys`).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import os
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Iterator, Sequence

from reviewer import __version__

INDEX_CAP = 1 << 30
"""A cache file larger than this is not read."""


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/reviewer`` (default ``~/.cache/reviewer``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "reviewer"


def index_enabled() -> bool:
    """False when ``REVIEWER_INDEX`` is set to off, 0, no or false."""
    return os.environ.get("REVIEWER_INDEX", "").strip().lower() not in ("0", "off", "no", "false")


def index_path(root: Path, logs: Sequence[str] = ()) -> Path:
    """Where the index of a sessions folder is kept: named by a hash of its real path (and of the
    real paths of the harness logs named with it on the command line, which have an index of their own)."""
    real = "\x00".join([os.path.realpath(root), *(os.path.realpath(log) for log in logs)])
    digest = hashlib.sha256(real.encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return cache_dir() / f"index-{digest}.jsonl"


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of the code whose results the index holds: a new parser invalidates every entry."""
    package = Path(__file__).resolve().parent.parent.parent
    store = package / "store"
    files = sorted(
        [*package.joinpath("model").glob("*.py"), *package.joinpath("parsers").glob("*.py"),
         *store.joinpath("sessions").glob("*.py"), *store.joinpath("index").glob("*.py"),
         *store.joinpath("runs").glob("*.py"), *store.joinpath("logs").glob("*.py")]
        + [store / "fs" / "untrusted.py", store / "fs" / "tomlfile.py",
           store / "labels" / "format.py", store / "labels" / "reading.py"]
    )
    h = hashlib.sha256(__version__.encode())
    for path in files:
        data = path.read_bytes()  # a module named here and gone is a bug, not a cache to keep
        h.update(f"{path.parent.name}/{path.name}\x00{len(data)}\x00".encode())
        h.update(data)
    return h.hexdigest()[:32]


def open_own_file(path: Path) -> BinaryIO:
    """Open a cache file of ours for reading: a regular file owned by this user, not a link, capped.

    Raises FileNotFoundError when there is none, ValueError or OSError when it is not one to read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError("not a regular file")
        if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
            raise ValueError("owned by another user")
        if st.st_size > INDEX_CAP:
            raise ValueError("too large")
        return os.fdopen(fd, "rb", buffering=1 << 20)
    except BaseException:
        os.close(fd)
        raise


def write_private(path: Path, header: Callable[[str], bytes], lines: Iterable[bytes]) -> None:
    """Replace a cache file atomically (temp file, rename), readable by this user only.

    ``lines`` are streamed, never joined in memory; ``header`` gets their sha256 and is written
    first (its length must not depend on the hash: it is written twice, before and after).
    """
    from reviewer.store.fs.nofollow import make_folder

    make_folder(cache_dir().parent, path.parent, mode=0o700)
    fd, tmp = tempfile.mkstemp(prefix=".index-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb", buffering=1 << 20) as f:
            first = header("0" * 64)
            f.write(first)
            digest = hashlib.sha256()
            for line in lines:
                digest.update(line)
                f.write(line)
            final = header(digest.hexdigest())
            if len(final) != len(first):
                raise OSError("index header changed length")
            f.seek(0)
            f.write(final)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


FREEZE_AFTER = 50_000
"""Objects made inside :func:`paused_gc` from which they are frozen when it ends."""


@contextlib.contextmanager
def paused_gc(freeze: bool = True) -> Iterator[None]:
    """No cyclic garbage collection inside: while tens of thousands of long-lived objects are made,
    each full collection would walk all of them again for nothing.

    With ``freeze``, when many objects were made (a folder of thousands of runs), they are frozen
    out of the collector at the end (``gc.freeze``): otherwise the first collection after it walks
    all of them at once (over 100 ms at 10,000 runs, landing on whatever thread allocates next).
    Freezing keeps alive the cyclic garbage made meanwhile, by every thread (the count is the
    process's): only a store's first scan freezes. A live rescan in an open app froze the
    screen's garbage of the seconds it ran (+25 MB over 200 key presses on 10,000 runs).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze and gc.get_count()[0] >= FREEZE_AFTER:
            gc.freeze()
        if collecting:
            gc.enable()
