"""Scoring a predictor of specification defects against the labels, beside flag-everything.

Predictions are a TOML file of ``[[prediction]]`` tables with ``session``, ``run``, ``check``
(``<grader>:<key>``) and ``flagged`` (true: "this failure is a specification defect"); a table
may name the failure by ``failure = "SESSION/RUN#GRADER:KEY"`` instead. The ground truth is the
final verdict of each failure (adjudicated, else unanimous; stale and deferred labels are not
verdicts). Failures whose reviewers disagree without adjudication are left out and counted.

A labelled failure without a prediction counts as not flagged (``unpredicted`` says how many).
The baseline flags every labelled failure: its precision is the share of specification, its
recall 1. A predictor that cannot beat it separates nothing. A ratio with a zero denominator
is None (``null`` in JSON).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reviewer.analysis.stats.facts import Facts, FailureKey
from reviewer.model.check import split_failure_id
from reviewer.model.label import Verdict
from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.model.wording import plural
from reviewer.store.fs.tomlfile import BadToml, parse_toml_bytes

MAX_PREDICTIONS_FILE = 64 << 20


class BadPredictions(Exception):
    """The predictions file cannot be read or is not valid; the message is one line."""


@record
class Prediction:
    """A predictor's call on one failure."""

    session: str
    run: str
    check: str
    flagged: bool

    @property
    def key(self) -> FailureKey:
        """(session, run, check id)."""
        return (self.session, self.run, self.check)


def prediction_from(t: Any, n: int) -> Prediction:
    """One ``[[prediction]]`` table; BadPredictions naming its position when it is not one."""
    if not isinstance(t, dict):
        raise BadPredictions(f"prediction {n} is not a table")
    if isinstance(t.get("failure"), str):
        try:
            session, run, check = split_failure_id(t["failure"])
        except ValueError as exc:
            raise BadPredictions(f"prediction {n}: {exc}") from None
    else:
        named = {name: t.get(name) for name in ("session", "run", "check")}
        for name, value in named.items():
            if not isinstance(value, str) or not value:
                raise BadPredictions(f"prediction {n} lacks `{name}` (a non-empty string)")
        session, run, check = str(named["session"]), str(named["run"]), str(named["check"])
    flagged = t.get("flagged")
    if not isinstance(flagged, bool):
        raise BadPredictions(f"prediction {n}: `flagged` must be true or false")
    return Prediction(session, run, check, flagged)


def parse_predictions(data: bytes) -> list[Prediction]:
    """Predictions from TOML bytes; BadPredictions (one line) when invalid or contradictory."""
    try:
        doc = parse_toml_bytes(data)
    except BadToml as exc:
        first = str(exc).splitlines()[0] if str(exc) else "cannot be read"
        raise BadPredictions(f"the file {first}") from None
    entries = doc.get("prediction")
    if not isinstance(entries, list):
        raise BadPredictions("no [[prediction]] tables")
    out: dict[FailureKey, Prediction] = {}
    for n, t in enumerate(entries, start=1):
        p = prediction_from(t, n)
        old = out.get(p.key)
        if old is not None and old.flagged != p.flagged:
            raise BadPredictions(f"prediction {n} contradicts an earlier one for {p.session}/{p.run}#{p.check}")
        out[p.key] = p
    return list(out.values())


def read_predictions(path: Path) -> list[Prediction]:
    """Read a predictions file (a regular file, size-capped); BadPredictions when unusable."""
    try:
        if not path.is_file():
            raise BadPredictions(f"{path}: not a regular file")
        with open(path, "rb") as fh:
            data = fh.read(MAX_PREDICTIONS_FILE + 1)
    except OSError as exc:
        raise BadPredictions(f"{path}: {exc.strerror or exc}") from None
    if len(data) > MAX_PREDICTIONS_FILE:
        raise BadPredictions(f"{path}: larger than {MAX_PREDICTIONS_FILE >> 20} MiB")
    try:
        return parse_predictions(data)
    except BadPredictions as exc:
        raise BadPredictions(f"{path}: {exc}") from None


@record
class Score:
    """Precision, recall and F1 of a predictor and of the flag-everything baseline.

    Attributes:
        tp, fp, fn, tn: over labelled failures (positive = specification).
        precision, recall, f1: the predictor's; None when undefined.
        baseline_precision, baseline_recall, baseline_f1: flagging every labelled failure.
        left_out: failures whose reviewers disagree without adjudication.
        unknown: predictions naming no failure of the folder.
        unlabelled: predictions on failures without a final verdict (not disputed).
        unpredicted: labelled failures without a prediction (counted as not flagged).
        false_positives, false_negatives: failure ids.
    """

    tp: int
    fp: int
    fn: int
    tn: int
    precision: float | None
    recall: float | None
    f1: float | None
    baseline_precision: float | None
    baseline_recall: float | None
    baseline_f1: float | None
    left_out: int
    unknown: int = 0
    unlabelled: int = 0
    unpredicted: int = 0
    false_positives: tuple[str, ...] = ()
    false_negatives: tuple[str, ...] = ()


