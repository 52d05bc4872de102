"""A sessions folder read: its runs and their files, every defect a reason, never a crash.

- :mod:`.scan`: scanning a folder (manifests only) into a :class:`Corpus`.
- :mod:`.manifest`: parsed manifests into model values, with a reason for every defect.
- :mod:`.rerun`: a run's ``[grader.rerun]`` table into a :class:`~reviewer.model.rerun.Rerun`.
- :mod:`.store`: :class:`SessionStore`, a scanned folder plus lazy, cached reads of everything heavy.
- :mod:`.protocol`: :class:`Store`, what the review session and the labeller need from a folder.
- :mod:`.fingerprint`: the evidence fingerprint of a failure (what a reviewer judged when labelling).
- :mod:`.lookup`: a failure found by what a person types (an id, a unique prefix, a near miss).
- :mod:`.check`: ``reviewer check``, everything wrong with a folder, one problem per entry.

The format itself is documented in ``sessions/README.md``.
"""

from __future__ import annotations

from reviewer.store.lazy_names import lazy_names

PUBLIC = {
    "Corpus": "scan", "scan": "scan",
    "SessionStore": "store", "LRU": "store", "Changes": "store", "GraderChecks": "store", "Transcript": "store",
    "Store": "protocol",
    "evidence_hash": "fingerprint",
    "resolve_failure": "lookup", "AmbiguousFailure": "lookup",
    "validate": "check",
}
"""Each public name and the module that defines it."""

__all__ = sorted(PUBLIC)
__getattr__ = lazy_names(__name__, PUBLIC)
