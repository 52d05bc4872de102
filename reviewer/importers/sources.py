"""Reading the files and folders a user names on the command line, without trusting them.

A source file must be a regular file (a FIFO or device is never opened) and is read up to a
cap. JSON is parsed with every failure (bad syntax, deep nesting, huge integers, bad UTF-8)
turned into a plain reason. A code folder is walked without following symbolic links, with
caps on file size, file count and total bytes; what is skipped is reported, never read.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reviewer.importers.spec import ImportFailed, NotFormat
from reviewer.store.safe_fs import describe_mode

SOURCE_CAP = 512 << 20
TEXT_CAP = 64 << 20
FILE_CAP = 8 << 20
FOLDER_CAP = 128 << 20
FOLDER_FILES = 5_000
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", "node_modules", ".venv"})


def open_regular(path: Path) -> int:
    """An open descriptor of a regular file; ImportFailed for anything else."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ImportFailed(f"{path}: no such file") from None
    except OSError as exc:
        raise ImportFailed(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise ImportFailed(f"{path}: is {describe_mode(st.st_mode)}, not a regular file")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ImportFailed(f"{path}: cannot open: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ImportFailed(f"{path}: is not a regular file")
    return fd


def read_source(path: Path, cap: int = SOURCE_CAP) -> bytes:
    """All bytes of a source file; ImportFailed when it is larger than ``cap`` or unreadable."""
    fd = open_regular(path)
    try:
        chunks = []
        total = 0
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
    return b"".join(chunks)


def read_text_source(path: Path, cap: int = TEXT_CAP) -> str:
    """A text source (grader output, brief) decoded as UTF-8, bad bytes replaced, BOM dropped."""
    text = read_source(path, cap).decode("utf-8", "replace")
    return text[1:] if text.startswith("\ufeff") else text


def parse_json(data: bytes, what: str) -> Any:
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


@dataclass
class CodeFolder:
    """The files found in a code folder (relative path -> bytes) and what was skipped, and why."""

    files: dict[str, bytes] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)


def read_code_folder(root: Path, exclude: set[Path] | None = None) -> CodeFolder:
    """Regular files below ``root``: no links followed, VCS and cache folders skipped, capped."""
    try:
        st = os.stat(root)
    except OSError as exc:
        raise ImportFailed(f"{root}: cannot open: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise ImportFailed(f"{root}: not a folder (give the folder of the files the model wrote)")
    excluded = {os.path.realpath(p) for p in exclude or ()}
    out = CodeFolder()
    total = 0
    for folder, dirs, names in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not os.path.islink(os.path.join(folder, d)))
        for name in sorted(names):
            full = os.path.join(folder, name)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            if os.path.realpath(full) in excluded:
                continue
            reason = read_one(full, rel, out, total)
            if reason:
                out.skipped.append(f"{rel}: {reason}")
            else:
                total += len(out.files[rel])
    return out


def read_one(full: str, rel: str, out: CodeFolder, total: int) -> str:
    """Read one file of a code folder into ``out``; returns why it was skipped, or ""."""
    try:
        st = os.lstat(full)
    except OSError as exc:
        return f"cannot stat: {exc.strerror or exc}"
    if not stat.S_ISREG(st.st_mode):
        return f"is {describe_mode(st.st_mode)}"
    if st.st_size > FILE_CAP:
        return f"larger than {FILE_CAP >> 20} MiB"
    if len(out.files) >= FOLDER_FILES:
        return f"more than {FOLDER_FILES} files"
    if total + st.st_size > FOLDER_CAP:
        return f"the folder holds more than {FOLDER_CAP >> 20} MiB"
    try:
        fd = os.open(full, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        return f"cannot open: {exc.strerror or exc}"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "not a regular file"
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
