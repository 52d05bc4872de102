"""``reviewer judge`` at scale, run as a user runs it on private copies of the bundled corpus: the
script judge with ``-j 1``, ``-j 2`` and on a real local Dask cluster started here writes the same
predictions (the cluster's judges run in the worker's process, and the predictions are saved here);
a worker that lacks the judge's program stops everything before it starts; Ctrl-C reaches the
judges on the workers; the built-in judges and ``-j`` are refused with ``--cluster``. Skipped when
the cluster extra (distributed) is not installed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from clikit import REPO_ROOT, cli
from judgekit import SCRIPT_JUDGE, corpus_copy, predictions_on_disk

pytest.importorskip("distributed", reason="the cluster extra (distributed) is not installed")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local Dask cluster: one worker process with two threads; its scheduler's address."""
    from distributed import LocalCluster

    local = LocalCluster(n_workers=1, threads_per_worker=2, processes=True, dashboard_address=":0")
    try:
        yield local.scheduler_address
    finally:
        local.close()


def worker_pids(address: str) -> set[int]:
    """The process ids of the cluster's workers (asked through a plain Dask client: our own cluster)."""
    from distributed import Client

    with Client(address, set_as_default=False) as client:
        return set(client.run(os.getpid).values())


def wrapper(folder: Path, name: str = "judge-wrapper") -> tuple[Path, Path]:
    """An executable that notes the process that started it (its parent) and runs the script judge;
    the wrapper and the file the parents are noted in."""
    folder.mkdir(parents=True, exist_ok=True)
    parents = folder / "parents"
    program = folder / name
    program.write_text(f'#!/bin/sh\necho "$PPID" >> "{parents}"\nexec "{sys.executable}" "{SCRIPT_JUDGE}" "$@"\n')
    program.chmod(0o755)
    return program, parents


def judge(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``reviewer judge ARGS`` as a subprocess, with ``env`` over this one's environment."""
    return subprocess.run([sys.executable, "-m", "reviewer.cli", "judge", *args], capture_output=True, text=True,
                          cwd=REPO_ROOT, env={**os.environ, "PYTHONPATH": str(REPO_ROOT), **(env or {})}, timeout=600,
                          check=False)


def started(*args: str) -> subprocess.Popen[str]:
    """``reviewer judge ARGS`` running, its output piped."""
    return subprocess.Popen([sys.executable, "-m", "reviewer.cli", "judge", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=REPO_ROOT,
                            env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})


def predictions(root: Path, name: str) -> list[dict[str, Any]]:
    """Every prediction and abstention of a judge, as saved, less when it was made and how long it took."""
    rows = []
    for path in sorted(root.glob(f"*/predictions/{name}.toml")):
        doc = tomllib.loads(path.read_text())
        for table in ("prediction", "abstention"):
            for row in doc.get(table, []):
                rows.append({"table": table, **{k: v for k, v in row.items() if k not in ("predicted_at", "seconds")}})
    return sorted(rows, key=lambda r: (r["session"], r["run"], r["check"]))


def test_one_thread_two_threads_and_the_cluster_write_the_same_predictions(tmp_path: Path, cluster: str) -> None:
    program, parents = wrapper(tmp_path / "bin")
    got: dict[str, list[dict[str, Any]]] = {}
    pids: dict[str, set[int]] = {}
    for how, extra in (("j1", ["-j", "1"]), ("j2", ["-j", "2"]), ("cluster", ["--cluster", cluster])):
        root = corpus_copy(tmp_path / how)
        parents.unlink(missing_ok=True)
        proc = started(str(root), "--name", "script", "--command", str(program), *extra)
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        assert "70 failures judged by script" in err
        got[how] = predictions(root, "script")
        pids[how] = {int(line) for line in parents.read_text().split()}
        pids[how + "-cli"] = {proc.pid}
    assert len(got["j1"]) == 70 and {r["table"] for r in got["j1"]} == {"prediction"}
    assert all(r["command"] == str(program) and r["judge_version"] == "script-judge 1" for r in got["j1"])
    assert got["j2"] == got["j1"] and got["cluster"] == got["j1"]
    assert pids["j1"] == pids["j1-cli"] and pids["j2"] == pids["j2-cli"], "here, the command itself starts the judges"
    assert pids["cluster"] and pids["cluster"] <= worker_pids(cluster), "on the cluster, the worker's process starts them"


def test_the_document_sent_to_a_worker_names_no_path_of_the_folder(tmp_path: Path) -> None:
    root = corpus_copy(tmp_path)
    done = cli("judge", str(root), "--name", "script", "--command", f"{sys.executable} {SCRIPT_JUDGE}", "--print-input")
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 70
    assert str(tmp_path) not in done.stdout and str(REPO_ROOT) not in done.stdout


def test_a_worker_without_the_judge_s_program_stops_it_all_before_it_starts(tmp_path: Path) -> None:
    from distributed import LocalCluster

    root = corpus_copy(tmp_path)
    program, parents = wrapper(tmp_path / "bin", "judge-here-only")
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    local = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                         env={"PATH": str(empty)})
    try:
        done = judge(str(root), "--name", "script", "--command", "judge-here-only", "--cluster",
                     local.scheduler_address, env={"PATH": f"{program.parent}:{os.environ['PATH']}"})
    finally:
        local.close()
    assert done.returncode == 2, done.stderr
    assert "1 worker cannot run it" in done.stderr and "'judge-here-only' is not found there" in done.stderr
    assert "Nothing was run" in done.stderr
    assert not parents.exists() and predictions_on_disk(root, "script") == {}


