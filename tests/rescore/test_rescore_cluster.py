"""``reviewer rescore --cluster ADDRESS`` on a real local Dask cluster started here: the same results
as on this machine, saved in the same records by the client; each task carries its files (a
grading runs with the sessions folder gone); a worker without bubblewrap stops everything before
it starts (exit 3); Ctrl-C reaches the sandboxes on the workers; without the extra, it says what
to install. Skipped when the cluster extra (distributed) is not installed."""

from __future__ import annotations

import json
import pickle
import shutil
import signal
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from parallelkit import quick_and_slow, reviewer, start_reviewer, until
from rescorekit import corpus_copy, processes_with, sandbox_tool

from reviewer.model.repair import parse_repair
from reviewer.parallel import connect
from reviewer.rescore.engine import Comparison, grading
from reviewer.rescore.wire import perform, read_result
from reviewer.store.sessions.store import SessionStore

pytest.importorskip("distributed", reason="the cluster extra (distributed) is not installed")

CONNECTED = "oracle-2026-10/connected--atlas-7b"


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local Dask cluster: one worker process with two threads; its scheduler's address."""
    from distributed import LocalCluster

    local = LocalCluster(n_workers=1, threads_per_worker=2, processes=True, dashboard_address=":0")
    try:
        yield local.scheduler_address
    finally:
        local.close()


def rows(stdout: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in stdout.splitlines()]


def test_the_cluster_re_scores_what_this_machine_does_and_saves_here(tmp_path: Path, cluster: str) -> None:
    sandbox_tool()
    corpus = corpus_copy(tmp_path)
    done = reviewer("rescore", str(corpus), "--all-proposed", "--json", "--reviewer", "bo", "--cluster", cluster)
    assert done.returncode == 0, done.stderr
    got = rows(done.stdout)
    connected = [r for r in got if str(r["failure"]).startswith(f"{CONNECTED}#")]
    assert len(connected) == 5 and all(r["flipped"] for r in connected)
    assert not [r for r in got if r["flipped"] and "breeze-large" in str(r["failure"]) and "connected" in str(r["failure"])]
    assert {r["record"] for r in got} == {str(corpus / "oracle-2026-10" / "rescores" / "bo.toml")}
    table = tomllib.loads((corpus / "oracle-2026-10" / "rescores" / "bo.toml").read_text())["rescore"]
    assert {f for t in table for f in t["failures"]} == {r["failure"] for r in got}
    assert all(t["sandbox"].startswith("bubblewrap") for t in table)


def test_a_task_carries_its_files_and_runs_with_the_folder_gone(tmp_path: Path, cluster: str) -> None:
    sandbox_tool()
    corpus = corpus_copy(tmp_path)
    store = SessionStore(corpus)
    store.scan()
    run = store.run(CONNECTED)
    assert run is not None
    task = grading(store, run, "oracle", (parse_repair("map-value::true:yes"),))
    assert str(corpus).encode() not in pickle.dumps(task), "the task names no path of the sessions folder"
    shutil.rmtree(corpus)
    executor = connect(cluster)
    try:
        with executor.start(perform, [task]) as batch:
            (done,) = list(batch)
    finally:
        executor.close()
    result = read_result(done.result, task)
    assert isinstance(result, Comparison)
    single = next(c for c in result.checks if c.key.endswith("::test_single_node"))
    assert (single.recorded, single.before, single.after) == ("fail", "fail", "pass")


def test_a_worker_without_bubblewrap_stops_it_all_before_it_starts(tmp_path: Path) -> None:
    from distributed import LocalCluster

    corpus = corpus_copy(tmp_path)
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    local = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                         env={"PATH": str(empty)})
    try:
        done = reviewer("rescore", str(corpus), "--all-proposed", "--cluster", local.scheduler_address)
    finally:
        local.close()
    assert done.returncode == 3, done.stderr
    assert "1 worker cannot run one" in done.stderr and "bwrap" in done.stderr and "Nothing was run" in done.stderr
    assert done.stdout == "" and not list(corpus.glob("*/rescores"))


def test_no_scheduler_at_the_address_is_said(tmp_path: Path) -> None:
    done = reviewer("rescore", str(tmp_path), "--all-proposed", "--cluster", "tcp://127.0.0.1:9")
    assert done.returncode == 1 and "no Dask scheduler answered at tcp://127.0.0.1:9" in done.stderr


def test_jobs_are_for_this_machine_only(tmp_path: Path) -> None:
    done = reviewer("rescore", str(tmp_path), "--all-proposed", "--cluster", "tcp://127.0.0.1:9", "-j", "2")
    assert done.returncode == 2 and "--jobs is for this machine" in done.stderr


def test_without_the_extra_the_cluster_option_says_what_to_install(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['distributed'] = None\n"  # as if distributed were not installed
            "from reviewer.cli import main; sys.exit(main(sys.argv[1:]))")
    import subprocess

    done = subprocess.run([sys.executable, "-c", code, "rescore", str(tmp_path), "--all-proposed", "--cluster",
                           "tcp://127.0.0.1:9"], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1
    assert "pip install 'reviewer[cluster]'" in done.stderr and "Traceback" not in done.stderr


def test_ctrl_c_reaches_the_sandboxes_on_the_workers(tmp_path: Path, cluster: str) -> None:
    sandbox_tool()
    root, (quick, slow), marker = quick_and_slow(tmp_path / "sessions")
    proc = start_reviewer("rescore", str(root), "--failure", quick, "--failure", slow, "--repair",
                          "lift-limit:recursion", "--json", "--reviewer", "bo", "--cluster", cluster)
    try:
        assert proc.stdout is not None
        first = json.loads(proc.stdout.readline())
        assert first["failure"] == quick
        until(lambda: bool(processes_with(marker)), "the slow grader running in its sandbox on the worker")
        assert all(pid != proc.pid for pid in processes_with(marker))
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert rest == ""
    until(lambda: not processes_with(marker), "the slow grader's sandbox on the worker gone", limit=10)
    table = tomllib.loads((root / "s1" / "rescores" / "bo.toml").read_text())["rescore"]
    assert [t["failures"] for t in table] == [[quick]]
