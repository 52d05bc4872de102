"""The engines benchmark runs on Dask (the engine the test extra installs) and prints every figure;
a pickled result is refused by the client as reviewer builds it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent / "cluster_engines.py"


def test_the_dask_side_prints_every_figure_and_refuses_a_pickled_result(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    done = subprocess.run([sys.executable, str(BENCH), "dask", "--tasks", "20", "--json"], capture_output=True,
                          text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    [line] = [x for x in done.stdout.splitlines() if x.startswith("{")]
    figures = json.loads(line)
    assert figures["engine"] == "dask" and figures["tasks"] == 20
    assert figures["worker_processes"] >= 1 and figures["pickle_runs_on_client"] is False
    for key in ("import_s", "cluster_start_s", "first_task_s", "tasks_s", "per_task_ms", "shutdown_s"):
        assert figures[key] >= 0, key
