"""Re-scoring: the recorded grader run again on the recorded program, with only the notation
repaired, inside a bubblewrap sandbox (I/O layer: imports model, parsers and store only).

- :mod:`.transform` and :mod:`.shim`: the repairs as pure text transforms, and the shim that
  applies them to a program's stdout (both stdlib-only, copied into the sandbox).
- :mod:`.sandbox`: bubblewrap, limits, the watchdog; refuses when no sandbox works.
- :mod:`.runtime`, :mod:`.layout`, :mod:`.stage`: what the sandbox sees.
- :mod:`.engine`: :func:`~.engine.rescore` / :func:`~.engine.rescore_grader` (control run,
  repaired run, every check compared) returning a frozen :class:`~.engine.Rescore`.
- :mod:`.record`: ``<session>/rescores/<reviewer>.toml``; :mod:`.tally`: counts for ``stats``.
"""

from __future__ import annotations
