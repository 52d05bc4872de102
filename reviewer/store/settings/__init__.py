"""The user's settings: ``config.toml``, who is labelling, and themes.

- :mod:`.config`: ``$XDG_CONFIG_HOME/reviewer/config.toml`` read and edited line by line (:class:`Settings`).
- :mod:`.identity`: the reviewer's name and where it came from (``--reviewer``, the config, git, the login).
- :mod:`.themes`: the shipped themes and the user's own.
"""

from __future__ import annotations

from reviewer.store.lazy_names import lazy_names

PUBLIC = {
    "Settings": "config", "load_settings": "config", "config_path": "config",
    "Identity": "identity", "resolve_identity": "identity", "resolve_reviewer": "identity",
    "load_themes": "themes", "choose_theme": "themes",
}
"""Each public name and the module that defines it."""

__all__ = sorted(PUBLIC)
__getattr__ = lazy_names(__name__, PUBLIC)
