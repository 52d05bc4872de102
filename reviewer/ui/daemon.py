"""The thread pool the app's workers run in: daemon threads, so quitting never waits for a reader.

Textual runs thread workers in asyncio's default executor, a ``ThreadPoolExecutor`` that the
event loop and the interpreter both wait for at exit: a worker reading a huge file or computing
evidence kept the process alive (screen blank) long after ``q``. Workers here only read and post
messages (every label is written on the app's thread before the screen moves on), so one cut
short at exit loses nothing.

The threads are kept and reused: starting one costs the app's thread a wait until it runs
(about 2 ms with a busy interpreter), and a key starts two or three workers.
"""

from __future__ import annotations

import queue
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, TypeVar

T = TypeVar("T")


class DaemonExecutor(ThreadPoolExecutor):
    """Runs each submitted call in a daemon thread of its own pool, started only when every one is
    busy (asyncio wants a ThreadPoolExecutor: the base class's pool stays unused)."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.closed = False
        self.jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.idle = 0
        """Threads waiting for a job that no submitted job has claimed yet."""
        self.threads = 0

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` in an idle daemon thread (a new one when none is idle); its future."""
        if self.closed:
            raise RuntimeError("the executor is shut down")
        future: Future[T] = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:  # noqa: BLE001 - handed to the future's owner
                future.set_exception(exc)

        with self.lock:
            start = self.idle == 0
            if start:
                self.threads += 1
            else:
                self.idle -= 1
        self.jobs.put(run)
        if start:
            threading.Thread(target=self.serve, name=f"reviewer-worker-{self.threads}", daemon=True).start()
        return future

    def serve(self) -> None:
        """One pool thread: run jobs as they come, forever (a daemon: the interpreter never waits for it)."""
        while True:
            job = self.jobs.get()
            try:
                job()
            finally:
                del job
                with self.lock:
                    self.idle += 1

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Take no more work; never wait for running calls (they are daemon threads)."""
        self.closed = True
        super().shutdown(wait=False, cancel_futures=cancel_futures)
