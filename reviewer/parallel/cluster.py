"""The executor on a Dask cluster (the ``cluster`` extra: ``distributed``).

The client connects to the scheduler address the user gave, nothing else, and reads back only
msgpack data (``deserializers=["msgpack"]``): a result that is any other object, pickled, is
refused unread, so what a worker returns is never code the client runs. Each task runs on a
worker in :func:`run_on_worker`, which hands ``work`` a ``cancelled()`` that polls the batch's
Dask :class:`~distributed.Event` (at most every half second), and returns ``["ok", text]`` or
``["error", text]``: work that raises goes back as text too. Scheduling, placement, retries of a
lost worker are Dask's.

The msgpack rule covers results. Dask itself still pickles an error it made (a worker that cannot
import reviewer, a worker lost) and some messages of its own protocol, which the client reads: the
workers are the user's, trusted as this machine is, and reached at the address the user gave.
Recorded code runs on them only inside the sandbox, with no way into the worker's process, and all
it can put in a result is text inside the JSON document the worker's reviewer writes.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from distributed import Client, Event, Future, as_completed

from reviewer.parallel.pool import Batch, Done, Work

T = TypeVar("T")
POLL_SECONDS = 0.5
"""How often a task asks whether its batch was stopped."""
STOP_SECONDS = 60.0
"""How long :meth:`Batch.stop` waits for the running tasks to notice the cancel and return."""
ROOM_PER_THREAD = 2
"""Tasks submitted per worker thread (one running, one ready to start)."""


class CancelWatch:
    """``cancelled()`` for a task on a worker: the batch's Event, asked at most every half second."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.event: Event | None = None
        self.seen = False
        self.asked = 0.0

    def __call__(self) -> bool:
        if self.seen:
            return True
        now = time.monotonic()
        if now - self.asked < POLL_SECONDS:
            return False
        self.asked = now
        try:
            if self.event is None:
                self.event = Event(self.name)
            self.seen = self.event.is_set()
        except Exception:  # noqa: BLE001 - no scheduler to ask: nobody waits for this result, stop
            self.seen = True
        return self.seen


def run_on_worker(work: Work[Any], task: Any, event_name: str) -> list[str]:
    """One task on a worker: ``["ok", text]``, ``["error", why]``, or ``["cancelled", ""]`` when its
    batch was stopped before it started (never raises)."""
    cancelled = CancelWatch(event_name)
    if cancelled():
        return ["cancelled", ""]
    try:
        result = work(task, cancelled)
    except BaseException as exc:  # noqa: BLE001 - the client gets text, never a pickled exception of ours
        return ["error", f"{type(exc).__name__}: {exc}"]
    if not isinstance(result, str):
        return ["error", f"the work returned {type(result).__name__}, not text"]
    return ["ok", result]


class DaskBatch(Batch[T]):
    """A batch of futures on the cluster."""

    def __init__(self, cluster: DaskCluster, work: Work[T], tasks: Iterable[T]) -> None:
        super().__init__(tasks)
        self.cluster, self.work = cluster, work
        self.tag = uuid.uuid4().hex[:12]
        self.event_name = f"reviewer-cancel-{self.tag}"
        self.futures: dict[Future, T] = {}
        self.completed = as_completed(loop=cluster.client.loop)
        self.submitted = 0
        self.capacity = 0
        self.refreshed = 0.0

    def room(self) -> int:
        now = time.monotonic()
        if now - self.refreshed > 5.0:
            self.refreshed = now
            self.capacity = ROOM_PER_THREAD * max(1, self.cluster.threads())
        return self.capacity

    def running(self) -> int:
        return len(self.futures)

    def submit(self, task: T) -> None:
        key = f"reviewer-{self.tag}-{self.submitted}"
        self.submitted += 1
        future = self.cluster.client.submit(run_on_worker, self.work, task, self.event_name, key=key, pure=False)
        self.futures[future] = task
        self.completed.add(future)

    def next_done(self, timeout: float | None = None) -> Done[T] | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            while deadline is not None and not self.completed.has_ready():
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                with self.completed.thread_condition:  # notified as each future ends (as its own next() waits)
                    self.completed.thread_condition.wait(timeout=min(left, POLL_SECONDS / 5))
            future = next(self.completed)
            done = self.ended(future, self.futures.pop(future))
            if done is not None or not self.futures:
                return done

    def cancel(self) -> None:
        Event(self.event_name, client=self.cluster.client).set()

    def drain(self) -> list[Done[T]]:
        futures = list(self.futures)
        deadline = time.monotonic() + STOP_SECONDS
        for future in futures:
            try:
                future.result(timeout=max(0.0, deadline - time.monotonic()))
            except Exception:  # noqa: BLE001 - ended (its Done says how) or still running (cancelled below)
                pass
        ended = (self.ended(f, t) for f, t in self.futures.items() if f.done())
        out = [d for d in ended if d is not None]
        left = [f for f in futures if not f.done()]
        if left:
            self.cluster.client.cancel(left)
        self.futures.clear()
        return out

    def close(self) -> None:
        if self.stopped:
            try:
                Event(self.event_name, client=self.cluster.client).clear()
            except Exception:  # noqa: BLE001 - an event left set on a scheduler is harmless
                pass

    @staticmethod
    def ended(future: Future, task: T) -> Done[T] | None:
        """The task's Done (None when it never started: its batch was stopped first)."""
        try:
            value = future.result()
        except Exception as exc:  # noqa: BLE001 - a lost worker, a refused result: this task's Done
            return Done(task, "", f"{type(exc).__name__}: {exc}")
        if not (isinstance(value, list) and len(value) == 2 and value[0] in ("ok", "error", "cancelled")
                and isinstance(value[1], str)):
            return Done(task, "", "the worker sent something other than [status, text]: refused")
        if value[0] == "cancelled":
            return None
        return Done(task, value[1]) if value[0] == "ok" else Done(task, "", value[1])


class DaskCluster:
    """An executor on the Dask scheduler at ``address``."""

    def __init__(self, address: str, timeout: float) -> None:
        self.address = address
        self.client = Client(address, timeout=timeout, set_as_default=False, deserializers=["msgpack"])
        self.where = f"the Dask cluster at {address}"

    def threads(self) -> int:
        """The worker threads the cluster has now."""
        return sum(int(n) for n in self.client.nthreads().values())

    def start(self, work: Work[T], tasks: Iterable[T]) -> Batch[T]:
        return DaskBatch(self, work, tasks)

    def on_every_worker(self, check: Callable[[], str]) -> dict[str, str]:
        found = self.client.run(check)
        return {str(worker): text if isinstance(text, str) else "" for worker, text in found.items()}

    def close(self) -> None:
        self.client.close()
