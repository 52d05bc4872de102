"""Files on disk, written safely and read without trusting them.

- :mod:`.atomic`: a file replaced atomically (temp file, fsync, rename, fsync the folder), folder locks.
- :mod:`.nofollow`: folders made and checked from a trusted root down, never through a link.
- :mod:`.untrusted`: reading other people's files without blocking, escaping or exploding
  (:class:`TextBlob`, :func:`read_capped`, :func:`resolve_inside`).
- :mod:`.tomlfile`: untrusted TOML bytes parsed with a reason for every failure, and the one TOML
  writer of the project (:func:`dumps`, byte for byte what ``tomli_w`` writes).
- :mod:`.keys`: a file's key (size, times, inode) as the caches know it, and whether it has settled.
- :mod:`.paths`: where things live (the default and bundled sessions folders, the per-user folder
  for a read-only one).
"""

from __future__ import annotations

from reviewer.store.lazy_names import lazy_names

PUBLIC = {
    "atomic_write": "atomic", "atomic_write_many": "atomic", "folder_lock": "atomic", "remove_durably": "atomic",
    "LinkOnPath": "nofollow", "check_dir": "nofollow", "ensure_dir": "nofollow", "make_folder": "nofollow",
    "TextBlob": "untrusted", "Unreadable": "untrusted", "read_capped": "untrusted", "read_text": "untrusted",
    "resolve_inside": "untrusted", "lexically_inside": "untrusted", "TEXT_CAP": "untrusted",
    "StatKey": "keys", "stat_key": "keys", "settled": "keys",
    "BadToml": "tomlfile", "parse_toml_bytes": "tomlfile", "dumps": "tomlfile",
    "bundled_sessions": "paths", "default_sessions": "paths", "fallback_root": "paths", "redirect_reason": "paths",
}
"""Each public name and the module that defines it."""

__all__ = sorted(PUBLIC)
__getattr__ = lazy_names(__name__, PUBLIC)
