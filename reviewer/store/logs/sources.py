"""Reading the files and folders a user names on the command line, without trusting them.

A source file must be a regular file, looked at with ``lstat`` and opened ``O_NOFOLLOW`` (a
link, FIFO or device is never opened, a link is refused with :class:`LinkRefused`), and is
read up to a cap. A file inside a source folder (a SWE-bench evaluation, a code folder) is
opened relative to a descriptor of that folder, every folder on the way ``O_NOFOLLOW``, so it
stays inside it. JSON is parsed with every failure (bad syntax, deep nesting, huge integers,
bad UTF-8) turned into a plain reason. A code folder is walked without following symbolic
links, with caps on file size, file count and total bytes; what is skipped is reported, never
read.
"""

from __future__ import annotations

import json
import os
import stat
import threading
from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import Any

from reviewer.model.records import record
from reviewer.store.fs.untrusted import describe_mode
from reviewer.store.logs.spec import ImportFailed, LogFormat, NotFormat, RunSpec

SOURCE_CAP = 512 << 20
TEXT_CAP = 64 << 20
FILE_CAP = 8 << 20
FOLDER_CAP = 128 << 20
FOLDER_FILES = 5_000
MAX_UNITS = 100_000
"""The most units (trajectory files) one log read in place may hold, as an ``.eval``'s entries."""
FOLDER_DEPTH = 2
"""How deep a trajectory folder is searched: its files, and those of its sub-folders (mini-swe-agent
writes ``<out>/<instance>/<instance>.traj.json``)."""
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", "node_modules", ".venv"})


class LinkRefused(ImportFailed):
    """A source, or a file inside a source folder, is a symbolic link: it is never followed."""


OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
LINK_HINT = "reviewer import does not follow links; name the file itself"


def refusal(path: object, dir_fd: int | None = None, name: str | None = None, hint: str = LINK_HINT) -> ImportFailed | None:
    """Why ``path`` (or ``name`` in the folder ``dir_fd``) must not be opened as a source file, or None.

    Looked at with ``lstat`` before opening, so a link, FIFO or device is never opened at all.
    """
    try:
        st = os.lstat(name if name is not None else path, dir_fd=dir_fd)  # type: ignore[arg-type]
    except FileNotFoundError:
        return ImportFailed(f"{path}: no such file")
    except OSError as exc:
        return ImportFailed(f"{path}: cannot read: {exc.strerror or exc}")
    if stat.S_ISLNK(st.st_mode):
        return LinkRefused(f"{path}: is a symbolic link ({hint})")
    if not stat.S_ISREG(st.st_mode):
        return ImportFailed(f"{path}: is {describe_mode(st.st_mode)}, not a regular file")
    return None


