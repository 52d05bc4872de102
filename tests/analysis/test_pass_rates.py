"""Pass rates as graded and corrected match a hand count; blind mode shows only your own labels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from analysis_kit import label
from sessionkit import RunSpec, write_session

from reviewer.analysis.stats.facts import collect
from reviewer.analysis.stats.intervals import wilson
from reviewer.analysis.stats.passrates import pass_rates, percent1
from reviewer.analysis.stats.summary import compute_stats
from reviewer.cli import main
from reviewer.model.label import Verdict
from reviewer.store.sessions.store import SessionStore

S, C = Verdict.SPECIFICATION, Verdict.CAPABILITY


def checks(**status: str) -> list[dict[str, str]]:
    """Recorded checks by key: ``p1="pass", f1="fail"``."""
    return [{"key": k, "status": v, "message": "" if v == "pass" else "boom"} for k, v in status.items()]


def folder(root: Path) -> Path:
    """Two models on two tasks; model-a fails more as graded, less once corrected."""
    write_session(root, "s1", [
        RunSpec("a1", task="t1", model="model-a", checks=checks(p1="pass", p2="pass", f1="fail", f2="fail", sk="skip")),
        RunSpec("b1", task="t1", model="model-b", checks=checks(p1="pass", p2="pass", p3="pass", f1="fail")),
        RunSpec("a2", task="t2", model="model-a", checks=checks(p1="pass", f1="error")),
        RunSpec("b2", task="t2", model="model-b", outcome="pass", checks=checks(p1="pass", p2="pass")),
    ])
    label(root, "alice", {"s1/a1#heldout:f1": S, "s1/a1#heldout:f2": S, "s1/a2#heldout:f1": S})
    return root


def rates_of(root: Path, only: str | None = None, repaired=None):
    store = SessionStore(root)
    store.scan()
    return pass_rates(collect(store, only=only, count_passes=True), repaired)


def test_hand_count(tmp_path: Path) -> None:
    pr = rates_of(folder(tmp_path / "sessions"))
    by = {r.name: r for r in pr.models}
    a, b = by["model-a"], by["model-b"]
    # model-a: a1 ran 4 (the skip left out), 2 passed; a2 ran 2, 1 passed; 3 failures all specification
    assert (a.checks, a.passed, a.specification, a.capability, a.unlabelled) == (6, 3, 3, 0, 0)
    assert (b.checks, b.passed, b.specification, b.unlabelled) == (6, 5, 0, 1)
    assert a.graded.value == pytest.approx(0.5) and a.corrected.value == pytest.approx(1.0)
    assert b.graded.value == pytest.approx(5 / 6) and b.corrected.value == pytest.approx(5 / 6)
    assert (a.graded.low, a.graded.high) == wilson(3, 6) and (a.corrected.low, a.corrected.high) == wilson(6, 6)
    tasks = {r.name: (r.checks, r.passed, r.corrected.hits) for r in pr.tasks}
    assert tasks == {"t1": (8, 5, 7), "t2": (4, 3, 4)}
    pairs = {(r.model, r.task): (r.checks, r.passed, r.corrected.hits, r.unlabelled) for r in pr.model_tasks}
    assert pairs == {("model-a", "t1"): (4, 2, 4, 0), ("model-a", "t2"): (2, 1, 2, 0),
                     ("model-b", "t1"): (4, 3, 3, 1), ("model-b", "t2"): (2, 2, 2, 0)}
    assert (pr.overall.checks, pr.overall.passed, pr.overall.corrected.hits, pr.overall.unlabelled) == (12, 8, 11, 1)
    assert [(p.model, p.graded, p.corrected, p.change) for p in pr.ranking] == [("model-a", 2, 1, 1), ("model-b", 1, 2, -1)]
    assert pr.overall.rescored is None and not pr.rescored


def test_repaired_checks_are_a_third_figure_and_never_counted_twice(tmp_path: Path) -> None:
    root = folder(tmp_path / "sessions")
    pr = rates_of(root, repaired={("s1", "b1", "heldout:f1"), ("s1", "a1", "heldout:f1")})
    by = {r.name: r for r in pr.models}
    assert by["model-b"].repaired == 1 and by["model-b"].rescored.value == pytest.approx(1.0)
    assert by["model-a"].repaired == 0 and by["model-a"].rescored.hits == 6  # a1 f1 is already specification
    assert pr.rescored


def test_ties_share_a_place(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    write_session(root, "s1", [
        RunSpec("x", model="m-x", checks=checks(p="pass", f="fail")),
        RunSpec("y", model="m-y", checks=checks(p="pass", f="fail")),
        RunSpec("z", model="m-z", checks=checks(p="pass", q="pass")),
    ])
    pr = rates_of(root)
    assert {p.model: p.graded for p in pr.ranking} == {"m-z": 1, "m-x": 2, "m-y": 2}


def test_percentages_keep_one_decimal_only_when_needed() -> None:
    assert [percent1(x) for x in (0.62, 0.625, 5 / 6, 1.0, 0.0, None)] == ["62%", "62.5%", "83.3%", "100%", "0%", "—"]


def with_bob(root: Path) -> Path:
    label(root, "bob", {"s1/a1#heldout:f1": C, "s1/b1#heldout:f1": S})
    return root


def settings(tmp_path: Path, text: str) -> None:
    cfg = tmp_path / "xdg-config" / "reviewer"
    cfg.mkdir(parents=True, exist_ok=True)
    (cfg / "config.toml").write_text(text)


def stats_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[dict, str]:
    assert main(["stats", *argv]) == 0
    out = capsys.readouterr().out
    return (json.loads(out) if "--json" in argv else {}), out


def test_blind_mode_counts_only_your_own_labels_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = with_bob(folder(tmp_path / "sessions"))
    settings(tmp_path, 'reviewer = "alice"\n')
    doc, out = stats_json(capsys, str(root), "--json")
    assert doc["scope"] == {"verdicts": "reviewer", "reviewer": "alice", "blind": True}
    assert "bob" not in out
    assert [r["reviewer"] for r in doc["reviewers"]] == ["alice"]
    models = {m["model"]: m for m in doc["models"]}
    assert (models["model-a"]["specification"], models["model-b"]["specification"]) == (3, 0)
    assert models["model-b"]["corrected_pass_rate"] == pytest.approx(5 / 6) and doc["left_out"] == 0
    _, text = stats_json(capsys, str(root))
    assert "your own labels only (alice)" in text and "--final" in text and "bob" not in text


def test_final_shows_everyone_and_leaves_disputes_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = with_bob(folder(tmp_path / "sessions"))
    settings(tmp_path, 'reviewer = "alice"\n')
    doc, _ = stats_json(capsys, str(root), "--json", "--final")
    assert doc["scope"] == {"verdicts": "final", "reviewer": None, "blind": False}
    assert [r["reviewer"] for r in doc["reviewers"]] == ["alice", "bob"]
    models = {m["model"]: m for m in doc["models"]}
    # a1 f1: alice specification, bob capability -> left out; b1 f1: only bob, specification
    assert (models["model-a"]["corrected_passed"], models["model-a"]["unlabelled"]) == (5, 1)
    assert models["model-b"]["corrected_pass_rate"] == pytest.approx(1.0) and doc["left_out"] == 1
    low, high = wilson(5, 6)
    assert (models["model-a"]["corrected_pass_rate_low"], models["model-a"]["corrected_pass_rate_high"]) == (
        pytest.approx(low), pytest.approx(high))


def test_blind_off_uses_final_verdicts_and_reviewer_picks_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = with_bob(folder(tmp_path / "sessions"))
    settings(tmp_path, 'reviewer = "alice"\nblind = false\n')
    doc, _ = stats_json(capsys, str(root), "--json")
    assert doc["scope"]["verdicts"] == "final" and doc["left_out"] == 1
    doc, out = stats_json(capsys, str(root), "--json", "--reviewer", "bob")
    assert doc["scope"] == {"verdicts": "reviewer", "reviewer": "bob", "blind": False}
    assert [r["reviewer"] for r in doc["reviewers"]] == ["bob"] and "alice" not in out
    assert {m["model"]: m["specification"] for m in doc["models"]} == {"model-a": 0, "model-b": 1}


def test_json_has_every_figure_as_fractions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = folder(tmp_path / "sessions")
    doc, _ = stats_json(capsys, str(root), "--json", "--final")
    a = next(m for m in doc["models"] if m["model"] == "model-a")
    assert {k: a[k] for k in ("checks", "passed", "pass_rate", "corrected_passed", "corrected_pass_rate", "unlabelled")} == {
        "checks": 6, "passed": 3, "pass_rate": 0.5, "corrected_passed": 6, "corrected_pass_rate": 1.0, "unlabelled": 0}
    assert (a["pass_rate_low"], a["pass_rate_high"]) == (pytest.approx(wilson(3, 6)[0]), pytest.approx(wilson(3, 6)[1]))
    t2 = next(t for t in doc["tasks"] if t["task"] == "t2")
    assert (t2["pass_rate"], t2["corrected_pass_rate"]) == (0.75, 1.0)
    assert len(doc["model_tasks"]) == 4 and doc["overall"]["checks"] == 12
    assert doc["ranking"] == [
        {"model": "model-a", "graded_place": 2, "corrected_place": 1, "change": 1},
        {"model": "model-b", "graded_place": 1, "corrected_place": 2, "change": -1},
    ]
    for entry in doc["models"] + doc["tasks"] + doc["model_tasks"]:
        for k, v in entry.items():
            if "pass_rate" in k:
                assert 0.0 <= v <= 1.0, (k, v)


def test_text_shows_rates_and_places(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = folder(tmp_path / "sessions")
    _, out = stats_json(capsys, str(root), "--final")
    assert "graded 66.7% (39.1%-86.2%) · corrected 91.7% (64.6%-98.5%)" in out
    row = next(line for line in out.splitlines() if line.startswith("model-a ") and "→" in line)
    assert "50% (18.8%-81.2%)" in row and "100% (61%-100%)" in row and "2 → 1 ▲1" in row
    assert "1 failure still unlabelled" in out and "2 models change place" in out


def test_compute_stats_without_counted_passes_has_no_pass_rates(tmp_path: Path) -> None:
    store = SessionStore(folder(tmp_path / "sessions"))
    store.scan()
    assert compute_stats(collect(store)).pass_rates is None
    with pytest.raises(ValueError):
        pass_rates(collect(store))
