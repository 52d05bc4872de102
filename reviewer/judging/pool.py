"""Judging many failures at once: the one place that decides how jobs run in parallel.

:func:`run_parallel` hands each item to ``work`` through an executor (threads by default: each
thread mostly waits on a judge's subprocess) and reports each result on the calling thread as it
ends, in the order they end. Any :class:`concurrent.futures.Executor` can be given instead, so a
cluster's executor can take the jobs later without the callers changing.

Cancelling (Ctrl-C in the calling thread, or ``stop`` set by anyone) sets ``stop``, which every
job polls (a judge call kills its process group within a fraction of a second), drops the jobs
not started yet and waits for the running ones to end; what ended before is reported as usual.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

TICK = 0.25
DEFAULT_WORKERS = 4
"""Judges at once when not told: a judge mostly waits on a model behind an API, not on this machine."""


def run_parallel(
    items: Iterable[Item],
    work: Callable[[Item], Result],
    on_done: Callable[[Item, Result | None, BaseException | None], None],
    *,
    workers: int = DEFAULT_WORKERS,
    stop: threading.Event | None = None,
    executor: Executor | None = None,
    idle: Callable[[], None] | None = None,
) -> bool:
    """Run ``work`` on every item, ``workers`` at a time; ``on_done(item, result, error)`` on this
    thread as each ends (``error`` is the exception ``work`` raised, ``result`` None then).

    Returns False when it was cancelled (``stop`` set); re-raises KeyboardInterrupt after the
    running jobs have ended. ``executor``: one to use instead of a pool of ``workers`` threads
    (it is not shut down here). ``idle``: called on this thread at least every :data:`TICK` seconds
    while jobs run (to save what came meanwhile).
    """
    stop = stop if stop is not None else threading.Event()
    own = executor is None
    pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="judge") if executor is None else executor
    pending: dict[Future[Result], Item] = {}
    try:
        for item in items:
            pending[pool.submit(work, item)] = item
        while pending:
            done, _ = wait(pending, timeout=TICK, return_when=FIRST_COMPLETED)
            for fut in done:
                item = pending.pop(fut)
                if fut.cancelled():
                    continue
                error = fut.exception()
                on_done(item, None if error is not None else fut.result(), error)
            if idle is not None:
                idle()
            if stop.is_set():
                break
    except KeyboardInterrupt:
        stop.set()
        raise
    finally:
        if pending:
            stop.set()
            for fut in pending:
                fut.cancel()
            for fut in [f for f in pending if not f.cancelled()]:
                try:
                    wait([fut])
                except KeyboardInterrupt:  # a second Ctrl-C while the running jobs stop
                    continue
                item = pending[fut]
                error = fut.exception()
                on_done(item, None if error is not None else fut.result(), error)
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
    return not stop.is_set()