def test_ctrl_c_reaches_the_judges_on_the_workers(tmp_path: Path, cluster: str) -> None:
    """The judge hangs on one golden failure; once the six others are saved, Ctrl-C."""
    root = corpus_copy(tmp_path)
    tag = f"cluster-cut-{os.getpid()}-{tmp_path.name}"
    proc = started(str(root), "--name", "cut", "--session", "golden-*", "--cluster", cluster, "--command",
                   f"{sys.executable} {SCRIPT_JUDGE} --mode hang --only hydrant--breeze --tag {tag}")
    try:
        until(lambda: len(predictions_on_disk(root, "cut")) == 6 and bool(judges_with(tag)),
              "six predictions saved and the hanging judge running on the worker")
        assert proc.pid not in {parent_of(pid) for pid in judges_with(tag)}
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "reviewer judge: cancelled: 6 failures judged by cut" in err and "Traceback" not in err
    until(lambda: not judges_with(tag), "the hanging judge on the worker gone", limit=10)
    assert len(predictions_on_disk(root, "cut")) == 6


def test_what_the_cluster_cannot_take_is_refused_before_anything_runs(tmp_path: Path) -> None:
    command = f"{sys.executable} {SCRIPT_JUDGE}"
    cases = [
        (["--builtin", "evidence", "--cluster", "tcp://127.0.0.1:9"], 2, "--cluster runs --command judges only"),
        (["--name", "s", "--command", command, "--cluster", "tcp://127.0.0.1:9", "-j", "2"], 2,
         "--jobs is for this machine"),
        (["--name", "s", "--command", command, "--cluster", "tcp://127.0.0.1:9"], 1,
         "no Dask scheduler answered at tcp://127.0.0.1:9"),
    ]
    root = corpus_copy(tmp_path)
    for extra, status, says in cases:
        done = cli("judge", str(root), *extra)
        assert done.returncode == status and says in done.stderr, (extra, done.stderr)
        assert "Traceback" not in done.stderr
    assert not list(root.glob("*/predictions"))


def judges_with(tag: str) -> list[int]:
    """The running processes whose command line holds ``tag``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if tag.encode() in Path(f"/proc/{pid}/cmdline").read_bytes() and int(pid) != os.getpid():
                found.append(int(pid))
        except OSError:
            continue
    return found


def parent_of(pid: int) -> int:
    """The parent of a process (0 when it is gone)."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def until(condition: Any, what: str, limit: float = 180.0) -> None:
    """Wait for ``condition`` (something the processes do); fail after ``limit`` seconds of nothing."""
    import threading
    import time

    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        threading.Event().wait(0.05)
