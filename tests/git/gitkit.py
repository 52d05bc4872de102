"""Real git repositories for the git tests: made with the git command line, never mocked."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sessionkit import RunSpec, small_folder, write_session

REPO_ROOT = Path(__file__).resolve().parents[2]
NOT_FOR_PLAIN_GIT: set[str] = set()
"""Variables the test set in ``os.environ`` for reviewer only (environment traps): the test's own git calls drop them."""


def git(repo: Path, *args: str, check: bool = True) -> str:
    """Run plain git (the user's own git, no safety settings) in ``repo``; its stdout."""
    env = {k: v for k, v in os.environ.items() if k not in NOT_FOR_PLAIN_GIT}
    out = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=False,
        env={**env, "GIT_TERMINAL_PROMPT": "0"},
    )
    if check and out.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {out.stderr}")
    return out.stdout


def init_repo(repo: Path) -> Path:
    """``git init`` with a repo-local identity."""
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Test Person")
    git(repo, "config", "user.email", "test@example.invalid")
    return repo


def commit_all(repo: Path, message: str = "sessions") -> str:
    """Stage and commit everything with plain git; the new commit's hash."""
    git(repo, "add", "-A")
    git(repo, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--no-verify", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def sessions_repo(tmp_path: Path) -> Path:
    """A git repository holding the small sessions folder at ``repo/sessions``, committed."""
    repo = init_repo(tmp_path / "repo")
    root = small_folder(repo / "sessions")
    commit_all(repo, "add sessions")
    return root


def many_failures(root: Path, count: int = 12) -> list[str]:
    """A session ``m`` with one run failing ``count`` checks; their failure ids."""
    checks = [{"key": f"T{i:02d}", "status": "fail", "message": f"check {i}"} for i in range(count)]
    write_session(root, "m", [RunSpec("run1", checks=checks)])
    return [f"m/run1#heldout:T{i:02d}" for i in range(count)]


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m reviewer.cli ARGS`` in a subprocess, as a user would run it."""
    return subprocess.run(
        [sys.executable, "-m", "reviewer.cli", *args], capture_output=True, text=True,
        cwd=cwd or REPO_ROOT, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)}, timeout=120,
    )


def changed_files(repo: Path, commit: str) -> list[str]:
    """Files a commit touched."""
    return git(repo, "show", "--format=", "--name-only", commit).split()


PARTIAL_CLONE_VARIANTS = ("ext", "ssh")
"""How a partial clone's promisor remote runs a command when git lazy-fetches a missing object."""


def make_partial_clone(repo: Path, variant: str, canary: Path) -> str:
    """Turn a committed repository into a partial clone whose lazy fetch runs ``touch canary``.

    The tree of the first session's ``runs`` folder is deleted from the object store, the
    repository claims to be a partial clone of ``origin`` (``extensions.partialClone``, a
    promisor remote), and the remote either is an ``ext::`` command or goes over ``ssh://``
    with ``core.sshCommand``; ``protocol.<name>.allow=always`` in the repository's own config
    outranks a caller's ``protocol.allow=never``. Returns the path of the missing tree's folder.
    """
    runs = "sessions/s1/runs"
    tree = git(repo, "rev-parse", f"HEAD:{runs}").strip()
    (repo / ".git" / "objects" / tree[:2] / tree[2:]).unlink()
    settings = [("core.repositoryFormatVersion", "1"), ("extensions.partialClone", "origin"),
                ("remote.origin.promisor", "true"), ("remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*")]
    if variant == "ext":
        settings += [("remote.origin.url", f"ext::sh -c touch% {canary}% ;false"), ("protocol.ext.allow", "always")]
    elif variant == "ssh":
        settings += [("remote.origin.url", "ssh://example.invalid/x.git"),
                     ("core.sshCommand", f"touch {canary}; false"), ("protocol.ssh.allow", "always")]
    else:
        raise ValueError(variant)
    for key, value in settings:
        git(repo, "config", key, value)
    return runs


def prove_lazy_fetch_runs(repo: Path, canary: Path) -> bool:
    """Plain git (with ``protocol.allow=never`` even) lazy-fetches the missing tree: the canary appears."""
    git(repo, "-c", "protocol.allow=never", "log", "--name-only", "--format=%H", "--", "sessions", check=False)
    fired = canary.exists()
    if fired:
        canary.unlink()
    return fired
