"""The caller's environment as a trap: ``GIT_*`` variables that point git at another repository or run a program.

Each trap is proven live with plain git first (``prove``: git honours the variable: it finds
the victim's repository, writes the trap index, runs the trap program...); GitPython's own
``GIT_PYTHON_GIT_EXECUTABLE`` is proven live with plain GitPython (importing it runs that program). Then reviewer runs
with every trap in its environment and a ``git`` on ``PATH`` that logs the environment of each
git call before running the real git: a trap's value in that log means reviewer let the
variable through. Shared by ``tests/reliability/git_canary.py`` and the hostile-folder finding 10.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import gitkit
from gitkit import commit_all, git, init_repo

MARK = "envtrap"


@dataclass
class EnvTrap:
    """One variable (or a set that acts together), the proof plain git honours it."""

    name: str
    env: dict[str, str]
    prove: Callable[[dict[str, str]], bool]


def plain(repo: Path, env: dict[str, str], *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Plain git in ``repo`` with the caller's environment plus ``env``."""
    return subprocess.run(["git", "-C", str(repo), *args], input=stdin, capture_output=True, text=True,
                          env={**clean_env(), "GIT_TERMINAL_PROMPT": "0", **env}, timeout=30, check=False)


def imports_gitpython(env: dict[str, str]) -> bool:
    """Plain GitPython: a Python that imports it with the caller's environment plus ``env``."""
    done = subprocess.run([sys.executable, "-c", "import git"], capture_output=True, text=True,
                          env={**clean_env(), **env}, timeout=60, check=False)
    return done.returncode == 0


def clean_env() -> dict[str, str]:
    """``os.environ`` without any trap variable (for the test's own plain git calls)."""
    return {k: v for k, v in os.environ.items() if MARK not in v}


