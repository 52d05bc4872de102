"""Statistics match a hand count on a small labelled folder, Wilson interval included."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from analysis_kit import label, stats_folder

from reviewer.analysis.stats.facts import collect
from reviewer.analysis.stats.intervals import Z95, wilson
from reviewer.analysis.stats.summary import compute_stats, render_stats
from reviewer.cli import main
from reviewer.model.label import Verdict
from reviewer.store.sessions.store import SessionStore

S, C = Verdict.SPECIFICATION, Verdict.CAPABILITY


def labelled_folder(root: Path) -> Path:
    """Six failures; alice decides five, bob agrees on one and defers another."""
    stats_folder(root)
    label(root, "alice", {
        "s1/r1#heldout:c1": S, "s1/r1#heldout:c2": S,  # r1: fully labelled, only specification
        "s1/r2#heldout:c1": C,                          # r2: fully labelled, capability
        "s1/r3#heldout:c1": S,                          # r3: c2 left unlabelled
        "s2/r4#heldout:TestToRoman": S,                 # r4: fully labelled, only specification
    })
    label(root, "bob", {"s1/r1#heldout:c1": S, "s1/r3#heldout:c2": Verdict.DEFERRED})
    return root


def stats_of(root: Path):
    store = SessionStore(root)
    store.scan()
    return compute_stats(collect(store))


def test_wilson_arithmetic() -> None:
    # 2 of 3: p = 2/3, z = 1.959963984540054, z^2 = 3.841458820694124
    z2 = Z95 * Z95
    n, p = 3, 2 / 3
    denom = 1 + z2 / n                                 # 2.280486273564708
    centre = (p + z2 / (2 * n)) / denom                # 0.5730857
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom  # 0.3654310
    low, high = wilson(2, 3)
    assert low == pytest.approx(centre - half) == pytest.approx(0.20765, abs=1e-5)
    assert high == pytest.approx(centre + half) == pytest.approx(0.93851, abs=1e-5)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_hand_count(tmp_path: Path) -> None:
    s = stats_of(labelled_folder(tmp_path / "sessions"))
    assert (s.total.failures, s.total.labelled, s.total.specification, s.total.capability) == (6, 5, 4, 1)
    tasks = {g.name: (g.failures, g.labelled, g.specification, g.capability) for g in s.tasks}
    assert tasks == {"connected": (5, 4, 3, 1), "roman": (1, 1, 1, 0)}
    models = {g.name: (g.failures, g.labelled, g.specification, g.capability) for g in s.models}
    assert models == {"model-a": (3, 3, 3, 0), "model-b": (1, 1, 0, 1), "model-c": (2, 1, 1, 0)}
    # failing runs fully labelled: r1 (spec only), r2 (capability), r4 (spec only); r3 is not
    r = s.verifier_fnr
    assert (r.runs, r.hits, r.value) == (3, 2, pytest.approx(2 / 3))
    assert (r.low, r.high) == (pytest.approx(0.20765, abs=1e-5), pytest.approx(0.93851, abs=1e-5))
    assert [(p.reviewer, p.labelled, p.deferred) for p in s.reviewers] == [("alice", 5, 0), ("bob", 1, 1)]


def test_json_output_of_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = labelled_folder(tmp_path / "sessions")
    assert main(["stats", str(root), "--json", "--final"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in doc["tasks"][0].items() if "pass" not in k and k not in ("checks", "unlabelled")} == {
        "task": "connected", "failures": 5, "labelled": 4, "specification": 3, "capability": 1,
        "specification_share": 0.75, "capability_share": 0.25,
    }
    assert [m["model"] for m in doc["models"]] == ["model-a", "model-b", "model-c"]
    fnr = doc["verifier_fnr"]
    assert (fnr["runs"], fnr["value"]) == (3, pytest.approx(2 / 3))
    assert (fnr["low"], fnr["high"]) == (pytest.approx(0.20765, abs=1e-5), pytest.approx(0.93851, abs=1e-5))
    assert doc["reviewers"] == [
        {"reviewer": "alice", "labelled": 5, "deferred": 0, "stale": 0},
        {"reviewer": "bob", "labelled": 1, "deferred": 1, "stale": 0},
    ]


def test_text_output_draws_bars(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = labelled_folder(tmp_path / "sessions")
    assert main(["stats", str(root), "--final"]) == 0
    out = capsys.readouterr().out
    assert "6 failures · 5 labelled (83%)" in out
    assert "2 of 3 fully labelled failing runs" in out and "21% to 94%" in out
    assert "█" in out and "●" in out
    assert "alice" in out and "5 labelled · 0 deferred" in out


def test_disagreement_counts_as_unlabelled_and_adjudication_settles_it(tmp_path: Path) -> None:
    root = stats_folder(tmp_path / "sessions")
    label(root, "alice", {"s2/r4#heldout:TestToRoman": S})
    label(root, "bob", {"s2/r4#heldout:TestToRoman": C})
    s = stats_of(root)
    assert (s.total.labelled, s.left_out) == (0, 1)
    (root / "s2" / "labels" / "_adjudicated.toml").write_text(
        'format = 1\nreviewer = "final"\n\n[[label]]\nrun = "r4"\ncheck = "heldout:TestToRoman"\nverdict = "capability"\n'
    )
    s = stats_of(root)
    assert (s.total.labelled, s.total.capability, s.left_out) == (1, 1, 0)


def test_stale_labels_count_as_unlabelled(tmp_path: Path) -> None:
    root = stats_folder(tmp_path / "sessions")
    label(root, "alice", {"s2/r4#heldout:TestToRoman": S, "s1/r2#heldout:c1": C})
    (root / "s2" / "runs" / "r4" / "brief.md").write_text("# Roman numerals\n\nNow also 0.\n")
    s = stats_of(root)
    assert (s.total.labelled, s.stale) == (1, 1)
    assert [(p.reviewer, p.labelled, p.stale) for p in s.reviewers] == [("alice", 1, 1)]
    assert "1 stale" in render_stats(s)


def test_an_empty_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "sessions"
    root.mkdir()
    assert main(["stats", str(root), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["verifier_fnr"] == {"runs": 0, "specification_only": 0, "value": None, "low": None, "high": None}
    assert doc["tasks"] == [] and doc["reviewers"] == []


def test_an_unreadable_label_file_is_reported_and_the_rest_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = stats_folder(tmp_path / "sessions")
    label(root, "alice", {"s2/r4#heldout:TestToRoman": S})
    (root / "s1" / "labels").mkdir()
    (root / "s1" / "labels" / "carol.toml").write_text("<<<<<<< HEAD\nformat = 1\n=======\n>>>>>>> x\n")
    assert main(["stats", str(root), "--json", "--final"]) == 1  # the figures are printed, and the damage is said
    captured = capsys.readouterr()
    assert json.loads(captured.out)["reviewers"] == [{"reviewer": "alice", "labelled": 1, "deferred": 0, "stale": 0}]
    assert "carol.toml" in captured.err and "conflict markers" in captured.err
