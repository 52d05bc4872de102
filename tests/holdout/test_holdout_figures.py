"""The evidence and the re-score on the corpora kept apart from the bundled one, as
tests/holdout/figures.py measures them: each corpus is imported with the documented options,
observed in the sandbox, read with ``reviewer show --json`` and re-scored with ``--all-proposed``.
The bounds are the issue's: every specification failure a notation repair explains pointed at
and flipped, at most 1 in 10 capability failures hinted, none flipped, no passing check broken."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

HERE = Path(__file__).resolve().parent


def figures(corpus: Path) -> dict[str, Any]:
    """``figures.py --rescore --json`` on a corpus."""
    from reviewer.rescore.sandbox import SandboxUnavailable, require_sandbox

    try:
        require_sandbox()
    except SandboxUnavailable as exc:
        pytest.fail(f"the figures need a working bubblewrap: {exc}")
    done = subprocess.run([sys.executable, str(HERE / "figures.py"), "--corpus", str(corpus), "--rescore", "--json"],
                          capture_output=True, text=True, timeout=3000)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_held_out_corpus_figures() -> None:
    found = figures(HERE)
    # The two specification failures not pointed at are ones no repair of notation explains (an input
    # the brief excludes).
    assert found["pointed_at_cause"] >= found["specification"] - 2, found["misses"]
    assert found["capability_hinted_towards_specification"] * 10 <= found["capability"], found["misses"]
    assert found["near_misses_found"] >= 38, found["misses"]
    rescore = found["rescore"]
    # The one repairable failure left is an Inspect run: its import records no [grader.rerun].
    assert rescore["repairable_flipped"] >= rescore["repairable_specification"] - 1, rescore["not_flipped"]
    assert all(fid.startswith("inspect-") for fid in rescore["not_flipped"]), rescore["not_flipped"]
    assert rescore["capability_flipped"] == [] and rescore["broken_passing_checks"] == 0 and rescore["errors"] == []


def test_the_second_outside_corpus_figures() -> None:
    """tests/validation (30 runs, by another helper): the same bounds, less what no repair syntax
    expresses: lcs--ibis-8b's lines printed in another order (5 failures, field order), and
    bigfib's parity, a key renamed and its vocabulary changed at once (2 failures)."""
    found = figures(HERE.parent / "validation")
    field_order = [m for m in found["misses"] if m.startswith("specification not pointed at") and "lcs--ibis-8b" in m]
    assert found["pointed_at_cause"] >= found["specification"] - len(field_order), found["misses"]
    assert len(field_order) <= 5
    assert found["capability_hinted_towards_specification"] * 10 <= found["capability"], found["misses"]
    rescore = found["rescore"]
    assert rescore["repairable_flipped"] >= rescore["repairable_specification"] - 2, rescore["not_flipped"]
    assert all("bigfib" in fid for fid in rescore["not_flipped"]), rescore["not_flipped"]
    assert rescore["capability_flipped"] == [] and rescore["broken_passing_checks"] == 0 and rescore["errors"] == []
