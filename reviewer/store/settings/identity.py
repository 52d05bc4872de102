"""Who is labelling, and where the name came from: --reviewer, config.toml, git's user.name, the login.

The app and the commands show both (``labelling as alice (git user.name)``), because a name
guessed from git on a shared machine quietly becomes a phantom reviewer that skews agreement
and the final labels. When the name was guessed and the folder already holds other reviewers'
labels, :func:`name_question` tells the app to ask once; :func:`remember_name` saves the answer
in ``config.toml``.
"""

from __future__ import annotations

import enum
import getpass
import os
import subprocess
from pathlib import Path

from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.store.git import safe_git_env


class Source(str, enum.Enum):
    """Where a reviewer name came from (the value is what the screen and commands show)."""

    FLAG = "--reviewer"
    CONFIG = "config.toml"
    GIT = "git user.name"
    LOGIN = "login name"
    DEFAULT = "default"
    TAB = "named in this browser tab"

    @property
    def chosen(self) -> bool:
        """The person chose the name (flag, settings, or typed in the browser), rather than it being guessed."""
        return self in (Source.FLAG, Source.CONFIG, Source.TAB)


@record
class Identity:
    """A reviewer name and where it came from."""

    name: str
    source: Source

    def describe(self) -> str:
        """``alice (git user.name)``, safe to print."""
        return f"{plain(self.name)} ({self.source.value})"


def git_user_name() -> str:
    """git's global ``user.name``, or "" (never runs a repository's own config)."""
    try:
        out = subprocess.run(
            ["git", "config", "--global", "--get", "user.name"],
            capture_output=True,
            text=True,
            check=False,
            timeout=5,
            env=safe_git_env(),
            cwd=os.path.expanduser("~") if os.path.isdir(os.path.expanduser("~")) else "/",
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def login_name() -> str:
    """The login name, or "" when there is none."""
    try:
        return getpass.getuser() or ""
    except Exception:  # noqa: BLE001 - getpass raises several kinds when there is no user
        return ""


def resolve_identity(explicit: str | None, configured: str | None = None) -> Identity:
    """The name to label as: ``explicit`` (--reviewer), else ``configured``, else git, else the login."""
    for name, source in ((explicit, Source.FLAG), (configured, Source.CONFIG)):
        if name and name.strip():
            return Identity(name.strip(), source)
    for guess, source in ((git_user_name, Source.GIT), (login_name, Source.LOGIN)):
        name = guess()
        if name and name.strip():
            return Identity(name.strip(), source)
    return Identity("reviewer", Source.DEFAULT)


def current_identity(explicit: str | None = None, config: Path | None = None) -> tuple[Identity, list[str]]:
    """:func:`resolve_identity` with the name from the settings file; also the settings' warnings."""
    from reviewer.store.settings.config import load_settings

    settings, warnings = load_settings(config)
    return resolve_identity(explicit, settings.reviewer), warnings


def resolve_reviewer(explicit: str | None, configured: str | None = None) -> str:
    """The reviewer name to use (see :func:`resolve_identity`)."""
    return resolve_identity(explicit, configured).name


@record
class NameQuestion:
    """The app should ask who is labelling before the first label.

    Attributes:
        suggestion: the guessed name, to prefill the question with.
        source: where the guess came from.
        others: the reviewers who already have labels in the folder.
    """

    suggestion: str
    source: Source
    others: tuple[str, ...]

    def prompt(self) -> str:
        """The question, as one line."""
        names = ", ".join(plain(n) for n in self.others[:5]) + (", …" if len(self.others) > 5 else "")
        return (f"Other reviewers have labels here ({names}). Who is labelling? "
                f"(guessed {plain(self.suggestion)} from {self.source.value}; saved in config.toml)")


def name_question(root: Path, identity: Identity, sessions: list[str] | None = None) -> NameQuestion | None:
    """A question to ask when the name was guessed and other reviewers have labels in the folder.

    None when the name was chosen (--reviewer or config.toml) or no one else has labelled here.
    """
    if identity.source.chosen:
        return None
    from reviewer.store.labels import read_all_labels

    if sessions is None:
        sessions = session_names(Path(root))
    others = sorted({f.reviewer for f in read_all_labels(Path(root), sessions)
                     if f.reviewer and f.entries and f.reviewer != identity.name})
    if not others:
        return None
    return NameQuestion(identity.name, identity.source, tuple(others))


def session_names(root: Path) -> list[str]:
    """Session ids of a folder (sub-folders with a ``session.toml``), sorted."""
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return []
    return [e.name for e in entries if e.is_dir(follow_symlinks=False) and not e.name.startswith(".")
            and os.path.isfile(os.path.join(e.path, "session.toml"))]


def tab_name(name: str) -> tuple[Identity | None, str | None]:
    """A name typed in a browser tab of ``reviewer serve``: used for this tab only, never saved in
    config.toml (the server's file, shared by every tab). Returns (identity, None), or None and
    why the name cannot be used."""
    from reviewer.store.settings.config import valid_reviewer_name

    if not valid_reviewer_name(name):
        return None, f"reviewer name {plain(name)[:40]!r} not used: a name is one line of at most 100 characters"
    return Identity(name.strip(), Source.TAB), None


def remember_name(name: str, config: Path | None = None) -> tuple[Identity | None, str | None]:
    """Save the chosen name as ``reviewer = "..."`` in config.toml (the rest of the file kept).

    Returns the new identity (source config.toml) and None, or None and why it was not saved.
    """
    from reviewer.store.settings.config import save_reviewer_choice

    problem = save_reviewer_choice(name, config)
    if problem:
        return None, problem
    return Identity(name.strip(), Source.CONFIG), None
