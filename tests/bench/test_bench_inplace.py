"""The in-place benchmark runs on small inputs and prints every figure (the figures are not judged here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent / "inplace.py"


def test_the_in_place_benchmark_prints_one_json_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--samples", "30", "--trajectories", "20", "--json", "--work", str(tmp_path)],
        capture_output=True, text=True, timeout=1200, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    figures = json.loads(lines[0])
    for key in ("eval_reviewer_cold_s", "eval_reviewer_warm_s", "mini_reviewer_cold_s", "mini_reviewer_warm_s", "eval_import_s"):
        assert isinstance(figures[key], (int, float)) and figures[key] > 0, key
    assert figures["git_files_eval_in_place"] == 2  # session.toml and the log
    assert figures["git_files_mini_in_place"] == 21  # session.toml and the 20 trajectories
    assert figures["git_files_eval_imported"] > 30 * 3  # a run folder of several files per sample
    assert ("eval_inspect_view_sample_s" in figures) == figures["inspect_view_available"]
    assert ("mini_inspector_s" in figures) == figures["mini_inspector_available"]
