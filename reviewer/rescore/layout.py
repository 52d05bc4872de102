"""The staging folder a sandbox reads its inputs from (``/sandbox/in`` inside).

``fresh_staging`` makes it in a new private temp folder (mode 0711: others can pass through
to the staging folder, which a sandbox running as ``nobody`` needs, but cannot list it) and
removes it afterwards. Inside::

    ws/      the workspace, copied to /sandbox/run when the sandbox starts
    bin/     the ``python`` wrapper (the runtime the re-score uses)
    shim/    the program shim, the transforms and their configuration
    lift/    sitecustomize.py, when a limit is lifted for the checker's own process
    etc/     passwd, group and hosts for the sandbox user
    mnt/     mount points for runtimes (only when running as root)

Every write refuses to leave the folder and never follows a link.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from reviewer.model.rerun import workspace_path_problem

INSIDE = "/sandbox"
"""Where the sandbox's own folders are, inside it: the staged files, the run, the writable place."""
IN = f"{INSIDE}/in"
"""The staged folder, read-only inside."""
WORKSPACE = f"{INSIDE}/run"
"""The copy of the workspace the grader runs in."""
NOBODY = 65534
"""The user a re-score runs as when reviewer runs as root."""


class StagingError(Exception):
    """The inputs could not be laid out (a path that leaves the workspace, a file too big)."""


def sandbox_uid() -> int:
    """The uid the sandboxed processes have (``nobody`` when reviewer runs as root)."""
    return NOBODY if os.geteuid() == 0 else os.getuid()


@contextlib.contextmanager
def fresh_staging(parent: Path | None = None) -> Iterator[Path]:
    """A new, empty staging folder with its ``etc`` files; removed afterwards."""
    outer = Path(tempfile.mkdtemp(prefix="reviewer-rescore-", dir=parent))
    try:
        os.chmod(outer, 0o711)
        staging = outer / "s"
        staging.mkdir(mode=0o755)
        os.chmod(staging, 0o755)
        uid = sandbox_uid()
        gid = NOBODY if os.geteuid() == 0 else os.getgid()
        write(staging, "etc/passwd", f"sandbox:x:{uid}:{gid}:sandbox:{INSIDE}/home:/bin/sh\n".encode())
        write(staging, "etc/group", f"sandbox:x:{gid}:\n".encode())
        write(staging, "etc/hosts", b"127.0.0.1 localhost\n::1 localhost\n")
        (staging / "ws").mkdir(mode=0o755)
        yield staging
    finally:
        shutil.rmtree(outer, ignore_errors=True)


def target(staging: Path, rel: str) -> Path:
    """``staging/rel`` for a relative path that stays inside (StagingError otherwise)."""
    problem = workspace_path_problem(rel, "path")
    if problem:
        raise StagingError(problem)
    here = staging
    for part in rel.split("/")[:-1]:
        here = here / part
        if here.is_symlink() or (here.exists() and not here.is_dir()):
            raise StagingError(f"{rel}: {part} is not a folder")
        if not here.exists():
            here.mkdir(mode=0o755)
            os.chmod(here, 0o755)
    return here / rel.split("/")[-1]


def write(staging: Path, rel: str, data: bytes, mode: int = 0o644) -> Path:
    """Write a file in the staging folder (replacing one that is there, never through a link)."""
    path = target(staging, rel)
    if path.is_symlink() or path.is_dir():
        raise StagingError(f"{rel} is already a folder or a link")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)
    os.chmod(path, mode)
    return path


def files_under(folder: Path) -> list[str]:
    """Every regular file below ``folder`` (relative, '/' separated, sorted); links are not followed."""
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        base = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if not (base / d).is_symlink())
        for name in sorted(filenames):
            path = base / name
            if path.is_file() and not path.is_symlink():
                found.append(path.relative_to(folder).as_posix())
    return sorted(found)
