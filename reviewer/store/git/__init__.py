"""Git: the repository a sessions folder lives in, run provenance, label history and committing labels.

Sessions repositories come from other people: nothing reviewer does with git may run a command
the repository names (hooks, fsmonitor, filters, diff drivers, signing or ssh programs) or fetch
anything, and nothing in the caller's environment may point git at another repository.

- :mod:`.environment`: the safe environment; :func:`scrub_environment` (once, first thing in
  ``reviewer.cli.main``) and :func:`git_env` (every git process).
- :mod:`.run`: :func:`run_git`, the one way a git process starts; :class:`GitError`,
  :class:`GitUnsafe` ("dubious ownership": the command to run), :class:`GitReadOnly`.
- :mod:`.trust`: whether reviewer may commit to the repository git found (:func:`repo_warning`).
- :mod:`.repository`: :func:`open_repo` -> :class:`GitSession` (git finds the repository,
  GitPython reads it in-process), :func:`repo_info` -> :class:`RepoInfo`.
- :mod:`.run_commits`: :func:`provenance` -> :class:`RunCommit` per run.
- :mod:`.history`: :func:`label_history` -> :class:`HistoryEntry` per change of one failure's label.
- :mod:`.commit`: :func:`commit_reviewer`, :func:`commit_labels` -> :class:`CommitResult`.

The names below load their module on first use (PEP 562), so importing this package costs
nothing until git is needed: the app reads git after its first screen, and GitPython itself
loads with the first repository opened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reviewer.store.lazy_names import lazy_names

if TYPE_CHECKING:
    from reviewer.store.git.commit import CommitResult as CommitResult
    from reviewer.store.git.commit import commit_labels as commit_labels
    from reviewer.store.git.commit import commit_reviewer as commit_reviewer
    from reviewer.store.git.commit import label_files as label_files
    from reviewer.store.git.environment import KEPT as KEPT
    from reviewer.store.git.environment import git_env as git_env
    from reviewer.store.git.environment import safe_git_env as safe_git_env
    from reviewer.store.git.environment import scrub_environment as scrub_environment
    from reviewer.store.git.history import HistoryEntry as HistoryEntry
    from reviewer.store.git.history import clear_history_cache as clear_history_cache
    from reviewer.store.git.history import label_history as label_history
    from reviewer.store.git.repository import GitSession as GitSession
    from reviewer.store.git.repository import RepoInfo as RepoInfo
    from reviewer.store.git.repository import open_repo as open_repo
    from reviewer.store.git.repository import repo_info as repo_info
    from reviewer.store.git.run import GitError as GitError
    from reviewer.store.git.run import GitReadOnly as GitReadOnly
    from reviewer.store.git.run import GitUnsafe as GitUnsafe
    from reviewer.store.git.run import run_git as run_git
    from reviewer.store.git.run import unquote_path as unquote_path
    from reviewer.store.git.run_commits import RunCommit as RunCommit
    from reviewer.store.git.run_commits import provenance as provenance

PUBLIC = {
    "CommitResult": "commit", "commit_labels": "commit", "commit_reviewer": "commit", "label_files": "commit",
    "KEPT": "environment", "git_env": "environment", "safe_git_env": "environment",
    "scrub_environment": "environment",
    "HistoryEntry": "history", "clear_history_cache": "history", "label_history": "history",
    "RunCommit": "run_commits", "provenance": "run_commits",
    "GitSession": "repository", "RepoInfo": "repository", "open_repo": "repository", "repo_info": "repository",
    "GitError": "run", "GitReadOnly": "run", "GitUnsafe": "run", "run_git": "run", "unquote_path": "run",
}
"""Each public name and the module that defines it."""

__all__ = sorted(PUBLIC)
__getattr__ = lazy_names(__name__, PUBLIC)