def executable(path: Path, text: str) -> Path:
    """Write an executable script."""
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def build(tmp: Path, repo: Path) -> tuple[list[EnvTrap], Path, Path]:
    """The traps for ``repo``; (traps, the folder a sprung trap writes into, the victim repository)."""
    victim = init_repo(tmp / f"{MARK}-victim")
    (victim / "victim.txt").write_text("someone else's\n")
    commit_all(victim, "victim")
    vhead = git(victim, "rev-parse", "HEAD").strip()
    out = tmp / f"{MARK}-out"
    out.mkdir()
    (out / "objects").mkdir()
    trap = executable(tmp / f"{MARK}.sh", f'#!/bin/sh\ntouch "{out}/ran-$1"\nexit 0\n')
    ssh = executable(tmp / f"{MARK}-ssh", f'#!/bin/sh\ntouch "{out}/ran-ssh"\nexit 1\n')
    real_git = shutil.which("git")
    gitpython = executable(tmp / f"{MARK}-gitpython-git", f'#!/bin/sh\ntouch "{out}/ran-gitpython-git"\nexec "{real_git}" "$@"\n')
    (tmp / f"{MARK}-exec").mkdir()
    executable(tmp / f"{MARK}-exec" / "git-envtrap", f'#!/bin/sh\ntouch "{out}/ran-exec-path"\n')
    (tmp / f"{MARK}.gitconfig").write_text("[envtrap]\n\tkey = read\n")
    (tmp / f"{MARK}-shallow").write_text(git(repo, "rev-parse", "HEAD"))
    sessions = repo / "sessions"
    cred = "protocol=https\nhost=example.invalid\n\n"
    top = lambda e, *a: plain(sessions, e, "rev-parse", *a).stdout.strip()  # noqa: E731
    traps = [
        EnvTrap("GIT_DIR", {"GIT_DIR": str(victim / ".git")},
                lambda e: top(e, "--absolute-git-dir") == str(victim / ".git")),
        EnvTrap("GIT_WORK_TREE", {"GIT_WORK_TREE": str(victim)}, lambda e: top(e, "--show-toplevel") == str(victim)),
        EnvTrap("GIT_INDEX_FILE", {"GIT_INDEX_FILE": str(out / "index")},
                lambda e: plain(repo, e, "read-tree", "HEAD").returncode == 0 and (out / "index").exists()),
        EnvTrap("GIT_OBJECT_DIRECTORY", {"GIT_OBJECT_DIRECTORY": str(out / "objects")},
                lambda e: plain(repo, e, "hash-object", "-w", "--stdin", stdin="x\n").returncode == 0
                and any((out / "objects").iterdir())),
        EnvTrap("GIT_ALTERNATE_OBJECT_DIRECTORIES", {"GIT_ALTERNATE_OBJECT_DIRECTORIES": str(victim / ".git" / "objects")},
                lambda e: plain(repo, e, "cat-file", "-e", vhead).returncode == 0),
        EnvTrap("GIT_COMMON_DIR", {"GIT_COMMON_DIR": str(victim / ".git")},
                lambda e: top(e, "--path-format=absolute", "--git-common-dir") == str(victim / ".git")),
        EnvTrap("GIT_NAMESPACE", {"GIT_NAMESPACE": MARK},
                lambda e: plain(repo, e, "ls-remote", ".").stdout == "" and plain(repo, {}, "ls-remote", ".").stdout != ""),
        EnvTrap("GIT_CEILING_DIRECTORIES", {"GIT_CEILING_DIRECTORIES": str(repo)},
                lambda e: plain(sessions, e, "rev-parse", "--git-dir").returncode != 0),
        EnvTrap("GIT_CONFIG_PARAMETERS", {"GIT_CONFIG_PARAMETERS": f"'core.fsmonitor'='{trap} config-parameters'"},
                lambda e: plain(repo, e, "status").returncode >= 0 and (out / "ran-config-parameters").exists()),
        EnvTrap("GIT_CONFIG_COUNT", {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.fsmonitor",
                                     "GIT_CONFIG_VALUE_0": f"{trap} config-count"},
                lambda e: plain(repo, e, "status").returncode >= 0 and (out / "ran-config-count").exists()),
        EnvTrap("GIT_CONFIG", {"GIT_CONFIG": str(tmp / f"{MARK}.gitconfig")},
                lambda e: plain(repo, e, "config", "--get", "envtrap.key").stdout.strip() == "read"),
        EnvTrap("GIT_SHALLOW_FILE", {"GIT_SHALLOW_FILE": str(tmp / f"{MARK}-shallow")},
                lambda e: top(e, "--is-shallow-repository") == "true"),
        EnvTrap("GIT_EXEC_PATH", {"GIT_EXEC_PATH": str(tmp / f"{MARK}-exec")},
                lambda e: plain(repo, e, "envtrap").returncode >= 0 and (out / "ran-exec-path").exists()),
        EnvTrap("GIT_SSH_COMMAND", {"GIT_SSH_COMMAND": f"{trap} ssh-command"},
                lambda e: plain(repo, e, "ls-remote", "ssh://example.invalid/x.git").returncode >= 0
                and (out / "ran-ssh-command").exists()),
        EnvTrap("GIT_SSH", {"GIT_SSH": str(ssh)},
                lambda e: plain(repo, e, "ls-remote", "ssh://example.invalid/x.git").returncode >= 0
                and (out / "ran-ssh").exists()),
        EnvTrap("GIT_ASKPASS", {"GIT_ASKPASS": str(tmp / f"{MARK}-git-askpass")},
                lambda e: plain(repo, e, "credential", "fill", stdin=cred).returncode >= 0
                and (out / "ran-git-askpass").exists()),
        EnvTrap("SSH_ASKPASS", {"SSH_ASKPASS": f"{tmp / (MARK + '-askpass')}"},
                lambda e: plain(repo, e, "credential", "fill", stdin=cred).returncode >= 0
                and (out / "ran-ssh-askpass").exists()),
        EnvTrap("GIT_EDITOR", {"GIT_EDITOR": f"{trap} editor"},
                lambda e: plain(repo, e, "-c", "core.hooksPath=/dev/null", "commit", "--allow-empty", "-q").returncode >= 0
                and (out / "ran-editor").exists()),
        EnvTrap("GIT_EXTERNAL_DIFF", {"GIT_EXTERNAL_DIFF": f"{trap} external-diff"},
                lambda e: plain(repo, e, "-c", "core.fsmonitor=false", "show", "--ext-diff", "HEAD").returncode >= 0
                and (out / "ran-external-diff").exists()),
        EnvTrap("GIT_PYTHON_GIT_EXECUTABLE", {"GIT_PYTHON_GIT_EXECUTABLE": str(gitpython)},
                lambda e: imports_gitpython(e) and (out / "ran-gitpython-git").exists()),
        EnvTrap("GIT_GLOB_PATHSPECS", {"GIT_GLOB_PATHSPECS": "1"},
                lambda e: plain(repo, e, "ls-files", "s*").stdout == "" and plain(repo, {}, "ls-files", "s*").stdout != ""),
    ]
    executable(tmp / f"{MARK}-askpass", f'#!/bin/sh\ntouch "{out}/ran-ssh-askpass"\n')
    executable(tmp / f"{MARK}-git-askpass", f'#!/bin/sh\ntouch "{out}/ran-git-askpass"\n')
    return traps, out, victim


