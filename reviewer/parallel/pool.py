"""The executor interface, and its pool of threads on this machine.

A batch keeps at most its room of tasks submitted (the threads, or twice a cluster's threads),
takes the next task from the caller's iterable only when one ends, and hands each end to the
caller's thread as a :class:`Done`. :meth:`Batch.stop` sets the batch's cancel, takes no new
task, waits for the running ones to return and gives back those not yet handed over.
:meth:`Batch.every` gives the same Dones, and None whenever a while passes with none: the caller's
turn, on its own thread, to do what should not wait for the next task to end (save what came).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from types import TracebackType
from typing import Generic, Protocol, TypeVar

T = TypeVar("T")
Work = Callable[[T, Callable[[], bool]], str]
"""One task's work: ``work(task, cancelled) -> text``."""


@dataclass(frozen=True)
class Done(Generic[T]):
    """One task ended: its text, or (``error`` not "") why there is none."""

    task: T
    result: str = ""
    error: str = ""


class Batch(Iterator[Done[T]]):
    """Tasks running; iterate for each :class:`Done` as it ends (see :mod:`reviewer.parallel`)."""

    def __init__(self, tasks: Iterable[T]) -> None:
        self.tasks = iter(tasks)
        self.exhausted = False
        self.stopped = False

    def room(self) -> int:
        """How many tasks may be submitted at once."""
        raise NotImplementedError

    def running(self) -> int:
        """How many are submitted and not handed over."""
        raise NotImplementedError

    def submit(self, task: T) -> None:
        """Start one task."""
        raise NotImplementedError

    def next_done(self, timeout: float | None = None) -> Done[T] | None:
        """Block until a submitted task ends, its Done; None when ``timeout`` seconds pass first."""
        raise NotImplementedError

    def drain(self) -> list[Done[T]]:
        """After the cancel: wait for every submitted task; their Dones."""
        raise NotImplementedError

    def cancel(self) -> None:
        """Turn ``cancelled()`` true in every task."""
        raise NotImplementedError

    def close(self) -> None:
        """Release what the batch holds (after :meth:`stop` when it did not run to the end)."""

    def fill(self) -> None:
        """Submit tasks from the iterable until the room is full or it is used up."""
        while not self.exhausted and not self.stopped and self.running() < self.room():
            try:
                task = next(self.tasks)
            except StopIteration:
                self.exhausted = True
                return
            self.submit(task)

    def __next__(self) -> Done[T]:
        while True:
            self.fill()
            if not self.running():
                raise StopIteration
            done = self.next_done()
            if done is not None:
                return done

    def every(self, seconds: float) -> Iterator[Done[T] | None]:
        """Each Done as iterating the batch gives it, and None each time ``seconds`` pass with no
        task ended (the Dones still come on the calling thread, one at a time)."""
        while True:
            self.fill()
            if not self.running():
                return
            yield self.next_done(seconds)

    def stop(self) -> list[Done[T]]:
        """Cancel: running tasks see ``cancelled()`` true, no other task starts; waits for the
        running ones and returns their Dones (finished results among them)."""
        self.stopped = True
        self.cancel()
        return self.drain()

    def __enter__(self) -> Batch[T]:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.running():
            self.stop()
        self.close()


class Executor(Protocol):
    """Where tasks run: :class:`LocalPool` here, or a cluster (:func:`reviewer.parallel.connect`)."""

    where: str
    """For people: ``4 threads on this machine``, ``the Dask cluster at ...``."""

    def start(self, work: Work[T], tasks: Iterable[T]) -> Batch[T]:
        """Start running ``work`` over ``tasks``."""
        ...

    def on_every_worker(self, check: Callable[[], str]) -> dict[str, str]:
        """``check()`` once on each worker (a module-level function), its text by worker."""
        ...

    def close(self) -> None:
        """Let go of the workers."""
        ...


def default_jobs() -> int:
    """Tasks at once on this machine by default: the cores this process may run on (a re-score is
    a sandboxed process tree kept busy by its grader, so one per core keeps them all busy without
    the runs slowing each other)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class ThreadBatch(Batch[T]):
    """A batch on a pool of threads."""

    def __init__(self, pool: ThreadPoolExecutor, workers: int, work: Work[T], tasks: Iterable[T]) -> None:
        super().__init__(tasks)
        self.pool, self.workers, self.work = pool, workers, work
        self.event = threading.Event()
        self.futures: dict[Future[str], T] = {}

    def room(self) -> int:
        return self.workers

    def running(self) -> int:
        return len(self.futures)

    def submit(self, task: T) -> None:
        self.futures[self.pool.submit(self.work, task, self.event.is_set)] = task

    def next_done(self, timeout: float | None = None) -> Done[T] | None:
        done, _ = wait(self.futures, timeout=timeout, return_when=FIRST_COMPLETED)
        if not done:
            return None
        future = next(iter(done))
        return self.ended(future, self.futures.pop(future))

    def cancel(self) -> None:
        self.event.set()

    def drain(self) -> list[Done[T]]:
        wait(self.futures)
        out = [self.ended(f, t) for f, t in self.futures.items()]
        self.futures.clear()
        return out

    @staticmethod
    def ended(future: Future[str], task: T) -> Done[T]:
        try:
            result = future.result()
        except Exception as exc:  # noqa: BLE001 - one task's trouble is its Done's, never the batch's
            return Done(task, "", f"{type(exc).__name__}: {exc}")
        if not isinstance(result, str):
            return Done(task, "", f"the work returned {type(result).__name__}, not text")
        return Done(task, result)


class LocalPool:
    """``jobs`` threads on this machine."""

    def __init__(self, jobs: int) -> None:
        self.jobs = max(1, jobs)
        self.where = f"{self.jobs} {'thread' if self.jobs == 1 else 'threads'} on this machine"
        self.pool = ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="reviewer-task")

    def start(self, work: Work[T], tasks: Iterable[T]) -> Batch[T]:
        return ThreadBatch(self.pool, self.jobs, work, tasks)

    def on_every_worker(self, check: Callable[[], str]) -> dict[str, str]:
        return {"this machine": check()}

    def close(self) -> None:
        self.pool.shutdown(wait=True)


def local_pool(jobs: int | None = None) -> LocalPool:
    """A pool of ``jobs`` threads here (default :func:`default_jobs`)."""
    return LocalPool(jobs or default_jobs())
