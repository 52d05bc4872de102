"""End to end: label in a real terminal, export, reopen (the acceptance check of 3/9)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from sessionkit import example_corpus
from test_terminal import reviewer_command
from tmux_driver import Tmux, tmux_available

pytestmark = pytest.mark.skipif(not tmux_available(), reason="tmux is not installed")
ENV = {"TERM": "xterm-256color", "COLORTERM": "truecolor", "TEXTUAL_ANIMATIONS": "none"}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                          capture_output=True, text=True, check=True).stdout


def export(folder: Path) -> str:
    proc = subprocess.run([sys.executable, "-m", "reviewer.cli", "export", str(folder)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_s_c_q_leaves_two_labels_export_is_stable_and_reopen_moves_on(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    folder = repo / "sessions"
    example_corpus(folder)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "runs")
    command = [*reviewer_command(), str(folder), "--reviewer", "alice"]
    with Tmux(command, size=(200, 50), cwd=repo, env=ENV) as term:
        screen = term.wait_for(r"failure 1 of (\d+)\b(?!\+)", timeout=30)
        total = re.search(r"failure 1 of (\d+)", screen).group(1)
        term.send("s")
        term.wait_for(rf"1/{total} labelled", timeout=10)
        term.send("c")
        term.wait_for(rf"2/{total} labelled", timeout=10)
        term.send("q")
        assert term.exit_status() == 0
    first = export(folder)
    labels = tomllib.loads(first)["label"]
    assert sorted(lab["verdict"] for lab in labels) == ["capability", "specification"]
    assert len({(lab["session"], lab["run"], lab["check"]) for lab in labels}) == 2
    assert all(lab["reviewer"] == "alice" and lab["stale"] is False for lab in labels)
    assert export(folder) == first
    assert {p.parent.name for p in folder.glob("*/labels/*/*.toml")} == {"alice"}
    assert not list(folder.glob("*/labels/*.toml"))
    with Tmux(command, size=(200, 50), cwd=repo, env=ENV) as term:
        screen = term.wait_for(rf"failure 3 of {total}\b.*2/{total} labelled", timeout=30)
        assert "2/" in screen
        term.send("q")
        assert term.exit_status() == 0
