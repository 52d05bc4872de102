"""Who is labelling: --reviewer, else git's user.name, else the login name."""

from __future__ import annotations

import getpass
import os
import subprocess

from reviewer.store.gitenv import safe_git_env


def git_user_name() -> str:
    """git's global ``user.name``, or "" (never runs a repository's own config)."""
    try:
        out = subprocess.run(
            ["git", "config", "--global", "--get", "user.name"],
            capture_output=True,
            text=True,
            timeout=5,
            env=safe_git_env(),
            cwd=os.path.expanduser("~") if os.path.isdir(os.path.expanduser("~")) else "/",
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def login_name() -> str:
    """The login name, or "reviewer" when there is none."""
    try:
        return getpass.getuser() or "reviewer"
    except Exception:  # noqa: BLE001 - getpass raises several kinds when there is no user
        return "reviewer"


def resolve_reviewer(explicit: str | None, configured: str | None = None) -> str:
    """The reviewer name to use."""
    for name in (explicit, configured, git_user_name(), login_name()):
        if name and name.strip():
            return name.strip()
    return "reviewer"
