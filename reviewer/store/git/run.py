"""Running git: one subprocess per command, in a complete environment, errors in words.

:func:`run_git` is the only place reviewer starts git for a repository, for what GitPython has
no in-process API for (finding the repository with git's ownership check, status, logs, config):
never through a shell, never through GitPython's ``Git.execute`` (which starts from
``os.environ``), always with the complete environment it is given
(:func:`reviewer.store.git.environment.git_env`).
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path
from typing import Iterable

DUBIOUS = re.compile(r"dubious ownership in repository at '([^'\n]*)'")


class GitError(Exception):
    """A git command failed; the message says what git said."""


class GitReadOnly(GitError):
    """The repository is not one reviewer may write to (a partial clone, a ``.git`` pointing
    elsewhere); the message says why, ready to show. Reading it stays allowed."""


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


def error_from(stderr: str, command: str) -> GitError:
    """The exception for a failed git command."""
    m = DUBIOUS.search(stderr)
    if m:
        return GitUnsafe(m.group(1))
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()][:6]
    return GitError(f"git {command} failed: " + (" / ".join(lines) or "no message"))


def run_git(cwd: Path, args: Iterable[str], env: dict[str, str], stdin: bytes | None = None) -> bytes:
    """Run ``git ARGS`` in ``cwd`` with exactly ``env`` (never merged into the caller's); its stdout.

    Raises:
        GitUnsafe: git refused the repository ("dubious ownership").
        GitError: git is missing or the command failed.
    """
    args = list(args)
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, env=env, input=stdin if stdin is not None else None,
            stdin=subprocess.DEVNULL if stdin is None else None, capture_output=True, check=False,
        )
    except FileNotFoundError as exc:
        raise GitError(f"git is not installed: {exc}") from None
    except OSError as exc:
        raise GitError(f"git could not be started in {cwd}: {exc.strerror or exc}") from None
    if done.returncode != 0:
        raise error_from(done.stderr.decode("utf-8", "replace"), args[0] if args else "")
    return done.stdout
