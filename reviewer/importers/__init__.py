"""Importers: runs recorded by other harnesses, written into the sessions format as run folders.

The harness logs are read by :mod:`reviewer.store.logs` (the same readers a session reading its
log in place uses), one run at a time, into an in-memory
:class:`~reviewer.store.logs.spec.ImportedSession`; :func:`reviewer.importers.writer.write_session`
writes it atomically and deterministically. Formats (mappings documented in each reader):

- ``inspect`` (:mod:`reviewer.store.logs.inspect_ai`): Inspect AI ``.eval`` / ``.json`` logs, one
  run per sample epoch;
- ``swe-agent`` (:mod:`reviewer.store.logs.swe_agent`): ``.traj`` files, one run each, retry
  attempts as attempts, SWE-bench results (:mod:`reviewer.store.logs.swebench`) as checks;
- ``mini-swe-agent`` (:mod:`reviewer.store.logs.mini_swe`): ``*.traj.json`` files, one run each;
- ``atif`` (:mod:`reviewer.store.logs.atif`, reading in :mod:`reviewer.store.logs.atif_log`): ATIF
  trajectories (Harbor, RFC 0001), files or folders of them, one run each, Harbor trial rewards as checks;
- ``go-test``, ``junit``, ``pytest`` (:mod:`.testoutput`): a code folder plus grader output.

Importing stays for what cannot be read in place: a re-score needs the recorded program and
grader as files, and go test / JUnit / pytest output comes with a code folder, not a log.
"""

from __future__ import annotations

FORMATS: tuple[str, ...] = ("inspect", "swe-agent", "mini-swe-agent", "atif", "go-test", "junit", "pytest")
FOLDER_FORMATS = frozenset({"go-test", "junit", "pytest"})

__all__ = ["FORMATS", "FOLDER_FORMATS"]
