"""Faults for the labels folder: disk full, read-only, the labels file replaced; on and off again.

Each fault is a context that can be switched off mid-test (``clear()``), the way a person frees
disk space or remounts a disk. The tmpfs faults need root and a kernel that lets this process
mount; :func:`mount_permitted` says whether it does. The patched faults replace ``os`` in
``reviewer.store.fs.atomic`` only (the module that writes label files), so nothing else is touched.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import reviewer.store.fs.atomic as atomic

WRITERS = (atomic,)
"""The modules that write labels files (the atomic writer: a run's file, and the files a format-1
file is moved into): patched faults patch them."""


@lru_cache(maxsize=1)
def mount_permitted() -> bool:
    """True when this process may mount (and unmount) a tmpfs."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    probe = Path(tempfile.mkdtemp(prefix="mount-probe-"))
    try:
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe)],
                          capture_output=True, check=False).returncode != 0:
            return False
        ok = subprocess.run(["mount", "-o", "remount,ro", str(probe)], capture_output=True, check=False).returncode == 0
        subprocess.run(["umount", str(probe)], capture_output=True, check=False)
        return ok
    finally:
        probe.rmdir()


def mount(*args: str) -> None:
    """Run mount (or umount with args[0] == "umount")."""
    cmd = list(args) if args[0] == "umount" else ["mount", *args]
    subprocess.run(cmd, capture_output=True, check=True)


class Fault:
    """A fault on one labels folder: ``arm()`` starts it, ``clear()`` removes it, ``close()`` cleans up."""

    name = "fault"

    def __init__(self, labels_dir: Path, file_name: str) -> None:
        self.dir = labels_dir
        self.file = labels_dir / file_name

    def prepare(self) -> None:
        """Before the app starts (a mount must exist before the folder is used)."""
        self.dir.mkdir(parents=True, exist_ok=True)

    def arm(self) -> None:
        """Start the fault."""

    def clear(self) -> None:
        """Remove the fault, leaving what was saved before it in place."""

    def close(self) -> None:
        """Undo everything (called at the end, also on failure)."""


class OsProxy(ModuleType):
    """``os`` as seen by reviewer.store.fs.atomic, with some functions replaced."""

    def __init__(self, **replaced: Callable[..., Any]) -> None:
        super().__init__("os")
        self.replaced = replaced

    def __getattr__(self, name: str) -> Any:
        return self.replaced.get(name) or getattr(os, name)


class PatchedWriteFull(Fault):
    """Disk full: every write of a label file raises ENOSPC (patched os.write in the atomic writer)."""

    name = "disk-full-patched-write"

    def arm(self) -> None:
        def write(fd: int, data: Any) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        for module in WRITERS:
            module.os = OsProxy(write=write)  # type: ignore[attr-defined]

    def clear(self) -> None:
        for module in WRITERS:
            module.os = os  # type: ignore[attr-defined]

    close = clear


class PatchedOpenReadOnly(Fault):
    """Read-only folder: creating a file raises EROFS (patched os.open in the atomic writer)."""

    name = "read-only-patched-open"

    def arm(self) -> None:
        def open_(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
                raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
            return os.open(path, flags, *args, **kwargs)

        for module in WRITERS:
            module.os = OsProxy(open=open_)  # type: ignore[attr-defined]

    def clear(self) -> None:
        for module in WRITERS:
            module.os = os  # type: ignore[attr-defined]

    close = clear


class TmpfsFull(Fault):
    """Disk full for real: the labels folder is a 64 KiB tmpfs, filled up by another file."""

    name = "disk-full-tmpfs"

    def prepare(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        mount("-t", "tmpfs", "-o", "size=64k,mode=0755", "tmpfs", str(self.dir))
        self.mounted = True

    def arm(self) -> None:
        fd = os.open(self.dir / "filler.bin", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            while True:
                os.write(fd, b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
        finally:
            os.close(fd)

    def clear(self) -> None:
        (self.dir / "filler.bin").unlink()

    def close(self) -> None:
        if getattr(self, "mounted", False):
            subprocess.run(["umount", "-l", str(self.dir)], capture_output=True, check=False)
            self.mounted = False


class TmpfsReadOnly(TmpfsFull):
    """The folder turns read-only for real: its tmpfs is remounted read-only, then read-write."""

    name = "read-only-remount"

    def arm(self) -> None:
        mount("-o", "remount,ro", str(self.dir))

    def clear(self) -> None:
        mount("-o", "remount,rw", str(self.dir))


class ReplacedByDirectory(Fault):
    """The labels file is moved aside and a directory takes its name; clear() puts the file back."""

    name = "file-replaced-by-directory"

    def arm(self) -> None:
        self.file.rename(self.file.with_name(self.file.name + ".aside"))
        self.file.mkdir()

    def clear(self) -> None:
        self.file.rmdir()
        self.file.with_name(self.file.name + ".aside").rename(self.file)


class ReplacedBySymlink(Fault):
    """The labels file is moved aside and a symlink to a file elsewhere takes its name."""

    name = "file-replaced-by-symlink"

    def __init__(self, labels_dir: Path, file_name: str) -> None:
        super().__init__(labels_dir, file_name)
        self.target = labels_dir.parents[1] / "elsewhere" / "victim.toml"

    def arm(self) -> None:
        self.target.parent.mkdir(parents=True, exist_ok=True)
        self.target.write_bytes(b'format = 1\nreviewer = "victim"\n')
        self.file.rename(self.file.with_name(self.file.name + ".aside"))
        self.file.symlink_to(self.target)

    def clear(self) -> None:
        self.file.unlink()
        self.file.with_name(self.file.name + ".aside").rename(self.file)


FAULTS: tuple[type[Fault], ...] = (
    PatchedWriteFull, PatchedOpenReadOnly, TmpfsFull, TmpfsReadOnly, ReplacedByDirectory, ReplacedBySymlink,
)
NEEDS_MOUNT = (TmpfsFull, TmpfsReadOnly)
