"""One run's manifest read: its TOML into model values, with a reason for every defect.

- :mod:`.manifest`: ``run.toml``, ``session.toml`` and transcripts read safely and turned into
  :class:`~reviewer.model.Run` and friends (:func:`load_manifest`, :func:`run_from_doc`).
- :mod:`.rerun`: a grader's ``[grader.rerun]`` table into a :class:`~reviewer.model.rerun.Rerun`.

Below the index cache and the folder's scan, which both read runs through it.
"""

from __future__ import annotations

from reviewer.store.lazy_names import lazy_names

PUBLIC = {
    "BadManifest": "manifest", "load_manifest": "manifest", "run_from_doc": "manifest", "session_from_doc": "manifest",
    "rerun_from_doc": "rerun",
}
"""Each public name and the module that defines it."""

__all__ = sorted(PUBLIC)
__getattr__ = lazy_names(__name__, PUBLIC)
