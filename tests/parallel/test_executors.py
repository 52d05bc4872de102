"""The executor interface (reviewer.parallel) on real threads and on a real local Dask cluster:
every task's text comes back once, on the caller's thread; tasks are read only as room frees up;
stop() makes running tasks see cancelled() and hands back what they returned; a worker that sends
anything but text is refused, and the client never unpickles it."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from reviewer.parallel import ClusterUnavailable, Done, Executor, connect, default_jobs, local_pool


def echo(task: int, cancelled: Callable[[], bool]) -> str:
    return f"task {task} in pid {os.getpid()}"


def fails_on_odd(task: int, cancelled: Callable[[], bool]) -> str:
    if task % 2:
        raise ValueError(f"odd {task}")
    return str(task)


def until_file(task: str, cancelled: Callable[[], bool]) -> str:
    """Runs until the file ``task`` names exists (the test writes it: a signal, not a clock)."""
    while not Path(task).exists() and not cancelled():
        threading.Event().wait(0.02)
    return f"{task} appeared"


def every_until_done(executor: Executor, flag: Path) -> list[str]:
    """What ``every`` gives while a task waits for ``flag``: "idle" each time it gives None (the
    first one writes the flag), then the task's result."""
    seen: list[str] = []
    with executor.start(until_file, [str(flag)]) as batch:
        for done in batch.every(0.05):
            if done is None:
                seen.append("idle")
                flag.write_text("go")
            else:
                seen.append(done.result)
    return seen


def until_cancelled(task: str, cancelled: Callable[[], bool]) -> str:
    """Runs until its batch is stopped; the file says it started (a signal, not a clock)."""
    Path(task).write_text("started")
    while not cancelled():
        threading.Event().wait(0.05)
    return f"{task} saw the cancel"


class Pickled:
    """An object a pickle turns into a call: unpickling it writes the file it names."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, tuple[str, ...]]:
        return (Path.write_text, (Path(self.path), "unpickled on the client"))


def returns_an_object(path: str) -> Pickled:
    return Pickled(path)


def until(condition: Callable[[], bool], what: str) -> None:
    """Wait for ``condition`` (something the tasks do), failing after two minutes of nothing."""
    deadline = time.monotonic() + 120
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        threading.Event().wait(0.02)


def test_a_local_pool_hands_every_result_back_once_on_the_calling_thread() -> None:
    pool = local_pool(3)
    seen: list[tuple[int, str]] = []
    try:
        with pool.start(echo, range(20)) as batch:
            for done in batch:
                assert threading.current_thread() is threading.main_thread()
                seen.append((done.task, done.result))
    finally:
        pool.close()
    assert sorted(t for t, _ in seen) == list(range(20))
    assert all(r == f"task {t} in pid {os.getpid()}" for t, r in seen)


def test_work_that_raises_is_its_task_s_error_not_the_batch_s() -> None:
    pool = local_pool(2)
    try:
        with pool.start(fails_on_odd, range(6)) as batch:
            got = {d.task: d for d in batch}
    finally:
        pool.close()
    assert {t: d.result for t, d in got.items() if not d.error} == {0: "0", 2: "2", 4: "4"}
    assert {t: d.error for t, d in got.items() if d.error} == {1: "ValueError: odd 1", 3: "ValueError: odd 3",
                                                                5: "ValueError: odd 5"}


def test_tasks_are_read_only_as_room_frees_up() -> None:
    """Two threads: the iterable is read two ahead of what has ended, never all at once."""
    read: list[int] = []

    def tasks() -> Iterator[int]:
        for i in range(10):
            read.append(i)
            yield i

    pool = local_pool(2)
    handed = 0
    try:
        with pool.start(echo, tasks()) as batch:
            for _ in batch:
                handed += 1
                assert len(read) <= handed + 2
    finally:
        pool.close()
    assert handed == 10 and read == list(range(10))


def test_stop_cancels_running_tasks_and_starts_no_other(tmp_path: Path) -> None:
    flags = [str(tmp_path / f"task{i}") for i in range(5)]
    pool = local_pool(2)
    try:
        batch = pool.start(until_cancelled, flags)
        with batch:
            batch.fill()
            until(lambda: all(Path(f).exists() for f in flags[:2]), "both threads in their task")
            left = batch.stop()
            assert list(batch) == []
    finally:
        pool.close()
    assert sorted(d.result for d in left) == [f"{f} saw the cancel" for f in flags[:2]]
    assert not any(Path(f).exists() for f in flags[2:]), "a task that had not started never starts"


def test_every_gives_the_caller_a_turn_while_no_task_ends(tmp_path: Path) -> None:
    """The task ends only after the caller's first idle turn: the turn comes while it runs."""
    pool = local_pool(1)
    try:
        seen = every_until_done(pool, tmp_path / "flag")
    finally:
        pool.close()
    assert seen[0] == "idle" and seen[-1] == f"{tmp_path / 'flag'} appeared"
    assert set(seen[:-1]) == {"idle"}