def ratio(a: int, b: int) -> float | None:
    """a / b, None when b is 0."""
    return a / b if b else None


def f1(p: float | None, r: float | None) -> float | None:
    """Harmonic mean of precision and recall (None when either is undefined; 0 when both 0)."""
    if p is None or r is None:
        return None
    return 2 * p * r / (p + r) if p + r else 0.0


def score_predictions(predictions: list[Prediction], facts: Facts) -> Score:
    """Score predictions against the final verdicts of the folder's failures."""
    by_key = facts.by_key()
    flagged = {p.key: p.flagged for p in predictions}
    unknown = sum(1 for p in predictions if p.key not in by_key)
    unlabelled = sum(1 for p in predictions if p.key in by_key and by_key[p.key].verdict is None and not by_key[p.key].disputed)
    tp = fp = fn = tn = unpredicted = 0
    fps, fns = [], []
    for f in facts.failures:
        if f.verdict is None:
            continue
        positive = f.verdict is Verdict.SPECIFICATION
        if f.key not in flagged:
            unpredicted += 1
        said = flagged.get(f.key, False)
        if said and positive:
            tp += 1
        elif said:
            fp += 1
            fps.append(f.id)
        elif positive:
            fn += 1
            fns.append(f.id)
        else:
            tn += 1
    precision, recall = ratio(tp, tp + fp), ratio(tp, tp + fn)
    positives, labelled = tp + fn, tp + fp + fn + tn
    b_precision, b_recall = ratio(positives, labelled), ratio(positives, positives)
    return Score(
        tp, fp, fn, tn, precision, recall, f1(precision, recall),
        b_precision, b_recall, f1(b_precision, b_recall),
        facts.left_out, unknown, unlabelled, unpredicted, tuple(fps), tuple(fns),
    )


def score_json(s: Score) -> dict[str, Any]:
    """The document ``reviewer score --json`` prints."""
    return {
        "precision": s.precision, "recall": s.recall, "f1": s.f1,
        "tp": s.tp, "fp": s.fp, "fn": s.fn, "tn": s.tn,
        "baseline_precision": s.baseline_precision, "baseline_recall": s.baseline_recall, "baseline_f1": s.baseline_f1,
        "left_out": s.left_out, "unknown": s.unknown, "unlabelled": s.unlabelled, "unpredicted": s.unpredicted,
        "false_positives": list(s.false_positives), "false_negatives": list(s.false_negatives),
    }


def fmt(x: float | None) -> str:
    """A ratio to three places, or ``—``."""
    return "—" if x is None else f"{x:.3f}"


def render_score(s: Score) -> str:
    """The score as plain text: the predictor beside the baseline, then the mistakes."""
    labelled = s.tp + s.fp + s.fn + s.tn
    lines = [
        f"{labelled} labelled {plural('failure', labelled)} ({s.tp + s.fn} specification, {s.fp + s.tn} capability)",
        "",
        f"{'':<22}{'precision':>10}{'recall':>10}{'F1':>10}",
        f"{'predictor':<22}{fmt(s.precision):>10}{fmt(s.recall):>10}{fmt(s.f1):>10}",
        f"{'flag every failure':<22}{fmt(s.baseline_precision):>10}{fmt(s.baseline_recall):>10}{fmt(s.baseline_f1):>10}",
        "",
        f"tp {s.tp} · fp {s.fp} · fn {s.fn} · tn {s.tn}",
    ]
    if s.precision is not None and s.baseline_precision is not None:
        diff = round((s.precision - s.baseline_precision) * 100)
        lines.append(f"precision {'+' if diff >= 0 else ''}{diff} points against flag-everything")
    notes = [
        (s.left_out, "left out: reviewers disagree, not adjudicated"),
        (s.unknown, "predictions name no failure in this folder"),
        (s.unlabelled, "predictions on failures without a final verdict"),
        (s.unpredicted, "labelled failures without a prediction (counted as not flagged)"),
    ]
    lines += [f"{n} {text}" for n, text in notes if n]
    for title, ids in (("false positives", s.false_positives), ("false negatives", s.false_negatives)):
        if ids:
            lines.append("")
            lines.append(f"{title} ({len(ids)}):")
            lines += [f"  {plain(i)}" for i in ids]
    return "\n".join(lines) + "\n"
