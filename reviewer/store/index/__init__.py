"""The index cache: what scanning a sessions folder learnt, kept so that the next open only stats.

- :mod:`.cache`: :class:`RunIndex`, the cache of one folder (runs, failing checks, labels files).
- :mod:`.entry`: its entries and the lines they are saved as.
- :mod:`.codec`: runs, checks, fingerprints and labels to plain JSON values and back.
- :mod:`.files`: where the cache lives, its own file, and the code fingerprint that invalidates
  it when a parser changes (files are known by their keys: :mod:`reviewer.store.fs.keys`).
- :mod:`.labels`: the labels files the cache remembers.
"""

from __future__ import annotations

from reviewer.store.lazy_names import lazy_names

PUBLIC = {
    "RunIndex": "cache",
    "code_fingerprint": "files", "index_path": "files", "index_enabled": "files",
}
"""Each public name and the module that defines it."""

__all__ = sorted(PUBLIC)
__getattr__ = lazy_names(__name__, PUBLIC)
