"""The terminal benchmark runs on a small folder and prints every figure (the figures are not judged
here): the app in tmux, its open and its keys timed from the screen, beside the harness floor and,
when mini-swe-agent is installed (the ``bench`` extra), its inspector with the ratios."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent / "terminal.py"
FIGURES = ("open_s", "key_p50_ms", "key_p95_ms")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_terminal_benchmark_prints_one_json_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(BENCH), "--runs", "12", "--rounds", "1", "--presses", "3", "--json"],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr[-6000:].replace("\n\n", "\n")
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    figures = json.loads(lines[0])
    assert (figures["runs"], figures["rounds"], figures["presses"]) == (12, 1, 3)
    programs = ["reviewer", "reviewer_warm", "floor"] + (["inspector"] if figures["inspector"] else [])
    for program in programs:
        for figure in FIGURES:
            value = figures[f"{program}_{figure}"]
            assert isinstance(value, (int, float)) and value > 0, (program, figure)
    ratios = {"ratio_open", "ratio_key_p50", "ratio_key_p95"}
    if figures["inspector"]:
        assert all(figures[r] > 0 and len(figures[f"{r}_rounds"]) == 1 for r in ratios)
    else:
        assert not ratios & set(figures)
