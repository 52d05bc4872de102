"""The thread pool the app's workers run in: daemon threads, so quitting never waits for a reader.

The workers are Textual's own (``run_worker``, named groups, ``exclusive``); Textual runs thread
workers in asyncio's default executor, which the app sets to this pool once (``ReviewApp``'s
start) and shuts down at the end. asyncio's own ``ThreadPoolExecutor`` is waited for by the event
loop and the interpreter at exit, and a staleness check or a look at a big folder cannot be cut
short: ``q`` a second after the first screen of 10,000 runs took 1.8 s to exit, 0.49 s with this
pool (``tests/bench/quit.py``, medians of 8 interleaved rounds). Workers here only read and post
messages (every label is written on the app's thread before the screen moves on), so one cut
short at exit loses nothing.

The threads are kept and reused: starting one costs the app's thread a wait until it runs
(about 2 ms with a busy interpreter), and a key starts two or three workers. There are at most
:data:`MAX_THREADS`: past that a call waits in the queue, and one whose worker was cancelled
meanwhile (a newer key asked for the same thing) never runs. Without the bound, keys held down
on 10,000 runs sometimes started a thread for every superseded view still running, each one
slowing the others under the GIL: 560 threads, 470 MB and a key median of 300 ms in the benchmark.
"""

from __future__ import annotations

import contextvars
import queue
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, TypeVar

T = TypeVar("T")
MAX_THREADS = 12
"""Threads the pool starts at most (the app's long workers, counting, git, a live reread, a big
file, fit with room for a key's view, evidence and neighbours)."""


class DaemonThreadPool(ThreadPoolExecutor):
    """Runs each submitted call in a daemon thread of its own pool, a new one started only when
    every one is busy and there are fewer than ``max_threads`` (asyncio wants a
    ThreadPoolExecutor: the base class's pool stays unused)."""

    def __init__(self, max_threads: int = MAX_THREADS) -> None:
        super().__init__(max_workers=1)
        self.max_threads = max_threads
        self.closed = False
        self.jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.waiting = 0
        """Threads waiting for a job."""
        self.pending = 0
        """Jobs submitted and not yet taken by a thread."""
        self.threads = 0

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` in an idle daemon thread (a new one when none is idle and
        there are fewer than ``max_threads``, else when one is free); its future."""
        future: Future[T] = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                # In a context of its own, as in a new thread: Textual sets its ``active_worker`` in
                # the thread running a worker and never unsets it, so a kept thread would keep the
                # last worker it ran, and through it that worker's app, alive after the app ends.
                future.set_result(contextvars.Context().run(fn, *args, **kwargs))
            except BaseException as exc:  # noqa: BLE001 - handed to the future's owner
                future.set_exception(exc)

        with self.lock:
            if self.closed:  # under the lock: nothing is queued behind the threads' last call
                raise RuntimeError("the executor is shut down")
            self.pending += 1
            start = self.pending > self.waiting and self.threads < self.max_threads
            if start:
                self.threads += 1
            self.jobs.put(run)
        if start:
            threading.Thread(target=self.serve, name=f"reviewer-worker-{self.threads}", daemon=True).start()
        return future

    def serve(self) -> None:
        """One pool thread: run jobs as they come, until the pool is shut down (a daemon: the
        interpreter never waits for it)."""
        while True:
            with self.lock:
                self.waiting += 1
            job = self.jobs.get()
            with self.lock:
                self.waiting -= 1
                self.pending -= 1
            if job is None:
                return
            try:
                job()
            finally:
                del job

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Take no more work and let the threads end once the queue is done; never wait for
        running calls (they are daemon threads).

        The threads must end: a thread keeps the ``sys.stderr`` it was started under, which
        inside a Textual app is the app's print capture, so a kept thread would keep the app.
        """
        with self.lock:
            if self.closed:
                return
            self.closed = True
            threads = self.threads
            self.pending += threads
        for _ in range(threads):
            self.jobs.put(None)
        super().shutdown(wait=False, cancel_futures=cancel_futures)
