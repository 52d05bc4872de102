"""Running judge commands (I/O: subprocesses; imports only the model).

- :mod:`.process`: :func:`call_judge`, one judge call: the user's argv (never a shell), the
  document on stdin, the answer read from stdout, bounded in time, output and processes.
- :mod:`.wire`: one call as a task that carries its document (:class:`~.wire.JudgeTask`), the
  work an executor of :mod:`reviewer.parallel` runs on it here or on a cluster's worker
  (:func:`~.wire.perform`), and the reply read back as data (:func:`~.wire.read_result`).

What a judge reads and answers (the protocol) is :mod:`reviewer.model.prediction`; the document
itself is built by :mod:`reviewer.analysis.judges`; ``reviewer judge`` (:mod:`reviewer.commands.judge`)
puts them together.
"""

from __future__ import annotations

from reviewer.judging.process import ANSWER_CAP, JudgeUnavailable, Reply, call_judge
from reviewer.judging.wire import BadResult, JudgeProblem, JudgeReply, JudgeTask, perform, read_result

__all__ = ["ANSWER_CAP", "BadResult", "JudgeProblem", "JudgeReply", "JudgeTask", "JudgeUnavailable", "Reply",
           "call_judge", "perform", "read_result"]
