"""Where labels live on disk.

Format 2 (written now)::

    <session>/labels/<reviewer>/<run>.toml       one reviewer's labels on one run's failures
    <session>/labels/_adjudicated/<run>.toml     adjudicated verdicts (reviewer ``final``)

Format 1 (read, and moved into format 2 on the reviewer's next decision in that session)::

    <session>/labels/<reviewer>.toml             one reviewer's labels on every run of the session
    <session>/labels/<reviewer>.journal          decisions appended beside a big one
    <session>/labels/_adjudicated.toml           adjudicated verdicts

``<reviewer>`` is :func:`~reviewer.model.label.reviewer_file_stem` of the name (a plain
lower-case name as it is, any other a slug and a hash). ``<run>`` is the run id (a folder name:
letters, digits, ``.``, ``_``, ``-``); a label on a run id that is not one (a hand-edited file)
goes to a file named like a reviewer's (a slug, ``+`` and a hash), which no run id can be. A
sessions folder the program must not write into (read-only, or inside an installed package) has
the same layout under a per-user folder (:func:`reviewer.store.fs.paths.fallback_root`). A labels
folder reached through a link is refused: nothing is read or written through it.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from pathlib import Path

from reviewer.model.label import reviewer_file_stem
from reviewer.store.fs.nofollow import LinkOnPath, check_dir
from reviewer.store.fs.paths import fallback_root

LABELS_DIR = "labels"
SUFFIX = ".toml"
ADJUDICATED = "_adjudicated"
"""The adjudications' folder (format 2); ``_adjudicated.toml`` in format 1."""
ADJUDICATED_FILE = ADJUDICATED + SUFFIX
FINAL = "final"
"""The reviewer named in adjudication files."""
RUN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,199}")
"""A run id that is its file's name as it is (the run folder names the loader accepts)."""


def folder_stem(reviewer: str, adjudications: bool = False) -> str:
    """The name of a reviewer's folder (and of their format-1 file, without ``.toml``)."""
    return ADJUDICATED if adjudications else reviewer_file_stem(reviewer)


def run_file_name(run: str) -> str:
    """The file of a run's labels: ``<run>.toml``, or a slug, ``+`` and a hash for an id that is not a folder name."""
    if RUN_NAME.fullmatch(run):
        return run + SUFFIX
    slug = re.sub(r"[^a-z0-9]+", "-", run.encode("ascii", "ignore").decode("ascii").lower()).strip("-")[:40] or "run"
    return f"{slug}+{hashlib.sha256(run.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}{SUFFIX}"


def is_run_file(name: str) -> bool:
    """A file of a reviewer's folder that holds labels (not a temp file, not a stray)."""
    return name.endswith(SUFFIX) and not name.startswith(".")


def refused_reason(exc: LinkOnPath) -> tuple[Path, str]:
    """(path, reason) of a refused labels folder."""
    where, _, why = str(exc).partition(": ")
    return Path(where), f"{why}; its labels are not read"


def label_dirs(root: Path, sessions: list[str], refused: list[tuple[Path, str]] | None = None) -> list[tuple[str, Path]]:
    """Every labels folder of the sessions, in the sessions folder and in the per-user fallback.

    A labels folder reached through a link (``<session>/labels`` a symlink) is left out, and
    named in ``refused`` (path, reason) when a list is given.
    """
    dirs = []
    fallback = fallback_root(root)
    for s in sessions:
        for base in (Path(root), fallback):
            try:
                dirs.append((s, check_dir(base, f"{s}/{LABELS_DIR}")))
            except LinkOnPath as exc:
                if refused is not None:
                    refused.append(refused_reason(exc))
            except OSError:
                pass
    return dirs


def reviewer_entries(folder: Path, refused: list[tuple[Path, str]] | None = None
                     ) -> dict[str, tuple[Path | None, Path | None]]:
    """A labels folder's reviewers by folder stem: (their format-1 file, their format-2 folder), either None.

    Adjudications (``_adjudicated``) and names starting with ``.`` or ``_`` are left out. A link
    is never followed: it is named in ``refused`` (path, reason) when a list is given.
    """
    out: dict[str, tuple[Path | None, Path | None]] = {}
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return out
    for e in entries:
        if e.name.startswith((".", "_")):
            continue
        try:
            st = e.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISLNK(st.st_mode):
            if refused is not None:
                refused.append((Path(e.path), "is a symbolic link (labels are never read through a link); "
                                "its labels are not read"))
        elif stat.S_ISDIR(st.st_mode):
            old = out.get(e.name, (None, None))[0]
            out[e.name] = (old, Path(e.path))
        elif stat.S_ISREG(st.st_mode) and e.name.endswith(SUFFIX):
            stem = e.name[: -len(SUFFIX)]
            out[stem] = (Path(e.path), out.get(stem, (None, None))[1])
    return out


FolderKey = tuple[int, int, int]


def folder_key(folder: Path) -> FolderKey | None:
    """(inode, mtime, ctime) of a folder by ``lstat``: a file created, renamed or removed in it changes
    it (a file rewritten in place does not); None when it is absent or not a folder."""
    try:
        st = os.lstat(folder)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_ctime_ns) if stat.S_ISDIR(st.st_mode) else None


def run_files(folder: Path) -> list[Path]:
    """The label files in a reviewer's folder, by name (an absent or unreadable folder has none)."""
    try:
        return sorted(Path(e.path) for e in os.scandir(folder) if is_run_file(e.name))
    except OSError:
        return []
