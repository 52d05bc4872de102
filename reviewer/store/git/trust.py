"""Whether reviewer may write (commit) to the repository a sessions folder lives in.

A sessions folder received as an archive can carry a ``.git`` that is not its own: a ``.git``
file saying ``gitdir: ../victim/.git``, or a ``.git`` folder whose ``commondir`` names another
repository's git folder. Git then works on that other repository, and a commit would land
there. A repository set up as a partial clone would fetch missing objects from its promisor
remote (reviewer's environment forbids every transport, so the fetch fails, but the history
is incomplete and the remote is not ours to trust). Such a repository is read, never written:
:func:`repo_warning` says why in a sentence ready to show.

Trusted: a ``.git`` folder that is its own common folder; a ``.git`` file of a linked worktree
(its git folder is ``<common>/worktrees/<name>`` and that folder's ``gitdir`` names this very
``.git`` file back, as ``git worktree add`` writes it); a ``.git`` file of a submodule (its git
folder's ``core.worktree`` is this working tree).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from reviewer.store.git.run import GitError, run_git

PROMISOR_KEYS = r"^(extensions\.partialclone|remote\..*\.promisor)$"
READ_ONLY = "reviewer reads its history but never commits to it"


def same(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """True when two paths name the same place once links are resolved."""
    return os.path.realpath(a) == os.path.realpath(b)


def read_small(path: Path, limit: int = 4096) -> str:
    """The first ``limit`` bytes of a regular file as text ("" when it is not one)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return ""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        return os.read(fd, limit).decode("utf-8", "surrogateescape")
    except OSError:
        return ""
    finally:
        os.close(fd)


def linked_worktree(dotgit: Path, git_dir: Path, common: Path) -> bool:
    """``git_dir`` is ``<common>/worktrees/<name>`` and names ``dotgit`` back."""
    if not same(git_dir.parent, common / "worktrees"):
        return False
    back = read_small(git_dir / "gitdir").strip()
    return bool(back) and same((git_dir / back) if not os.path.isabs(back) else back, dotgit)


def submodule(top: Path, git_dir: Path, env: dict[str, str]) -> bool:
    """The git folder's own ``core.worktree`` is this working tree (how git links a submodule)."""
    try:
        out = run_git(top, ["config", "--file", str(git_dir / "config"), "--get", "core.worktree"], env)
    except GitError:
        return False
    value = out.decode("utf-8", "surrogateescape").strip()
    return bool(value) and same(value if os.path.isabs(value) else git_dir / value, top)


def partial_clone(top: Path, common: Path, env: dict[str, str]) -> str:
    """The promisor remote's setting when the repository is a partial clone, else ""."""
    try:
        raw = run_git(top, ["config", "-z", "--show-scope", "--includes", "--get-regexp", PROMISOR_KEYS], env)
    except GitError:
        raw = b""
    fields = raw.split(b"\0")
    for i in range(0, len(fields) - 1, 2):  # "<scope>\0<key>\n<value>\0" per entry
        scope, (key, _, value) = fields[i], fields[i + 1].decode("utf-8", "replace").partition("\n")
        if scope in (b"global", b"system") or value.strip().lower() in ("false", "no", "off", "0"):
            continue
        return f"{key} = {value.strip()}" if value.strip() else key
    try:
        packs = os.listdir(common / "objects" / "pack")
    except OSError:
        packs = []
    return next((f"objects/pack/{p}" for p in sorted(packs) if p.endswith(".promisor")), "")


def repo_warning(top: Path, git_dir: Path, common: Path, env: dict[str, str]) -> str:
    """Why reviewer must not commit to the repository git found for the working tree ``top``
    (its git folder ``git_dir``, common folder ``common``): "" when it may. ``env`` is the
    environment of the git commands that read its config."""
    dotgit = top / ".git"
    try:
        st = os.lstat(dotgit)
    except OSError:
        return (f"git finds the repository of {top} at {git_dir}, outside the folder (no .git of its own); "
                f"{READ_ONLY}")
    if stat.S_ISLNK(st.st_mode):
        return f"{dotgit} is a symbolic link to {os.readlink(dotgit)}, another repository; {READ_ONLY}"
    if stat.S_ISREG(st.st_mode):
        if not (linked_worktree(dotgit, git_dir, common) or submodule(top, git_dir, env)):
            return (f"{dotgit} is a file pointing at {git_dir}, a repository outside this folder (not a worktree "
                    f"or submodule of it); {READ_ONLY}")
    elif not same(git_dir, dotgit):
        return f"{dotgit} is not the repository git uses ({git_dir}); {READ_ONLY}"
    elif not same(common, git_dir):
        return f"{dotgit}/commondir points at {common}, another repository's git folder; {READ_ONLY}"
    promisor = partial_clone(top, common, env)
    if promisor:
        return (f"{top} is a partial clone ({promisor}): objects missing here would be fetched from its remote, "
                f"which reviewer never does; {READ_ONLY}")
    return ""
