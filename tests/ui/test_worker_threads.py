"""The app's worker pool: daemon threads, reused, bounded; a call cancelled while queued never runs."""

from __future__ import annotations

import threading
import time

import pytest

from reviewer.ui.worker_threads import DaemonThreadPool


def pool_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("reviewer-worker-")]


def test_threads_are_reused_for_calls_one_after_another() -> None:
    pool = DaemonThreadPool(max_threads=4)
    for n in range(20):
        assert pool.submit(lambda n=n: n * 2).result(timeout=10) == n * 2
    assert pool.threads == 1


def test_no_more_threads_than_the_bound_and_queued_calls_run_when_one_is_free() -> None:
    pool = DaemonThreadPool(max_threads=3)
    release = threading.Event()
    started: list[int] = []
    lock = threading.Lock()

    def job(n: int) -> int:
        with lock:
            started.append(n)
        release.wait(10)
        return n

    futures = [pool.submit(job, n) for n in range(10)]
    deadline = time.monotonic() + 10
    while len(started) < 3 and time.monotonic() < deadline:
        time.sleep(0.005)
    time.sleep(0.05)  # give a wrongly started fourth thread the time to show
    assert pool.threads == 3
    assert sorted(started) == [0, 1, 2]
    assert all(t.daemon for t in pool_threads())
    release.set()
    assert [f.result(timeout=10) for f in futures] == list(range(10))
    assert pool.threads == 3


def test_a_call_cancelled_while_it_waits_never_runs() -> None:
    pool = DaemonThreadPool(max_threads=1)
    release = threading.Event()
    ran: list[str] = []
    first = pool.submit(lambda: release.wait(10))
    superseded = pool.submit(lambda: ran.append("superseded"))
    latest = pool.submit(lambda: ran.append("latest"))
    assert superseded.cancel()
    release.set()
    latest.result(timeout=10)
    assert first.result(timeout=10) is True
    assert ran == ["latest"]


def test_a_new_thread_starts_when_every_thread_is_busy_below_the_bound() -> None:
    pool = DaemonThreadPool(max_threads=4)
    release = threading.Event()
    blocked = pool.submit(lambda: release.wait(10))
    # the first thread is busy: the next call must not wait behind it
    assert pool.submit(lambda: "quick").result(timeout=5) == "quick"
    assert pool.threads == 2
    release.set()
    blocked.result(timeout=10)


def test_no_call_after_shutdown() -> None:
    pool = DaemonThreadPool()
    pool.shutdown()
    with pytest.raises(RuntimeError, match="shut down"):
        pool.submit(lambda: None)


def test_a_call_leaves_nothing_behind_in_the_thread_that_ran_it() -> None:
    """A context variable set by a call (Textual's ``active_worker`` is one) is gone for the next call."""
    import contextvars

    marker: contextvars.ContextVar[str] = contextvars.ContextVar("marker", default="unset")
    pool = DaemonThreadPool(max_threads=1)
    pool.submit(marker.set, "the last worker").result(timeout=10)
    assert pool.submit(marker.get).result(timeout=10) == "unset"
    assert pool.threads == 1


def test_the_threads_end_after_shutdown_once_their_calls_are_done() -> None:
    """A thread keeps the ``sys.stderr`` it started under (an app's print capture): they must end."""
    before = set(pool_threads())
    pool = DaemonThreadPool(max_threads=3)
    release = threading.Event()
    busy = [pool.submit(release.wait, 10) for _ in range(3)]
    queued = pool.submit(lambda: "still run")
    threads = [t for t in pool_threads() if t not in before]
    assert len(threads) == 3
    pool.shutdown(wait=False)
    release.set()
    assert queued.result(timeout=10) == "still run"
    assert all(f.result(timeout=10) for f in busy)
    deadline = time.monotonic() + 10
    while any(t.is_alive() for t in threads) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert threads and not any(t.is_alive() for t in threads)
