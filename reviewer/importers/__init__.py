"""Importers: runs recorded by other harnesses, written into the sessions format.

Each importer reads its sources (never trusting them) into an in-memory
:class:`~reviewer.importers.spec.ImportedSession`; :func:`reviewer.importers.writer.write_session`
writes it atomically and deterministically. Formats (mappings documented in each module):

- ``inspect`` (:mod:`.inspect_ai`): Inspect AI ``.eval`` / ``.json`` logs, one run per sample epoch;
- ``swe-agent`` (:mod:`.swe_agent`): ``.traj`` files, one run each, retry attempts as attempts,
  SWE-bench results (:mod:`.swebench`) as checks;
- ``mini-swe-agent`` (:mod:`.mini_swe`): ``*.traj.json`` files, one run each;
- ``atif`` (:mod:`.atif`, reading in :mod:`.atif_log`): ATIF trajectories (Harbor, RFC 0001),
  files or folders of them, one run each, Harbor trial rewards as checks;
- ``go-test``, ``junit``, ``pytest`` (:mod:`.testoutput`): a code folder plus grader output.
"""

from __future__ import annotations

FORMATS: tuple[str, ...] = ("inspect", "swe-agent", "mini-swe-agent", "atif", "go-test", "junit", "pytest")
FOLDER_FORMATS = frozenset({"go-test", "junit", "pytest"})

__all__ = ["FORMATS", "FOLDER_FORMATS"]
