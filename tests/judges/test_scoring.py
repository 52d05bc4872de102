"""A judge scored against the humans: kappa, its interval, precision, recall and the direction of its
errors, held against a computation done by hand."""

from __future__ import annotations

import math

import pytest

from reviewer.analysis.stats.judged import Fresh, judge_kappa, render_judges, score, score_all
from reviewer.model.label import Verdict
from reviewer.model.prediction import Prediction

S, C = Verdict.SPECIFICATION, Verdict.CAPABILITY


def keyed(n: int, prefix: str) -> list[tuple[str, str, str]]:
    return [("s", f"{prefix}{i}", "g:k") for i in range(n)]


def table(ss: int, sc: int, cs: int, cc: int) -> tuple[dict, dict]:
    """Predictions and human verdicts making the confusion table (judge's verdict first)."""
    preds, truth = {}, {}
    for cell, n, judged, human in (("ss", ss, S, S), ("sc", sc, S, C), ("cs", cs, C, S), ("cc", cc, C, C)):
        for key in keyed(n, cell):
            preds[key] = Prediction(*key, judge="j", verdict=judged, confidence=0.7)
            truth[key] = human
    return preds, truth


def test_kappa_and_its_interval_equal_a_hand_computation() -> None:
    # By hand: n = 50; po = (20 + 15) / 50 = 0.7; the judge says specification 25/50 = 0.5, the humans
    # 30/50 = 0.6; pe = 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4.
    # SE = sqrt(0.7 * 0.3 / (50 * 0.5^2)) = sqrt(0.21 / 12.5) = sqrt(0.0168) = 0.12961481...;
    # 1.959964 * SE = 0.25403986...: the interval 0.14596 to 0.65404.
    preds, truth = table(20, 5, 10, 15)
    s = score("j", "ann", preds, truth)
    assert (s.n, s.ss, s.sc, s.cs, s.cc) == (50, 20, 5, 10, 15)
    assert s.percent == pytest.approx(70.0)
    assert s.kappa == pytest.approx(0.4)
    assert s.kappa_low == pytest.approx(0.4 - 0.2540399, abs=1e-6)
    assert s.kappa_high == pytest.approx(0.4 + 0.2540399, abs=1e-6)
    assert s.precision == pytest.approx(20 / 25) and s.recall == pytest.approx(20 / 30)
    assert (s.blames_task, s.blames_model, s.leans) == (5, 10, "the model")
    assert s.as_json()["kappa_interval"] == "cohen-1960-large-sample-se"


def test_which_way_it_errs() -> None:
    assert score("j", "a", *table(5, 7, 1, 5)).leans == "the task"
    assert score("j", "a", *table(5, 2, 2, 5)).leans == "neither"
    assert score("j", "a", *table(5, 0, 0, 5)).leans == ""


def test_kappa_is_undefined_when_both_sides_gave_one_verdict_only() -> None:
    """Everything specification on both sides: they agree, but there is nothing to tell apart."""
    percent, kappa, low, high = judge_kappa(12, 0, 0, 0)
    assert (percent, kappa, low, high) == (100.0, None, None, None)
    assert judge_kappa(0, 0, 0, 0) == (None, None, None, None)


def test_a_perfect_judge_has_kappa_one_and_a_point_interval() -> None:
    """The large-sample SE is 0 when every failure agrees: the interval is the point (documented)."""
    assert judge_kappa(10, 0, 0, 10)[1:] == (1.0, 1.0, 1.0)


def test_coverage_abstentions_and_stale_predictions_count_nowhere_in_kappa() -> None:
    preds, truth = table(3, 1, 1, 3)
    extra = keyed(4, "x")
    truth.update({k: S for k in extra})
    preds[extra[0]] = Prediction(*extra[0], judge="j", verdict=None)  # abstained
    # extra[1]: stale (set apart by fresh_predictions), extra[2], extra[3]: never predicted
    s = score("j", "ann", preds, truth, stale=frozenset({extra[1]}))
    assert (s.n, s.labelled, s.abstained, s.unpredicted, s.stale) == (8, 12, 1, 3, 1)
    assert s.recall == pytest.approx(3 / 4) and s.recall_all == pytest.approx(3 / 8)  # silence counts as a miss
    po, a, b = 6 / 8, 4 / 8, 4 / 8
    pe = a * b + (1 - a) * (1 - b)
    assert s.kappa == pytest.approx((po - pe) / (1 - pe))
    assert s.kappa_high == 1.0  # clipped
    assert s.kappa - s.kappa_low == pytest.approx(1.959963984540054 * math.sqrt(po * (1 - po) / (8 * (1 - pe) ** 2)))


def test_a_judge_that_predicted_nothing_of_a_set_is_not_listed() -> None:
    preds, truth = table(2, 0, 0, 2)
    fresh = Fresh({"j": preds, "other": {}}, {})
    scores = score_all(fresh, [("final", truth), ("bob", {("s", "elsewhere", "g:k"): S})])
    assert [(s.judge, s.against) for s in scores] == [("j", "final")]
    lines = render_judges(scores)
    assert "kappa" in lines[0] and lines[2].split()[:3] == ["j", "final", "4"]
