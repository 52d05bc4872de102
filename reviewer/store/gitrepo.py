"""All git access: repository facts, run provenance and committing labels, always run safely.

Sessions repositories come from other people, so every git command runs in the environment of
:func:`reviewer.store.gitenv.safe_git_env` plus :data:`EXTRA_CONFIG` (no fsmonitor, no hooks, no
signing programs, no prompts, literal pathspecs), with ``--`` before every path that came from
the folder, and never through a shell. Commands that read the working tree also switch off
clean/smudge filters defined by the repository's own config. ``git diff``-like calls pass
``--no-ext-diff --no-textconv``.

Every public function opens its own ``git.Repo`` and closes it before returning, so each one is
safe to call from a worker thread (GitPython objects are not thread-safe: never share one).
A folder outside git is not an error: the functions return None or empty results.
Label history is in :mod:`reviewer.store.githistory`, committing labels in :mod:`reviewer.store.gitcommit`.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from reviewer.store.gitenv import safe_git_env

EXTRA_CONFIG = (
    ("log.showSignature", "false"),
    ("commit.gpgSign", "false"),
    ("tag.gpgSign", "false"),
    ("core.quotePath", "false"),
    ("core.pager", "cat"),
    ("color.ui", "false"),
    ("i18n.logOutputEncoding", "UTF-8"),
    ("diff.noprefix", "false"),
    ("diff.mnemonicPrefix", "false"),
    ("diff.relative", "false"),
    ("diff.suppressBlankEmpty", "false"),
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
    ("status.showUntrackedFiles", "normal"),
)
DUBIOUS = re.compile(r"dubious ownership in repository at '([^'\n]*)'")
FILTER_KEY = re.compile(r"^filter\.(.+)\.(clean|smudge|process)$")


class GitError(Exception):
    """A git command failed; the message says what git said."""


class GitUnsafe(GitError):
    """Git refused a repository owned by another user ("dubious ownership").

    Attributes:
        path: the repository git refused.
        command: the command the user may run to trust it (reviewer never runs it).
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.command = f"git config --global --add safe.directory {shlex.quote(path)}"
        super().__init__(
            f"git refuses to use {path}: it belongs to another user (\"dubious ownership\"). "
            f"If you trust this repository, run:\n  {self.command}\n"
            "reviewer never changes your git config; its git features stay off until then."
        )


@dataclass(frozen=True, slots=True)
class RepoInfo:
    """The repository a sessions folder lives in.

    Attributes:
        toplevel: the repository's working tree root (absolute).
        root: the sessions folder relative to ``toplevel`` ("." when it is the top level).
        branch: the current branch, "" when HEAD is detached.
        detached: HEAD points at a commit, not a branch.
        head: short hash of HEAD, "" before the first commit.
        dirty: the sessions folder has uncommitted changes (untracked files included).
    """

    toplevel: str
    root: str
    branch: str
    detached: bool
    head: str
    dirty: bool


@dataclass(frozen=True, slots=True)
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


def git_env(extra: Iterable[tuple[str, str]] = ()) -> dict[str, str]:
    """The environment of every git command: safe_git_env plus EXTRA_CONFIG and ``extra``."""
    env = safe_git_env()
    n = int(env["GIT_CONFIG_COUNT"])
    for key, value in (*EXTRA_CONFIG, *extra):
        env[f"GIT_CONFIG_KEY_{n}"] = key
        env[f"GIT_CONFIG_VALUE_{n}"] = value
        n += 1
    env["GIT_CONFIG_COUNT"] = str(n)
    env["GIT_CONFIG_PARAMETERS"] = ""
    env["GIT_LITERAL_PATHSPECS"] = "1"
    env["GIT_NO_REPLACE_OBJECTS"] = "1"
    env["GIT_PAGER"] = "cat"
    env["LC_ALL"] = "C"
    return env


def unquote_path(raw: bytes) -> str:
    """A path as git printed it, undoing git's C-style quoting of unusual names."""
    if len(raw) < 2 or not raw.startswith(b'"') or not raw.endswith(b'"'):
        return raw.decode("utf-8", "surrogateescape")
    body, out, i = raw[1:-1], bytearray(), 0
    simple = {ord("a"): 7, ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11, ord("f"): 12, ord("r"): 13}
    while i < len(body):
        c = body[i]
        if c != 0x5C or i + 1 >= len(body):
            out.append(c)
            i += 1
            continue
        nxt = body[i + 1]
        if 0x30 <= nxt <= 0x37 and i + 4 <= len(body):
            out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
            i += 4
        else:
            out.append(simple.get(nxt, nxt))
            i += 2
    return bytes(out).decode("utf-8", "surrogateescape")


class GitSession:
    """One open repository for one job: runs git commands in the safe environment."""

    def __init__(self, repo: Any, root: Path) -> None:
        self.repo = repo
        self.toplevel = Path(os.path.realpath(repo.working_tree_dir))
        self.root = Path(os.path.realpath(root))
        rel = self.root.relative_to(self.toplevel).as_posix()
        self.rel = "" if rel == "." else rel
        self.env = git_env()
        self.worktree_env: dict[str, str] | None = None

    def path(self, *parts: str) -> str:
        """A path relative to the top level, from parts relative to the sessions folder."""
        return "/".join(p for p in (self.rel, *parts) if p) or "."

    def run(self, *args: str, stdin: bytes | None = None, worktree: bool = False) -> bytes:
        """Run ``git ARGS`` in the top level; its stdout, or GitError/GitUnsafe."""
        import git

        env = self.filters_off() if worktree else self.env
        with contextlib.ExitStack() as stack:
            istream = None
            if stdin is not None:
                istream = stack.enter_context(tempfile.TemporaryFile())
                istream.write(stdin)
                istream.seek(0)
            try:
                status, out, err = self.repo.git.execute(
                    [git.Git.GIT_PYTHON_GIT_EXECUTABLE or "git", *args],
                    istream=istream,
                    env=env,
                    with_extended_output=True,
                    with_exceptions=False,
                    stdout_as_string=False,
                    strip_newline_in_stdout=False,
                )
            except git.GitCommandNotFound as exc:
                raise GitError(f"git is not installed: {exc}") from None
        if status != 0:
            raise error_from(err if isinstance(err, str) else err.decode("utf-8", "replace"), args[0])
        return out if isinstance(out, bytes) else out.encode("utf-8")

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


def error_from(stderr: str, command: str) -> GitError:
    """The exception for a failed git command."""
    m = DUBIOUS.search(stderr)
    if m:
        return GitUnsafe(m.group(1))
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()][:6]
    return GitError(f"git {command} failed: " + (" / ".join(lines) or "no message"))


@contextlib.contextmanager
def open_repo(root: Path) -> Iterator[GitSession | None]:
    """The repository holding ``root`` for one job (None outside git), closed on exit."""
    try:
        import git
    except ImportError:
        yield None
        return
    try:
        repo = git.Repo(os.path.realpath(root), search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, OSError, ValueError):
        yield None
        return
    try:
        repo.git.update_environment(**git_env())
        session = None
        if not repo.bare and repo.working_tree_dir:
            try:
                session = GitSession(repo, Path(root))
            except ValueError:
                session = None
        yield session
    finally:
        repo.close()


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
