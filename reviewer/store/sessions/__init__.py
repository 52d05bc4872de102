"""A sessions folder read: its runs and their files, every defect a reason, never a crash.

- :mod:`.scan`: scanning a folder (manifests only, through :mod:`reviewer.store.runs` and the
  index cache) into a :class:`Corpus`.
- :mod:`.prescan`: the first read of a folder without a cache, by a second process on another core.
- :mod:`.store`: :class:`SessionStore`, a scanned folder plus lazy, cached reads of everything heavy.
- :mod:`.protocol`: :class:`Store`, what the review session and the labeller need from a folder.
- :mod:`.fingerprint`: the evidence fingerprint of a failure (what a reviewer judged when labelling).
- :mod:`.lookup`: a failure found by what a person types (an id, a unique prefix, a near miss),
  or :class:`UnknownFailure`.

The format itself is documented in ``sessions/README.md``.
"""

from __future__ import annotations

from reviewer.store.lazy_names import lazy_names

PUBLIC = {
    "Corpus": "scan",
    "SessionStore": "store", "LRU": "store", "Changes": "store", "GraderChecks": "store", "Transcript": "store",
    "Store": "protocol",
    "evidence_hash": "fingerprint",
    "resolve_failure": "lookup", "AmbiguousFailure": "lookup", "UnknownFailure": "lookup",
    "Prescan": "prescan",
}
"""Each public name and the module that defines it."""

__all__ = sorted(PUBLIC)
__getattr__ = lazy_names(__name__, PUBLIC)