def test_every_hands_back_each_task_once_like_iterating() -> None:
    pool = local_pool(3)
    try:
        with pool.start(echo, range(20)) as batch:
            got = [d.task for d in batch.every(0.01) if d is not None]
    finally:
        pool.close()
    assert sorted(got) == list(range(20))


def test_the_default_is_the_cores_this_process_may_use() -> None:
    assert default_jobs() == len(os.sched_getaffinity(0))
    assert local_pool().jobs == default_jobs()


def test_without_the_extra_cluster_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails, as uninstalled
    monkeypatch.delitem(sys.modules, "reviewer.parallel.cluster", raising=False)
    with pytest.raises(ClusterUnavailable, match=r"pip install 'reviewer\[cluster\]'"):
        connect("tcp://127.0.0.1:1")


@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[Executor]:
    """A real local Dask cluster (two worker processes), and reviewer's executor on it."""
    pytest.importorskip("distributed", reason="the cluster extra (distributed) is not installed")
    import cloudpickle
    from distributed import LocalCluster

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this test file
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    executor = connect(cluster.scheduler_address)
    try:
        yield executor
    finally:
        executor.close()
        cluster.close()


def test_a_cluster_runs_the_tasks_in_its_worker_processes(dask_cluster: Executor) -> None:
    with dask_cluster.start(echo, range(12)) as batch:
        done = list(batch)
    assert sorted(d.task for d in done) == list(range(12)) and not [d for d in done if d.error]
    pids = {d.result.rpartition(" ")[2] for d in done}
    assert str(os.getpid()) not in pids and 1 <= len(pids) <= 2
    assert len(dask_cluster.on_every_worker(os.getcwd)) == 2


def test_every_gives_the_caller_a_turn_while_a_worker_runs(dask_cluster: Executor, tmp_path: Path) -> None:
    seen = every_until_done(dask_cluster, tmp_path / "flag")
    assert seen[0] == "idle" and seen[-1] == f"{tmp_path / 'flag'} appeared"
    assert set(seen[:-1]) == {"idle"}


def test_a_cluster_hands_back_the_error_of_work_that_raises(dask_cluster: Executor) -> None:
    with dask_cluster.start(fails_on_odd, range(4)) as batch:
        got = {d.task: (d.result, d.error) for d in batch}
    assert got == {0: ("0", ""), 1: ("", "ValueError: odd 1"), 2: ("2", ""), 3: ("", "ValueError: odd 3")}


def test_stop_reaches_the_tasks_running_on_workers(dask_cluster: Executor, tmp_path: Path) -> None:
    flags = [str(tmp_path / f"task{i}") for i in range(6)]
    batch = dask_cluster.start(until_cancelled, flags)
    with batch:
        batch.fill()
        until(lambda: all(Path(f).exists() for f in flags[:2]), "a task running on each worker")
        left = batch.stop()
    assert sorted(d.result for d in left) == [f"{f} saw the cancel" for f in flags[:2]]
    assert not any(Path(f).exists() for f in flags[2:]), "a task that had not started never starts"


def test_work_that_returns_anything_but_text_is_its_task_s_error(dask_cluster: Executor, tmp_path: Path) -> None:
    with dask_cluster.start(lambda task, _c: Pickled(task), [str(tmp_path / "ran")]) as batch:
        done: list[Done[str]] = list(batch)
    assert [d.error for d in done] == ["the work returned Pickled, not text"]
    assert not (tmp_path / "ran").exists()


def test_the_client_never_unpickles_what_a_worker_returns(dask_cluster: Executor, tmp_path: Path) -> None:
    """Past reviewer's own wrapper too: the executor's client reads msgpack data only, so a pickled
    object a worker sends is refused before anything of it runs here (a plain Dask client runs it)."""
    from distributed import Client

    client = dask_cluster.client  # type: ignore[attr-defined]
    marker = tmp_path / "ran"
    with pytest.raises(TypeError, match="msgpack"):
        client.submit(returns_an_object, str(marker), pure=False).result()
    assert not marker.exists()
    plain = Client(client.scheduler.address, set_as_default=False)
    try:
        plain.submit(returns_an_object, str(marker), pure=False).result()
    finally:
        plain.close()
    assert marker.read_text() == "unpickled on the client", "the same object, read by a client that unpickles"
