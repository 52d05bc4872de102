"""The evidence and the re-score on the held-out corpus (tests/holdout), as tests/holdout/figures.py
measures them: the corpus is imported with the documented options, observed in the sandbox, read
with ``reviewer show --json`` and re-scored with ``--all-proposed``. The bounds are the issue's:
every specification failure a notation repair explains pointed at and flipped, at most 1 in 10
capability failures hinted, none flipped, no passing check broken."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

HERE = Path(__file__).resolve().parent


def test_the_held_out_corpus_figures() -> None:
    from reviewer.rescore.sandbox import SandboxUnavailable, require_sandbox

    try:
        require_sandbox()
    except SandboxUnavailable as exc:
        pytest.fail(f"the figures need a working bubblewrap: {exc}")
    done = subprocess.run([sys.executable, str(HERE / "figures.py"), "--rescore", "--json"], capture_output=True,
                          text=True, timeout=3000)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    repairable = figures["rescore"]["repairable_specification"]
    # Every specification failure a notation repair explains is pointed at its cause (the two not
    # pointed at are ones no repair of notation explains: an input the brief excludes).
    assert figures["pointed_at_cause"] >= figures["specification"] - 2, figures["misses"]
    assert figures["capability_hinted_towards_specification"] * 10 <= figures["capability"], figures["misses"]
    assert figures["near_misses_found"] >= 38, figures["misses"]
    rescore = figures["rescore"]
    # The one repairable failure left is an Inspect run: its import records no [grader.rerun].
    assert rescore["repairable_flipped"] >= repairable - 1, rescore["not_flipped"]
    assert all(fid.startswith("inspect-") for fid in rescore["not_flipped"]), rescore["not_flipped"]
    assert rescore["capability_flipped"] == [] and rescore["broken_passing_checks"] == 0 and rescore["errors"] == []
