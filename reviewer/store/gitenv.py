"""The environment every git call runs in: git fetches nothing, runs nothing and finds only our repository.

Two sources could make git do what reviewer did not ask for:

- The repository's own config (it came with the folder): fsmonitor, hooks, a credential
  helper, an ssh command, a promisor remote that git would fetch from when an object is
  missing. ``GIT_CONFIG_COUNT``/``KEY_n``/``VALUE_n`` give settings that outrank every config
  file, and ``GIT_ALLOW_PROTOCOL`` set to nothing forbids every transport whatever
  ``protocol.<name>.allow`` the repository sets (it outranks them all), so a lazy fetch of a
  partial clone fails before it starts anything.
- The caller's environment (reviewer started from a git hook, a ``git rebase --exec``, a shell
  with ``GIT_DIR`` exported): variables that point git at another index, object store, common
  folder or repository. Every ``GIT_*`` variable is dropped except the few in :data:`KEPT`
  (who the user is, which config files are the user's own, tracing), then ours are set.
"""

from __future__ import annotations

import os

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
``GIT_SHALLOW_FILE``, ``GIT_REPLACE_REF_BASE``, ``GIT_*_PATHSPECS`` and the rest."""

DROPPED_OTHERS = ("SSH_ASKPASS", "PAGER", "EDITOR", "VISUAL")
"""Variables without the ``GIT_`` prefix that git reads to start a program."""


def safe_git_env(base: dict[str, str] | None = None) -> dict[str, str]:
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
