"""``reviewer rescore`` headless: refusals and their exit codes, --all-proposed with --json."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rescorekit import corpus_copy, sandbox_tool

from reviewer.commands.rescore import Bar

CONNECTED = "oracle-2026-10/connected--atlas-7b#oracle:oracle_connected.py::test_single_node"


def reviewer(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "reviewer.cli", *args], check=False, capture_output=True, text=True, timeout=600,
                          env=env)


def test_without_bubblewrap_nothing_runs(tmp_path: Path) -> None:
    corpus = corpus_copy(tmp_path)
    env = {**os.environ, "PATH": str(tmp_path / "empty-bin")}
    done = reviewer("rescore", str(corpus), "--failure", CONNECTED, "--repair", "map-value::true:yes", env=env)
    assert done.returncode == 3
    assert "bubblewrap" in done.stderr and "Nothing was run" in done.stderr
    assert done.stdout == ""
    assert not list(corpus.glob("*/rescores"))


@pytest.mark.parametrize("args, code, why", [
    (["--failure", CONNECTED, "--repair", "rename:a:b"], 2, "unknown repair kind"),
    ([], 2, "give --failure ID"),
    (["--all-proposed", "--repair", "rename-key:a:b"], 2, "--all-proposed alone"),
    (["--failure", "nope/none#g:k", "--repair", "rename-key:a:b"], 1, "no run nope/none"),
    (["--failure", "pounce-2026-11/roman-go--gale-13b#heldout:TestHeldOutZero"], 1, "proposes no repair"),
])
def test_refusals_have_their_exit_code(tmp_path: Path, args: list[str], code: int, why: str) -> None:
    sandbox_tool()
    done = reviewer("rescore", str(corpus_copy(tmp_path)), *args)
    assert done.returncode == code, done.stderr
    assert why in done.stderr


def test_help_documents_the_exit_codes() -> None:
    out = reviewer("rescore", "--help").stdout
    assert "3  no working bubblewrap sandbox here" in out and "KIND:ARGS" in out


def test_all_proposed_re_scores_what_the_evidence_proposes(tmp_path: Path) -> None:
    sandbox_tool()
    corpus = corpus_copy(tmp_path)
    done = reviewer("rescore", str(corpus), "--all-proposed", "--json", "--reviewer", "bo")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert rows, "the evidence proposes at least the vocabulary of connected--atlas-7b"
    for row in rows:
        assert {"failure", "repairs", "before", "after", "flipped", "checks", "record"} <= set(row)
        assert Path(row["record"]).is_file() and row["record"].endswith("/rescores/bo.toml")
        assert not [c for c in row["checks"] if c["recorded"] == "pass" and c["after"] != "pass"]
    connected = [r for r in rows if r["failure"].startswith("oracle-2026-10/connected--atlas-7b#")]
    assert len(connected) == 5 and all(r["flipped"] for r in connected)
    assert not [r for r in rows if r["flipped"] and "breeze-large" in r["failure"] and "connected" in r["failure"]]


def test_the_progress_bar_draws_only_on_a_terminal() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty, pipe = Tty(), io.StringIO()
    for stream in (tty, pipe):
        bar = Bar(4, stream)
        bar.step()
        bar.step(3)
        bar.close()
    assert "4/4 gradings re-scored" in tty.getvalue() and "\r" in tty.getvalue()
    assert pipe.getvalue() == ""
