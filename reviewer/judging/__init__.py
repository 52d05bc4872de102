"""Running judge commands (I/O: subprocesses; imports only the model).

- :mod:`.process`: :func:`call_judge`, one judge call: the user's argv (never a shell), the
  document on stdin, the answer read from stdout, bounded in time, output and processes.
- :mod:`.pool`: :func:`run_parallel`, many calls at once behind one small function (threads by
  default; any ``concurrent.futures.Executor`` can be given).

What a judge reads and answers (the protocol) is :mod:`reviewer.model.prediction`; the document
itself is built by :mod:`reviewer.analysis.judges`; ``reviewer judge`` (:mod:`reviewer.commands.judge`)
puts them together.
"""

from __future__ import annotations

from reviewer.judging.pool import DEFAULT_WORKERS, run_parallel
from reviewer.judging.process import ANSWER_CAP, JudgeUnavailable, Reply, call_judge

__all__ = ["ANSWER_CAP", "DEFAULT_WORKERS", "JudgeUnavailable", "Reply", "call_judge", "run_parallel"]
