"""One repository for one job: git finds it, GitPython reads it, both kept from running anything.

Sessions repositories come from other people. :func:`open_repo` asks git itself which repository
holds a sessions folder (``rev-parse``, so git's own discovery and its "dubious ownership" check
decide), and the :class:`GitSession` it yields works on exactly that one:

- in-process through GitPython (:attr:`GitSession.repo`), whose pure-Python object database
  (``odbt=GitDB``) reads refs and objects without starting git, so no config of the repository
  can make it run a command or fetch: HEAD, the blobs of a file at a commit, and the objects a
  commit writes (:mod:`reviewer.store.git.commit`). GitPython's Repo is opened for the job and
  closed when the job ends; it is never shared between threads. It is refused while a
  repository-locating variable is set in ``os.environ`` (GitPython would honour it), and when it
  finds another git folder than git did.
- through git (:meth:`GitSession.run`) for what GitPython has no in-process API for: status, logs
  and config, each one process in the complete environment of
  :func:`reviewer.store.git.environment.git_env` (no fsmonitor, no hooks, no signing programs, no
  prompts, no transport so nothing is ever fetched, literal pathspecs), with ``--`` before every
  path that came from the folder, never through a shell. Commands that read the working tree
  also switch off clean/smudge filters defined by the repository's own config; ``git diff``-like
  calls pass ``--no-ext-diff --no-textconv``.

A repository reviewer must not write to (a partial clone, a ``.git`` file or ``commondir``
pointing at another repository: :mod:`reviewer.store.git.trust`) is read, never committed to:
``RepoInfo.warning`` says why and commits raise :class:`GitReadOnly`.

A folder outside git is not an error: the functions return None or empty results.
"""

from __future__ import annotations

import contextlib
import os
import re
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from reviewer.model.records import record
from reviewer.store.git.environment import git_env, locating_variables
from reviewer.store.git.run import GitError, GitReadOnly, GitUnsafe, run_git
from reviewer.store.git.trust import repo_warning, same

if TYPE_CHECKING:
    from git import Repo

warnings.filterwarnings("ignore", message="GitDB is deprecated as a GitPython backend", category=DeprecationWarning)
# GitPython 3.2 deprecates its pure-Python object database: its pack reader applies deltas in
# Python, far slower than git over a whole history. reviewer reads only a few objects through
# it (HEAD, HEAD's tree when committing, a few blobs) and walks history with git.

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
        self._repo: Repo | None = None

    @property
    def repo(self) -> Repo:
        """GitPython's Repo of this repository, reading objects in-process (opened on first use).

        Raises:
            GitError: a locating variable is set in the environment, or GitPython cannot open
                the repository or finds another git folder than git found.
        """
        if self._repo is None:
            self._repo = gitpython_repo(self.git_dir, self.common_dir)
        return self._repo

    def close(self) -> None:
        """Close GitPython's Repo (its memory maps of pack files) if it was opened."""
        if self._repo is not None:
            self._repo.close()
            self._repo = None

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
            self._warning = repo_warning(self.toplevel, self.git_dir, self.common_dir, self.env)
        return self._warning

    def require_writable(self) -> None:
        """Raise GitReadOnly when reviewer must not write (commit) to this repository."""
        if self.warning:
            raise GitReadOnly(self.warning)

    def head_commit(self) -> str:
        """The full hash of HEAD's commit, "" on a branch without commits yet (read in-process).

        Raises:
            GitError: HEAD or the refs cannot be read.
        """
        repo = self.repo
        try:
            return repo.head.commit.hexsha
        except ValueError:  # HEAD names a branch that has no commit yet
            return ""
        except Exception as exc:  # noqa: BLE001 - GitPython and gitdb raise many kinds for broken refs
            raise GitError(f"cannot read HEAD of {self.git_dir}: {exc}") from None

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
        yield None
        return
    try:
        yield session
    finally:
        session.close()


def gitpython_repo(git_dir: Path, common_dir: Path) -> Repo:
    """GitPython's Repo of the git folder git found, with the pure-Python object database.

    Raises:
        GitError: a repository-locating variable is set in ``os.environ`` (GitPython would use
            it), GitPython cannot open the folder, or it finds another common folder than git.
    """
    found = locating_variables()
    if found:
        raise GitError(f"{', '.join(found)} set in the environment would point GitPython at another repository; "
                       "reviewer's command line clears them at start (reviewer.store.git.scrub_environment)")
    from git import Repo
    from gitdb import GitDB

    try:
        repo = Repo(str(git_dir), odbt=GitDB, expand_vars=False)
    except Exception as exc:  # noqa: BLE001 - GitPython raises many kinds for a folder it cannot read
        raise GitError(f"GitPython cannot open {git_dir}: {exc}") from None
    if not (same(repo.git_dir, git_dir) and same(repo.common_dir, common_dir)):
        found_dirs = f"{repo.git_dir} ({repo.common_dir})"
        repo.close()
        raise GitError(f"GitPython finds {found_dirs} where git finds {git_dir} ({common_dir}); not used")
    return repo


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
