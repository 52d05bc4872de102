"""The benchmark itself runs and prints what the issue asks for (its figures are not judged here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent / "bench.py"
KEYS = {"runs", "floor_s", "open_s", "open_ratio", "warm_open_s", "key_p50_ms", "key_p95_ms", "rss_mb",
        "bigfile_ms", "longline_ms", "export_s"}


def test_a_small_benchmark_prints_one_json_line_with_every_figure(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--runs", "300", "--json", "--presses", "20", "--export-labels", "2000"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    figures = json.loads(lines[0])
    assert set(figures) == KEYS
    assert figures["runs"] == 300
    for key in KEYS - {"runs"}:
        assert isinstance(figures[key], (int, float)) and figures[key] > 0, key
    assert abs(figures["open_ratio"] - figures["open_s"] / figures["floor_s"]) <= 0.01 * figures["open_ratio"]  # rounded
    assert figures["key_p50_ms"] <= figures["key_p95_ms"]
