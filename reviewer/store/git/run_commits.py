"""Run provenance: the commit that last touched each run folder, and whether it changed since.

One ``git log --name-only`` over the sessions' ``runs`` folders (the first commit seen for a run
is the last one that touched it) and one ``git status``, both through
:meth:`reviewer.store.git.repository.GitSession.run`. Empty outside git.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from reviewer.model.records import record
from reviewer.store.git.repository import open_repo
from reviewer.store.git.run import unquote_path


@record
class RunCommit:
    """The commit that last touched a run folder, and whether the folder changed since.

    A run that was never committed has empty ``commit``/``short``/``date``/``author`` and
    ``changed_since`` True.
    """

    commit: str
    short: str
    date: str
    author: str
    changed_since: bool

    @property
    def committed(self) -> bool:
        """True when some commit touched the run folder."""
        return bool(self.commit)


def run_folders(root: Path) -> dict[str, str]:
    """Run folders on disk: ``<session>/runs/<run>`` by run key ``<session>/<run>``."""
    found: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for s in sorted(os.scandir(root), key=lambda e: e.name):
            if s.name.startswith(".") or not s.is_dir(follow_symlinks=False):
                continue
            with contextlib.suppress(OSError):
                for r in os.scandir(os.path.join(s.path, "runs")):
                    if not r.name.startswith(".") and r.is_dir(follow_symlinks=False):
                        found[f"{s.name}/{r.name}"] = f"{s.name}/runs/{r.name}"
    return found


def provenance(root: Path) -> dict[str, RunCommit]:
    """Per run (key ``<session>/<run>``) the last commit touching its folder, and changes since.

    One ``git log --name-only`` over the ``runs`` folders (the first commit seen for a run is
    the last one that touched it) and one ``git status``. Runs never committed appear with an
    empty commit. Empty outside git.

    Raises:
        GitUnsafe, GitError: as :func:`repo_info`.
    """
    folders = run_folders(Path(root))
    if not folders:
        return {}
    by_folder = {g: k for k, g in folders.items()}
    sessions = sorted({f.split("/", 1)[0] for f in folders.values()})
    with open_repo(root) as g:
        if g is None:
            return {}
        headers, changed = g.status(*(g.path(s, "runs") for s in sessions))
        log = b""
        if headers.get("branch.oid", "(initial)") != "(initial)":
            log = g.run(
                "log", "--no-color", "--no-show-signature", "--no-renames", "--no-merges", "--name-only",
                "--format=%x00%H%x1f%h%x1f%aI%x1f%an", "HEAD", "--", *(g.path(s, "runs") for s in sessions),
            )
        prefix = f"{g.rel}/" if g.rel else ""
    first: dict[str, tuple[str, str, str, str]] = {}
    current: tuple[str, str, str, str] | None = None
    for line in log.split(b"\n"):
        if line.startswith(b"\0"):
            fields = line[1:].decode("utf-8", "replace").split("\x1f", 3)
            current = (fields + ["", "", "", ""])[:4]  # type: ignore[assignment]
            continue
        if not line or current is None:
            continue
        folder = run_folder_of(unquote_path(line), prefix)
        if folder in by_folder and folder not in first:
            first[folder] = current
    dirty = {f for f in (run_folder_of(p, prefix) for p in changed) if f}
    dirty_prefixes = [p[len(prefix):].rstrip("/") for p in changed if p.endswith("/") and p.startswith(prefix)]
    out: dict[str, RunCommit] = {}
    for folder, key in by_folder.items():
        changed_since = folder in dirty or any(folder.startswith(d + "/") for d in dirty_prefixes)
        sha, short, date, author = first.get(folder, ("", "", "", ""))
        out[key] = RunCommit(sha, short, date, author, changed_since or not sha)
    return out


def run_folder_of(path: str, prefix: str) -> str:
    """``<session>/runs/<run>`` for a path inside a run folder, else ""."""
    if not path.startswith(prefix):
        return ""
    parts = path[len(prefix):].split("/")
    if len(parts) >= 3 and parts[1] == "runs" and parts[2]:
        return "/".join(parts[:3])
    return ""
