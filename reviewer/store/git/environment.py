"""The environment git runs in: git fetches nothing, runs nothing and finds only our repository.

Two sources could make git do what reviewer did not ask for:

- The repository's own config (it came with the folder): fsmonitor, hooks, a credential
  helper, an ssh command, a promisor remote that git would fetch from when an object is
  missing. ``GIT_CONFIG_COUNT``/``KEY_n``/``VALUE_n`` give settings that outrank every config
  file, and ``GIT_ALLOW_PROTOCOL`` set to nothing forbids every transport whatever
  ``protocol.<name>.allow`` the repository sets (it outranks them all), so a lazy fetch of a
  partial clone fails before it starts anything.
- The caller's environment (reviewer started from a git hook, a ``git rebase --exec``, a shell
  with ``GIT_DIR`` exported): variables that point git at another index, object store, common
  folder or repository, or name a program (``GIT_SSH_COMMAND``, GitPython's
  ``GIT_PYTHON_GIT_EXECUTABLE``). Every ``GIT_*`` variable is dropped except the few in
  :data:`KEPT` (who the user is, which config files are the user's own, tracing), then ours are set.

Two layers hold this. :func:`scrub_environment` makes the process environment safe once, in
``reviewer.cli.main`` before any thread or child exists and before GitPython is imported
(GitPython reads ``GIT_DIR``, ``GIT_WORK_TREE``, ``GIT_COMMON_DIR`` and
``GIT_OBJECT_DIRECTORY`` from ``os.environ`` when it opens a repository, and its ``Git.execute``
starts from ``os.environ``). And every git process reviewer starts gets the complete environment
of :func:`git_env` (never merged into ``os.environ``), so a caller that imports reviewer without
its command line still runs git safely; GitPython refuses to open a repository in-process while
a locating variable is set (:func:`locating_variables`).
"""

from __future__ import annotations

import os
from typing import Iterable, Mapping

SAFE_CONFIG = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", "/dev/null"),
    ("core.untrackedCache", "false"),
    ("core.askPass", ""),
    ("core.sshCommand", "false"),
    ("credential.helper", ""),
    ("protocol.allow", "never"),
    ("fetch.recurseSubmodules", "false"),
    ("submodule.recurse", "false"),
)
"""Settings that outrank the repository's config (an empty ``credential.helper`` clears the list)."""

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
"""Settings that make git's output the one reviewer parses (no signatures, pager, colour or prefixes)."""

KEPT = frozenset({
    "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE",
    "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE",
    "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM",
    "GIT_TRACE", "GIT_TRACE2", "GIT_TRACE2_EVENT", "GIT_TRACE2_PERF", "GIT_TRACE_PERFORMANCE",
})
"""``GIT_*`` variables of the caller that are kept: the user's identity, the user's own config
files (trusted as ``~/.gitconfig`` is) and tracing. Every other one is dropped: ``GIT_DIR``,
``GIT_WORK_TREE``, ``GIT_INDEX_FILE``, ``GIT_OBJECT_DIRECTORY``,
``GIT_ALTERNATE_OBJECT_DIRECTORIES``, ``GIT_COMMON_DIR``, ``GIT_NAMESPACE``,
``GIT_CEILING_DIRECTORIES``, ``GIT_DISCOVERY_ACROSS_FILESYSTEM``, ``GIT_CONFIG``,
``GIT_CONFIG_PARAMETERS``, ``GIT_CONFIG_COUNT``/``KEY_n``/``VALUE_n``, ``GIT_SSH``,
``GIT_SSH_COMMAND``, ``GIT_ASKPASS``, ``GIT_EDITOR``, ``GIT_EXTERNAL_DIFF``, ``GIT_EXEC_PATH``,
``GIT_SHALLOW_FILE``, ``GIT_REPLACE_REF_BASE``, ``GIT_*_PATHSPECS``, GitPython's
``GIT_PYTHON_GIT_EXECUTABLE`` and the rest."""

DROPPED_OTHERS = ("SSH_ASKPASS", "PAGER", "EDITOR", "VISUAL")
"""Variables without the ``GIT_`` prefix that git reads to start a program."""

LOCATING = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
            "GIT_COMMON_DIR")
"""Variables that point git (and GitPython in-process) at another repository, index or object store."""


def safe_git_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """A copy of the environment (``os.environ`` by default) with git forced into its safe settings.

    The result is a complete environment: pass it as ``env=`` to ``subprocess`` (never merge it
    into ``os.environ``, which would bring the dropped variables back).
    """
    source = os.environ if base is None else base
    env = {k: v for k, v in source.items() if not (k.startswith("GIT_") and k not in KEPT) and k not in DROPPED_OTHERS}
    env["GIT_CONFIG_COUNT"] = str(len(SAFE_CONFIG))
    for i, (key, value) in enumerate(SAFE_CONFIG):
        env[f"GIT_CONFIG_KEY_{i}"] = key
        env[f"GIT_CONFIG_VALUE_{i}"] = value
    env["GIT_ALLOW_PROTOCOL"] = ""
    env["GIT_PROTOCOL_FROM_USER"] = "0"
    env["GIT_NO_LAZY_FETCH"] = "1"
    env["GIT_ASKPASS"] = ""
    env["GIT_TERMINAL_PROMPT"] = "0"
    env["GIT_OPTIONAL_LOCKS"] = "0"
    env["GIT_EDITOR"] = "false"
    env["GIT_PAGER"] = "cat"
    return env


def process_env(base: Mapping[str, str] | None = None, extra: Iterable[tuple[str, str]] = ()) -> dict[str, str]:
    """:func:`safe_git_env` plus :data:`EXTRA_CONFIG`, ``extra`` settings, literal pathspecs and no
    replace objects: the environment the whole process runs in after :func:`scrub_environment`."""
    env = safe_git_env(base)
    n = int(env["GIT_CONFIG_COUNT"])
    for key, value in (*EXTRA_CONFIG, *extra):
        env[f"GIT_CONFIG_KEY_{n}"] = key
        env[f"GIT_CONFIG_VALUE_{n}"] = value
        n += 1
    env["GIT_CONFIG_COUNT"] = str(n)
    env["GIT_LITERAL_PATHSPECS"] = "1"
    env["GIT_NO_REPLACE_OBJECTS"] = "1"
    return env


def git_env(extra: Iterable[tuple[str, str]] = ()) -> dict[str, str]:
    """The complete environment of one git command: :func:`process_env` of ``os.environ`` with
    ``extra`` settings, in the C locale (git's messages are parsed, never translated)."""
    env = process_env(extra=extra)
    env["LC_ALL"] = "C"
    return env


def scrub_environment() -> None:
    """Make ``os.environ`` the environment of :func:`process_env`, in place.

    Call it once, first thing in the program, before any thread or child process exists
    (``os.environ`` is not safe to change while another thread reads it) and before GitPython
    is imported (it reads ``GIT_PYTHON_GIT_EXECUTABLE`` and runs that program when imported).
    Calling it again changes nothing.
    """
    wanted = process_env(os.environ)
    for name in [k for k in os.environ if k not in wanted]:
        del os.environ[name]
    for name, value in wanted.items():
        if os.environ.get(name) != value:
            os.environ[name] = value


def locating_variables() -> list[str]:
    """The :data:`LOCATING` variables set in ``os.environ`` (none after :func:`scrub_environment`)."""
    return [name for name in LOCATING if name in os.environ]
