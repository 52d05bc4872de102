"""The thread pool the app's workers run in: daemon threads, so quitting never waits for a reader.

Textual runs thread workers in asyncio's default executor, a ``ThreadPoolExecutor`` that the
event loop and the interpreter both wait for at exit: a worker reading a huge file or computing
evidence kept the process alive (screen blank) long after ``q``. Workers here only read and post
messages (every label is written on the app's thread before the screen moves on), so one cut
short at exit loses nothing.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, TypeVar

T = TypeVar("T")


class DaemonExecutor(ThreadPoolExecutor):
    """Runs each submitted call in a new daemon thread (asyncio wants a ThreadPoolExecutor: its pool stays unused)."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.closed = False

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Start ``fn(*args, **kwargs)`` in a daemon thread; its future."""
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

        threading.Thread(target=run, name="reviewer-worker", daemon=True).start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Take no more work; never wait for running calls (they are daemon threads)."""
        self.closed = True
        super().shutdown(wait=False, cancel_futures=cancel_futures)
