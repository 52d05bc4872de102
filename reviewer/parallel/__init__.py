"""Running independent tasks in parallel: threads on this machine, or a Dask cluster the user has.

The interface, :class:`Executor`, is small::

    with executor.start(work, tasks) as batch:      # tasks: any iterable, read as room frees up
        try:
            for done in batch:                      # a Done per task, as each ends, on this thread
                use(done.task, done.result, done.error)
        except KeyboardInterrupt:
            for done in batch.stop():               # cancel: running tasks see cancelled() turn
                use(done.task, done.result, done.error)   # true and return; unstarted never start
            raise

- ``work(task, cancelled) -> str`` does one task and returns its result as text (JSON, say);
  ``cancelled()`` turns true when the batch is stopped, and long work polls it. On a cluster,
  ``work`` runs on a worker: it must be a module-level function of a package installed there,
  ``task`` is pickled to it, and what comes back is only text (the client refuses any other
  object, and never unpickles a result). Work should not raise; when it does, the task's
  :class:`Done` carries the error's text instead of a result.
- Every :class:`Done` is handed to the caller's thread, one at a time: whatever the caller writes
  with them has one writer. ``batch.every(seconds)`` gives the same Dones, and None whenever
  ``seconds`` pass with none ended: the caller's turn to write what it holds back (saving in
  batches) without waiting for the next task. Tasks are taken from ``tasks`` only as room frees up (twice the
  workers' threads), so a lazy iterable reads its inputs as they are needed.
- :meth:`Executor.on_every_worker` runs a check (a module-level function returning text) on each
  worker once, before the work: what a worker lacks is said before anything runs.

:func:`local_pool` gives ``jobs`` threads here (:func:`default_jobs`: the cores this process may
use). :func:`connect` attaches to a running Dask scheduler (``tcp://host:8786``); it needs the
``cluster`` extra (``pip install 'reviewer[cluster]'``, the ``distributed`` package) and says so
otherwise (:class:`ClusterUnavailable`). Nothing here schedules: the pool is the standard
library's, the cluster's scheduler is Dask's. ``reviewer rescore``
(:func:`reviewer.rescore.wire.perform`) and ``reviewer judge`` (:func:`reviewer.judging.wire.perform`)
run on it through the same three calls.
"""

from __future__ import annotations

from reviewer.parallel.pool import Batch, Done, Executor, LocalPool, Work, default_jobs, local_pool


class ClusterUnavailable(Exception):
    """The cluster cannot be used: its client is not installed, or the scheduler does not answer."""


def connect(address: str, timeout: float = 15.0) -> Executor:
    """An executor on the Dask cluster whose scheduler is at ``address`` (the user's, as given);
    ClusterUnavailable when the ``cluster`` extra is missing or the scheduler does not answer."""
    try:
        from reviewer.parallel.cluster import DaskCluster
    except ImportError as exc:
        raise ClusterUnavailable(
            f"--cluster runs on a Dask cluster, and its client is not installed here ({exc}): install the extra "
            "with pip install 'reviewer[cluster]' (the package `distributed`), here and on every worker") from None
    try:
        return DaskCluster(address, timeout)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterUnavailable(f"no Dask scheduler answered at {address} ({type(exc).__name__}: {exc})") from None


__all__ = ["Batch", "ClusterUnavailable", "Done", "Executor", "LocalPool", "Work", "connect", "default_jobs",
           "local_pool"]
