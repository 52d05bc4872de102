"""The import benchmark runs on small inputs and prints every figure (the figures are not judged here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent / "imports.py"


def test_the_import_benchmark_prints_one_json_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--sizes", "30", "--samples", "30", "--rounds", "1", "--json", "--work", str(tmp_path)],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    figures = json.loads(lines[0])
    for key in ("mini_30_import_s", "mini_30_floor_s", "mini_30_ratio", "mini_30_write_floor_s", "inspect_import_s", "inspect_floor_s", "inspect_ratio"):
        assert isinstance(figures[key], (int, float)) and figures[key] > 0, key
    assert figures["mini_30_ratio"] == round(figures["mini_30_import_s"] / figures["mini_30_floor_s"], 2)
    assert ("inspect_read_s" in figures) == figures["inspect_ai_available"]
