"""Harness logs as runs: the readers that turn one sample or trajectory at a time into a run.

Both an import (which writes run folders, :mod:`reviewer.importers`) and a session that reads its
log where it lies (:mod:`reviewer.store.sessions.inplace`) use them, so both give the same runs.

- :mod:`.registry`: the formats read in place, by name; a new format registers itself there.
- :mod:`.spec`: what a reader produces (:class:`~.spec.RunSpec`), what an opened log offers.
- :mod:`.layout`: a run laid out in the sessions format, file by file, in memory.
- :mod:`.inspect_ai` (with :mod:`.inspect_log`, :mod:`.inspect_scores`, :mod:`.evalzip`,
  :mod:`.boundedjson`): Inspect AI ``.eval`` and ``.json`` logs.
- :mod:`.mini_swe`, :mod:`.swe_agent` (with :mod:`.swebench`): trajectory files.
- :mod:`.sources`, :mod:`.ids`, :mod:`.chat`, :mod:`.tomlsafe`: reading files people name,
  safe ids and paths, chat messages as turns, values TOML can hold.
"""

from __future__ import annotations

from reviewer.store.lazy_names import lazy_names

PUBLIC = {
    "LogFormat": "spec", "OpenedLog": "spec", "RunSpec": "spec", "NotFormat": "spec", "ImportFailed": "spec",
    "register": "registry", "by_name": "registry", "claiming": "registry", "folder_format": "registry",
    "run_files": "layout",
}
"""Each public name and the module that defines it."""

__all__ = sorted(PUBLIC)
__getattr__ = lazy_names(__name__, PUBLIC)
