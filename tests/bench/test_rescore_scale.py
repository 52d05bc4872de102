"""The re-score benchmark runs and prints its figures for every setting (their values are not judged here)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent / "rescore_scale.py"


def test_a_small_rescore_benchmark_re_scores_and_saves_every_failure(tmp_path: Path) -> None:
    cluster = importlib.util.find_spec("distributed") is not None
    args = ["--failures", "20", "--jobs", "2", "--json", *(["--cluster", "1x2"] if cluster else ["--no-cluster"])]
    done = subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    [line] = [x for x in done.stdout.splitlines() if x.startswith("{")]
    figures = json.loads(line)
    assert figures["source_sessions"] and figures["failures"] >= 20
    assert [s["setting"] for s in figures["settings"]] == ["-j 2", *(["cluster 1x2"] if cluster else [])]
    for setting in figures["settings"]:
        assert setting["exit"] == 0 and setting["errors"] == 0
        assert setting["rescores"] == setting["saved"] == figures["failures"]
        assert setting["per_minute"] > 0 and 0 < setting["first_result_s"] <= setting["seconds"]
