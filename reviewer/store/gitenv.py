"""The environment every git call runs in: no fsmonitor, no hooks, no prompts."""

from __future__ import annotations

import os

SAFE_CONFIG = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", "/dev/null"),
    ("core.untrackedCache", "false"),
    ("protocol.allow", "never"),
)


def safe_git_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """A copy of the environment with git forced into its safe settings.

    ``GIT_CONFIG_COUNT``/``KEY_n``/``VALUE_n`` override whatever a repository's own
    ``.git/config`` says (it may name a command as fsmonitor, or hooks that run code).
    """
    env = dict(os.environ if base is None else base)
    for k in [k for k in env if k == "GIT_CONFIG_COUNT" or k.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"))]:
        del env[k]
    env["GIT_CONFIG_COUNT"] = str(len(SAFE_CONFIG))
    for i, (key, value) in enumerate(SAFE_CONFIG):
        env[f"GIT_CONFIG_KEY_{i}"] = key
        env[f"GIT_CONFIG_VALUE_{i}"] = value
    env["GIT_TERMINAL_PROMPT"] = "0"
    env["GIT_OPTIONAL_LOCKS"] = "0"
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    return env
