"""All git access: repository facts, run provenance and committing labels, always run safely.

Sessions repositories come from other people, so every git command runs in the environment of
:func:`reviewer.store.gitenv.safe_git_env` plus :data:`EXTRA_CONFIG` (no fsmonitor, no hooks, no
signing programs, no prompts, no transport so nothing is ever fetched, literal pathspecs), as a
complete environment (the caller's ``GIT_DIR``, ``GIT_INDEX_FILE``... never reach git), with
``--`` before every path that came from the folder, and never through a shell. Commands that
read the working tree also switch off clean/smudge filters defined by the repository's own
config. ``git diff``-like calls pass ``--no-ext-diff --no-textconv``.

A repository reviewer must not write to (a partial clone, a ``.git`` file or ``commondir``
pointing at another repository: :mod:`reviewer.store.gittrust`) is read, never committed to:
``RepoInfo.warning`` says why and commits raise :class:`GitReadOnly`.

Every public function starts its own git processes (no shared state), so each one is safe to
call from a worker thread.
A folder outside git is not an error: the functions return None or empty results.
Label history is in :mod:`reviewer.store.githistory`, committing labels in :mod:`reviewer.store.gitcommit`.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import Iterator

from reviewer.model.records import record
from reviewer.store.gitrun import (  # noqa: F401 - GitError, GitUnsafe, unquote_path... are used from here
    DUBIOUS,
    EXTRA_CONFIG,
    GitError,
    GitReadOnly,
    GitUnsafe,
    error_from,
    git_env,
    run_git,
    unquote_path,
)

__all__ = ["DUBIOUS", "EXTRA_CONFIG", "GitError", "GitReadOnly", "GitSession", "GitUnsafe", "RepoInfo", "RunCommit",
           "error_from", "git_env", "open_repo", "provenance", "repo_info", "run_folder_of", "run_folders", "run_git",
           "unquote_path"]  # gitrun's names too: callers import them from here

FILTER_KEY = re.compile(r"^filter\.(.+)\.(clean|smudge|process)$")


@record
class RepoInfo:
    """The repository a sessions folder lives in.

    Attributes:
        toplevel: the repository's working tree root (absolute).
        root: the sessions folder relative to ``toplevel`` ("." when it is the top level).
        branch: the current branch, "" when HEAD is detached.
        detached: HEAD points at a commit, not a branch.
        head: short hash of HEAD, "" before the first commit.
        dirty: the sessions folder has uncommitted changes (untracked files included).
        warning: why the repository is read-only for reviewer ("" when commits are allowed):
            a partial clone, a ``.git`` file or ``commondir`` pointing at another repository.
            A sentence ready to show the user.
    """

    toplevel: str
    root: str
    branch: str
    detached: bool
    head: str
    dirty: bool
    warning: str = ""

    @property
    def read_only(self) -> bool:
        """True when reviewer refuses to commit to this repository (``warning`` says why)."""
        return bool(self.warning)


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


class GitSession:
    """One open repository for one job: runs git commands in the safe environment.

    Attributes:
        toplevel: the working tree root git found for the sessions folder (absolute, real).
        root: the sessions folder (absolute, real).
        git_dir, common_dir: the repository's git folder and its common folder (absolute).
    """

    def __init__(self, toplevel: Path, root: Path, git_dir: Path, common_dir: Path) -> None:
        self.toplevel = Path(os.path.realpath(toplevel))
        self.root = Path(os.path.realpath(root))
        rel = self.root.relative_to(self.toplevel).as_posix()
        self.rel = "" if rel == "." else rel
        self.git_dir = git_dir
        self.common_dir = common_dir
        self.env = git_env()
        self.worktree_env: dict[str, str] | None = None
        self._warning: str | None = None

    def path(self, *parts: str) -> str:
        """A path relative to the top level, from parts relative to the sessions folder."""
        return "/".join(p for p in (self.rel, *parts) if p) or "."

    def run(self, *args: str, stdin: bytes | None = None, worktree: bool = False) -> bytes:
        """Run ``git ARGS`` in the top level; its stdout, or GitError/GitUnsafe."""
        env = self.filters_off() if worktree else self.env
        return run_git(self.toplevel, args, env, stdin)

    @property
    def warning(self) -> str:
        """Why this repository is read-only for reviewer ("" when it may be committed to)."""
        if self._warning is None:
            from reviewer.store.gittrust import repo_warning

            self._warning = repo_warning(self)
        return self._warning

    def require_writable(self) -> None:
        """Raise GitReadOnly when reviewer must not write (commit) to this repository."""
        if self.warning:
            raise GitReadOnly(self.warning)

    def head_commit(self) -> str:
        """The full hash of HEAD's commit, "" on a branch without commits yet."""
        try:
            out = self.run("rev-parse", "--verify", "--quiet", "HEAD^{commit}")
        except GitUnsafe:
            raise
        except GitError:
            return ""
        return out.decode("ascii", "replace").strip()

    def filters_off(self) -> dict[str, str]:
        """The environment plus switched-off clean/smudge/process filters of the repo's own config.

        Filters configured by the user (global or system config, such as git-lfs) are kept;
        filters defined in the repository's config (which came with the folder) never run.
        """
        if self.worktree_env is None:
            try:
                raw = self.run("config", "-z", "--show-scope", "--get-regexp", r"^filter\..*\.(clean|smudge|process)$")
            except GitError:
                raw = b""
            names = set()
            fields = raw.split(b"\0")
            for i in range(0, len(fields) - 1, 2):  # "<scope>\0<key>\n<value>\0" per entry
                scope = fields[i]
                key = fields[i + 1].split(b"\n", 1)[0].decode("utf-8", "surrogateescape")
                m = FILTER_KEY.match(key)
                if m and scope not in (b"global", b"system"):
                    names.add(m.group(1))
            extra = [(f"filter.{n}.{k}", "") for n in sorted(names) for k in ("clean", "smudge", "process")]
            extra += [(f"filter.{n}.required", "false") for n in sorted(names)]
            self.worktree_env = git_env(extra)
        return self.worktree_env

    def status(self, *paths: str) -> tuple[dict[str, str], list[str]]:
        """``status --porcelain=v2 --branch`` of paths: branch headers and changed paths."""
        out = self.run(
            "status", "--porcelain=v2", "--branch", "-z", "--no-renames", "--ignore-submodules=all",
            "--untracked-files=normal", "--", *paths, worktree=True,
        )
        headers: dict[str, str] = {}
        changed = []
        for entry in out.split(b"\0"):
            if not entry:
                continue
            if entry.startswith(b"# "):
                key, _, value = entry[2:].decode("utf-8", "replace").partition(" ")
                headers[key] = value
                continue
            kind = entry[:1]
            fields = {b"1": 9, b"2": 10, b"u": 11, b"?": 2, b"!": 2}.get(kind)
            if fields is None:
                continue
            parts = entry.split(b" ", fields - 1)
            if len(parts) == fields and kind != b"!":
                changed.append(parts[-1].decode("utf-8", "surrogateescape"))
        return headers, changed


