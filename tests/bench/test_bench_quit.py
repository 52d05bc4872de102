"""The quit benchmark runs on a small folder and prints its figures (they are not judged here): the
app in tmux, ``q`` timed a second after the first failure is on screen."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent / "quit.py"


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_quit_benchmark_prints_one_json_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(BENCH), "--runs", "50", "--rounds", "1", "--json"], capture_output=True, text=True,
                          timeout=600, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr[-6000:]
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    figures = json.loads(lines[0])
    assert (figures["runs"], figures["rounds"], len(figures["quit_s_rounds"])) == (50, 1, 1)
    assert figures["quit_s"] > 0
