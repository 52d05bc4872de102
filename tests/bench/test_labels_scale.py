"""The labels benchmark runs and prints what the issue asks for (its figures are not judged here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent / "labels_scale.py"


def test_a_small_labels_benchmark_prints_every_figure_and_every_decision_is_on_disk(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(BENCH), "--sizes", "200,3000", "--decisions", "3", "--json"],
                          capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    [line] = done.stdout.strip().splitlines()
    figures = json.loads(line)
    assert [s["labels"] for s in figures["sizes"]] == [200, 3000]
    for size in figures["sizes"]:
        for key in ("store_ms", "app_ms", "app_idle_ms"):
            assert 0 < size[key]["p50"] <= size[key]["p95"] <= size[key]["max"], key
        assert size["on_disk"] >= size["expected_on_disk"] == 3
        assert size["cli_s"] > 0 and size["rss_mb"] > 0 and size["load_s"] >= 0