def prove(traps: list[EnvTrap], out: Path) -> list[str]:
    """Run every trap's proof with plain git, each alone; the names proven live. Empties ``out``."""
    proven = []
    for t in traps:
        if t.prove(t.env):
            proven.append(t.name)
        for p in out.iterdir():
            shutil.rmtree(p) if p.is_dir() else p.unlink()
        (out / "objects").mkdir(exist_ok=True)
    return proven


def watched(traps: list[EnvTrap]) -> set[tuple[str, str]]:
    """The (variable, value) pairs that show a trap reached git (ours may share a name, never a value)."""
    return {(k, v) for t in traps for k, v in t.env.items() if MARK in v or k == "GIT_GLOB_PATHSPECS"}


def logging_git(folder: Path, log: Path, traps: list[EnvTrap]) -> Path:
    """A ``git`` for ``PATH`` that appends the trap variables of its environment to ``log``, then runs the real git."""
    real = shutil.which("git")
    assert real is not None
    folder.mkdir(parents=True, exist_ok=True)
    names = "|".join(sorted({k for k, _ in watched(traps)}))
    executable(folder / "git", f'#!/bin/sh\nenv | grep -E "^({names})=" >> "{log}"\nexec "{real}" "$@"\n')
    return folder


@contextlib.contextmanager
def trapped(traps: list[EnvTrap], wrapper: Path) -> Iterator[None]:
    """Every trap variable in ``os.environ`` (and the logging git first on PATH) for the block."""
    saved = dict(os.environ)
    for t in traps:
        os.environ.update(t.env)
        gitkit.NOT_FOR_PLAIN_GIT.update(t.env)
    os.environ["PATH"] = f"{wrapper}{os.pathsep}{saved.get('PATH', '')}"
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
        gitkit.NOT_FOR_PLAIN_GIT.clear()


def sprung(out: Path, victim: Path, victim_head: str, log: Path, traps: list[EnvTrap]) -> list[str]:
    """Evidence a trap worked through reviewer: files the traps wrote, a changed victim, variables git saw."""
    found = [f"wrote {p.name}" for p in out.iterdir() if p.name != "objects"]
    found += [f"object store {p.name}" for p in (out / "objects").iterdir()]
    if git(victim, "rev-parse", "HEAD").strip() != victim_head:
        found.append("the victim repository got a commit")
    if log.exists():
        pairs = {tuple(line.split("=", 1)) for line in log.read_text(errors="replace").splitlines() if "=" in line}
        found += sorted(f"git saw {k}" for k, _ in pairs & watched(traps))
    return found