def opened(path: object, dir_fd: int | None = None, name: str | None = None, hint: str = LINK_HINT) -> int:
    """Open a regular file after :func:`refusal` found nothing wrong, ``O_NOFOLLOW``, checked again by ``fstat``."""
    problem = refusal(path, dir_fd, name, hint)
    if problem is not None:
        raise problem
    try:
        fd = os.open(name if name is not None else path, OPEN_FLAGS, dir_fd=dir_fd)  # type: ignore[arg-type]
    except OSError as exc:
        problem = refusal(path, dir_fd, name, hint)  # replaced since it was looked at
        raise problem or ImportFailed(f"{path}: cannot open: {exc.strerror or exc}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise ImportFailed(f"{path}: is {describe_mode(mode)}, not a regular file")
    return fd


def open_regular(path: Path) -> int:
    """An open descriptor of the regular file ``path``, opened ``O_NOFOLLOW``; ImportFailed for anything else.

    The folders above ``path`` are the user's (they named it); the file itself must not be a
    link (refused by the kernel, then named by :func:`refusal`) and must be a regular file
    (checked on the descriptor: a FIFO is opened ``O_NONBLOCK``, a terminal ``O_NOCTTY``, so
    opening one has no effect before it is refused).
    """
    return regular_fd(open_nofollow(path), path)[0]


def open_nofollow(path: Path) -> int:
    """``os.open`` of a source without following a link; a failure explained by :func:`refusal`."""
    try:
        return os.open(path, OPEN_FLAGS | os.O_NOCTTY)
    except OSError as exc:
        problem = refusal(path)
        raise problem or ImportFailed(f"{path}: cannot open: {exc.strerror or exc}") from None


def regular_fd(fd: int, path: object) -> tuple[int, int]:
    """(``fd``, its size) when it is a regular file; closed and ImportFailed otherwise."""
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise ImportFailed(f"{path}: is {describe_mode(st.st_mode)}, not a regular file")
    return fd, st.st_size


def open_inside(root_fd: int, rel: str, shown: object) -> int:
    """The regular file ``rel`` below the folder ``root_fd``, every folder on the way and the file opened ``O_NOFOLLOW``.

    What is opened stays inside the folder whatever the folder holds: ``..`` and absolute
    paths are refused, a link anywhere on the way is :class:`LinkRefused`. ``shown`` names the
    file in messages.
    """
    parts = [p for p in rel.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        raise ImportFailed(f"{shown}: not a path inside the folder")
    fd = os.dup(root_fd)
    try:
        for part in parts[:-1]:
            try:
                child = os.open(part, DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                try:
                    link = stat.S_ISLNK(os.lstat(part, dir_fd=fd).st_mode)
                except OSError:
                    link = False
                if link:
                    raise LinkRefused(f"{shown}: the folder {part} on the way is a symbolic link (not followed)") from None
                raise ImportFailed(f"{shown}: cannot open the folder {part}: {exc.strerror or exc}") from None
            os.close(fd)
            fd = child
        return opened(shown, fd, parts[-1], "links inside a received folder are never followed")
    finally:
        os.close(fd)


def read_fd(fd: int, path: object, cap: int, size: int = -1) -> bytes:
    """All bytes of an open file (closed afterwards); ImportFailed past ``cap``. ``size``: its size, when known."""
    try:
        if size < 0:
            size = os.fstat(fd).st_size
        if size > cap:
            raise ImportFailed(f"{path}: larger than {cap >> 20} MiB, too large to import")
        first = os.read(fd, size + 1)
        if len(first) <= size:
            return first  # a regular file that read short is at its end
        chunks = [first]
        total = len(first)
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > cap:
                raise ImportFailed(f"{path}: larger than {cap >> 20} MiB, too large to import")
            chunks.append(chunk)
    except OSError as exc:
        raise ImportFailed(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def read_inside(root_fd: int, rel: str, shown: object, cap: int = TEXT_CAP) -> bytes:
    """The bytes of ``rel`` below ``root_fd`` (see :func:`open_inside`), up to ``cap``."""
    return read_fd(open_inside(root_fd, rel, shown), shown, cap)


def open_folder(path: Path) -> int:
    """A descriptor of the folder the user named (it may be reached through links of theirs)."""
    try:
        return os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except NotADirectoryError:
        raise ImportFailed(f"{path}: not a folder") from None
    except OSError as exc:
        raise ImportFailed(f"{path}: cannot open: {exc.strerror or exc}") from None


def read_source(path: Path, cap: int = SOURCE_CAP) -> bytes:
    """All bytes of a source file (opened without following a link); ImportFailed when larger than ``cap`` or unreadable."""
    fd, size = regular_fd(open_nofollow(path), path)
    return read_fd(fd, path, cap, size)


def read_text_source(path: Path, cap: int = TEXT_CAP) -> str:
    """A text source (grader output, brief) decoded as UTF-8, bad bytes replaced, BOM dropped."""
    text = read_source(path, cap).decode("utf-8", "replace")
    return text.removeprefix("\ufeff")


def parse_json(data: bytes | bytearray, what: str) -> Any:
    """Parse JSON bytes; NotFormat with a plain reason when they are not JSON."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotFormat(f"not UTF-8 text (byte {exc.start})") from None
    try:
        return json.loads(text)
    except RecursionError:
        raise NotFormat(f"{what} is nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        raise NotFormat(f"not valid JSON: {exc.msg} at line {exc.lineno}") from None
    except ValueError as exc:
        raise NotFormat(f"{what} holds a value that cannot be read: {str(exc)[:100]}") from None


def parse_trajectory(data: bytes, what: str, members: dict[str, int]) -> tuple[Any, list[str]]:
    """A trajectory's JSON and notes on what was left out of it.

    Parsed whole when its structure says it fits the budget of an Inspect sample (every
    trajectory a harness writes); past it (250 MiB of ``{},{},...`` would take gigabytes as
    Python objects) a top object is walked within the budget, keeping the first items of its
    ``members`` lists (see :mod:`reviewer.store.logs.boundedjson`), and a top list is refused.
    """
    from reviewer.store.logs.boundedjson import Caps, estimate, read_object

    caps = Caps(members=members)
    if len(data) <= caps.fast_bytes and estimate(data) <= caps.fast_values:
        return parse_json(data, what), []
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] != b"{":
        raise NotFormat(f"{what} is {len(data) / 2**20:,.1f} MiB of JSON holding up to {estimate(data):,} values "
                        "and is not an object: too large to read")
    return read_object(data, what, caps)


@record(frozen=False, slots=False)
class CodeFolder:
    """The files found in a code folder (relative path -> bytes) and what was skipped, and why."""

    files: dict[str, bytes] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)


def read_code_folder(root: Path, exclude: set[Path] | None = None) -> CodeFolder:
    """Regular files below ``root``: no links followed (each is listed as skipped), VCS and cache folders skipped, capped.

    The walk holds a descriptor of every folder (``os.fwalk``) and opens each file relative to
    it with ``O_NOFOLLOW``, so nothing outside ``root`` is read even if the folder changes
    while it is read. ``exclude``: files not to take (the grader output, the brief).
    """
    try:
        os.close(open_folder(root))
    except ImportFailed:
        raise ImportFailed(f"{root}: not a folder (give the folder of the files the model wrote)") from None
    excluded = set()
    for p in exclude or ():
        try:
            st = os.stat(p)
            excluded.add((st.st_dev, st.st_ino))
        except OSError:
            pass
    out = CodeFolder()
    total = 0
    for folder, dirs, names, dir_fd in os.fwalk(root, follow_symlinks=False):
        base = os.path.relpath(folder, root).replace(os.sep, "/")
        keep = []
        for d in sorted(dirs):
            rel = d if base == "." else f"{base}/{d}"
            if d in SKIP_DIRS:
                continue
            if os.path.islink(os.path.join(folder, d)):
                out.skipped.append(f"{rel}/: is a symbolic link (not followed)")
            else:
                keep.append(d)
        dirs[:] = keep
        for name in sorted(names):
            rel = name if base == "." else f"{base}/{name}"
            reason = read_one(dir_fd, name, rel, out, total, excluded)
            if reason:
                out.skipped.append(f"{rel}: {reason}")
            elif rel in out.files:
                total += len(out.files[rel])
    return out


def read_one(dir_fd: int, name: str, rel: str, out: CodeFolder, total: int, excluded: set[tuple[int, int]]) -> str:
    """Read one file of a code folder into ``out``; returns why it was skipped, or "" (also for an excluded file)."""
    try:
        fd = opened(rel, dir_fd, name)
    except LinkRefused:
        return "is a symbolic link (not followed)"
    except ImportFailed as exc:
        return str(exc).partition(": ")[2]
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) in excluded:
            return ""
        if st.st_size > FILE_CAP:
            return f"larger than {FILE_CAP >> 20} MiB"
        if len(out.files) >= FOLDER_FILES:
            return f"more than {FOLDER_FILES} files"
        if total + st.st_size > FOLDER_CAP:
            return f"the folder holds more than {FOLDER_CAP >> 20} MiB"
        data = b""
        while len(data) <= FILE_CAP:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            data += chunk
    finally:
        os.close(fd)
    if len(data) > FILE_CAP:
        return f"larger than {FILE_CAP >> 20} MiB"
    out.files[rel] = data
    return ""


def walk(path: Path, wanted: Callable[[str], bool], limit: int = MAX_UNITS + 1) -> list[str]:
    """Files below ``path`` whose names are ``wanted``, as ``/`` paths relative to it, sorted, at most
    ``limit``: the folder and :data:`FOLDER_DEPTH` - 1 levels of sub-folders, hidden entries
    skipped, links and anything that is not a regular file or a folder never followed."""
    found: list[str] = []
    stack = [("", 0)]
    while stack and len(found) < limit:
        rel, depth = stack.pop()
        try:
            with os.scandir(path / rel if rel else path) as entries:
                listed = sorted((e.name, e.is_dir(follow_symlinks=False), e.is_file(follow_symlinks=False)) for e in entries)
        except OSError:
            continue
        folders = []
        for name, is_dir, is_file in listed:
            if name.startswith("."):
                continue
            child = f"{rel}/{name}" if rel else name
            if is_file and wanted(name):
                found.append(child)
            elif is_dir and depth + 1 < FOLDER_DEPTH:
                folders.append(child)
        stack.extend((f, depth + 1) for f in reversed(folders))
    return sorted(found)[:limit]


class TrajectoryFolder:
    """A folder of trajectory files read in place: one unit per file, read when asked for.

    Units are the files the format claims, found by :func:`walk` and sorted by path; each is
    opened relative to a descriptor of the folder, every step ``O_NOFOLLOW`` (a link is never
    read through), and read up to the importers' cap.
    """

    def __init__(self, path: Path, log_format: LogFormat, read: Callable[[str, bytes], RunSpec],
                 unit_id: Callable[[str], str]) -> None:
        self.path = path
        self.source = path.name
        self.fd = open_folder(path)
        self.units = walk(path, log_format.claims)
        if len(self.units) > MAX_UNITS:
            os.close(self.fd)
            raise ImportFailed(f"{path.name}: more than {MAX_UNITS:,} trajectory files, too many to read in place")
        self.reader = read
        self.naming = unit_id
        self.harness_version = ""
        self.started = ""
        self.notes = f"{log_format.harness} trajectories read in place from {path.name}; trajectories hold no test results."
        self.lock = threading.Lock()

    def read(self, unit: str) -> RunSpec:
        """One trajectory file's run."""
        if self.fd < 0:
            raise ImportFailed(f"{self.source}: closed")
        data = read_inside(self.fd, unit, f"{self.source}/{unit}", SOURCE_CAP)
        try:
            return self.reader(unit, data)
        except NotFormat as exc:
            raise exc.about(unit) from None

    def unit_id(self, unit: str) -> str:
        """The run id a trajectory's file name asks for."""
        return self.naming(unit)

    def unit_files(self, unit: str) -> list[Path]:
        """The unit's own file."""
        return [self.path / unit]

    def close(self) -> None:
        """Let go of the folder."""
        with self.lock:
            if self.fd >= 0:
                os.close(self.fd)
                self.fd = -1


def log_problem(path: Path, kind: str) -> str:
    """Why ``path`` cannot be a log of this kind (a ``file`` or a ``folder``), never following a
    link at its last step; "" when it can."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return "not found"
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    if stat.S_ISLNK(st.st_mode):
        return "is a symbolic link (never followed: name the log itself)"
    if kind == "folder":
        return "" if stat.S_ISDIR(st.st_mode) else f"is {describe_mode(st.st_mode)}, not a folder of trajectories"
    return "" if stat.S_ISREG(st.st_mode) else f"is {describe_mode(st.st_mode)}, not a log file"