@contextlib.contextmanager
def open_repo(root: Path) -> Iterator[GitSession | None]:
    """The repository holding ``root`` for one job (None outside git or in a bare repository).

    git itself finds the repository (``rev-parse``), in the safe environment, so it finds the
    one every later command will use.

    Raises:
        GitUnsafe: git refuses the repository (owned by another user).
        GitError: git is missing.
    """
    real = os.path.realpath(root)
    if not os.path.isdir(real):
        yield None
        return
    try:
        out = run_git(Path(real), ["rev-parse", "--path-format=absolute", "--show-toplevel", "--absolute-git-dir",
                                   "--git-common-dir"], git_env())
    except GitUnsafe:
        raise
    except GitError as exc:
        if "is not installed" in str(exc):
            raise
        yield None
        return
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 3 or not all(lines[:3]):
        yield None
        return
    try:
        session = GitSession(Path(lines[0]), Path(real), Path(lines[1]), Path(lines[2]))
    except ValueError:
        session = None
    yield session


def repo_info(root: Path) -> RepoInfo | None:
    """Repository, branch and dirtiness of the sessions folder; None outside git.

    Raises:
        GitUnsafe: git refuses the repository (owned by another user).
        GitError: another git failure.
    """
    with open_repo(root) as g:
        if g is None:
            return None
        headers, changed = g.status(g.path())
        warning = g.warning
    oid = headers.get("branch.oid", "")
    head = headers.get("branch.head", "")
    detached = head == "(detached)"
    return RepoInfo(
        toplevel=str(g.toplevel),
        root=g.rel or ".",
        branch="" if detached else head,
        detached=detached,
        head="" if oid in ("", "(initial)") else oid[:7],
        dirty=bool(changed),
        warning=warning,
    )


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
