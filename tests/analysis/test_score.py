"""Scoring a predictor against the labels, beside the flag-everything baseline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from analysis_kit import label

from reviewer.analysis.stats.facts import collect
from reviewer.analysis.stats.score import BadPredictions, parse_predictions, render_score, score_predictions
from reviewer.cli import main
from reviewer.model.label import Verdict
from reviewer.store.sessions.store import SessionStore

SPEC = "s2/r3#heldout:test_connected"  # the folder fixture's connected=yes failure
CAP = "s2/r3#heldout:test_trail"
PREDICT_SPEC = '[[prediction]]\nsession = "s2"\nrun = "r3"\ncheck = "heldout:test_connected"\nflagged = true\n'


def score_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["score", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_issue_example(folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    label(folder, "alice", {SPEC: Verdict.SPECIFICATION, CAP: Verdict.CAPABILITY})
    predictions = tmp_path / "predictions.toml"
    predictions.write_text(PREDICT_SPEC)
    doc = score_json(capsys, str(predictions), str(folder))
    assert (doc["precision"], doc["recall"], doc["f1"]) == (1.0, 1.0, 1.0)
    assert (doc["tp"], doc["fp"], doc["fn"], doc["tn"]) == (1, 0, 0, 1)
    assert doc["baseline_precision"] == 0.5 and doc["baseline_recall"] == 1.0
    assert doc["baseline_f1"] == pytest.approx(2 * 0.5 * 1.0 / 1.5)
    assert doc["left_out"] == 0
    predictions.write_text(PREDICT_SPEC + '\n[[prediction]]\nfailure = "s2/r3#heldout:test_trail"\nflagged = false\n')
    again = score_json(capsys, str(predictions), str(folder))
    assert {k: again[k] for k in ("precision", "recall", "tp", "tn", "baseline_precision")} == {
        "precision": 1.0, "recall": 1.0, "tp": 1, "tn": 1, "baseline_precision": 0.5}


def test_disagreeing_reviewers_leave_a_failure_out(folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    label(folder, "alice", {SPEC: Verdict.SPECIFICATION, CAP: Verdict.CAPABILITY})
    label(folder, "bob", {SPEC: Verdict.CAPABILITY, CAP: Verdict.CAPABILITY})
    predictions = tmp_path / "p.toml"
    predictions.write_text(PREDICT_SPEC)
    doc = score_json(capsys, str(predictions), str(folder))
    assert doc["left_out"] == 1
    assert (doc["tp"], doc["fp"], doc["fn"], doc["tn"]) == (0, 0, 0, 1)  # only the agreed failure counts
    assert doc["precision"] is None and doc["baseline_precision"] == 0.0


def test_mistakes_are_listed_and_unknown_predictions_counted(folder: Path) -> None:
    label(folder, "alice", {SPEC: Verdict.SPECIFICATION, CAP: Verdict.CAPABILITY, "s1/r1#heldout:TestToRoman": Verdict.SPECIFICATION})
    predictions = parse_predictions(
        b'[[prediction]]\nsession = "s2"\nrun = "r3"\ncheck = "heldout:test_trail"\nflagged = true\n'
        b'[[prediction]]\nsession = "s9"\nrun = "nope"\ncheck = "g:k"\nflagged = true\n'
    )
    store = SessionStore(folder)
    store.scan()
    s = score_predictions(predictions, collect(store))
    assert (s.tp, s.fp, s.fn, s.tn) == (0, 1, 2, 0)
    assert s.false_positives == (CAP,)
    assert set(s.false_negatives) == {SPEC, "s1/r1#heldout:TestToRoman"}
    assert (s.unknown, s.unpredicted) == (1, 2)
    assert s.baseline_precision == pytest.approx(2 / 3)
    text = render_score(s)
    assert "flag every failure" in text and "false positives (1):" in text and CAP in text


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"[[prediction]\nsession = ", "not valid TOML"),
        (b'title = "x"\n', "no [[prediction]] tables"),
        (b'[[prediction]]\nsession = "s2"\nrun = "r3"\nflagged = true\n', "prediction 1 lacks `check`"),
        (b'[[prediction]]\nsession = "s2"\nrun = "r3"\ncheck = "g:k"\nflagged = "yes"\n', "`flagged` must be true or false"),
        (b'[[prediction]]\nfailure = "s/r#g:k"\nflagged = true\n[[prediction]]\nfailure = "s/r#g:k"\nflagged = false\n', "contradicts"),
        (b"\x00\x01", "NUL"),
    ],
)
def test_invalid_predictions_fail_with_one_line(content: bytes, reason: str, folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BadPredictions, match=reason.replace("[", r"\[")):
        parse_predictions(content)
    predictions = tmp_path / "p.toml"
    predictions.write_bytes(content)
    assert main(["score", str(predictions), str(folder)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and reason in err and "Traceback" not in err


def test_a_missing_predictions_file(folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(tmp_path / "none.toml"), str(folder)]) == 1
    assert "not a regular file" in capsys.readouterr().err
