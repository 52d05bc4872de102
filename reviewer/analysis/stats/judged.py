"""Judges scored against the humans: agreement with an interval, and which way a judge errs.

For each judge and each set of human verdicts it is held against (a reviewer's labels, or the
final verdicts: adjudicated, else unanimous), over the failures both decided:

- the confusion table, the judge's verdict first, the humans' second (``s`` specification, ``c``
  capability): ``ss``, ``sc``, ``cs``, ``cc``;
- percent agreement and Cohen's kappa, ``(po - pe) / (1 - pe)``, with a 95% interval from Cohen's
  (1960) large-sample standard error ``sqrt(po (1 - po) / (n (1 - pe)^2))`` (the interval the
  reviewer pairs get: :func:`reviewer.analysis.stats.intervals.kappa_interval`; analytic, not a
  bootstrap, so the same labels always give the same interval; too narrow below a few dozen
  failures). Kappa is undefined (None) when chance agreement is 1: judge and humans gave one and
  the same verdict to every failure, so there is nothing to tell apart;
- precision and recall of the judge's ``specification``: ``ss / (ss + sc)`` and ``ss / (ss + cs)``, and
  ``recall_all``, ``ss`` over every failure the humans called specification (where the judge
  abstained or said nothing counting as a miss: the recall of a judge that speaks only sometimes);
- which way it errs: ``sc`` failures where it blames the task (says specification, the humans
  capability) and ``cs`` where it blames the model (says capability, the humans specification).
  It *leans* towards the side with more errors.

Coverage: of the failures the humans decided, how many the judge abstained on and how many it has
no usable prediction for (none, or *stale*: made before the failure's brief, check, code or output
changed, and counted nowhere). A judge is scored only where it said something.

Which human verdicts: against a reviewer, their decided labels as labelled (as ``reviewer
agreement`` counts the pairs); against ``final``, the final verdicts that are not stale (as
``reviewer stats --final`` counts them). In blind mode only the reviewer's own labels are used, and
a judge that predicted none of the failures they decided is not listed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from reviewer.analysis.stats.facts import Facts, FailureKey
from reviewer.analysis.stats.intervals import kappa_interval
from reviewer.model.label import Verdict
from reviewer.model.prediction import Prediction
from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.store.labels.agreement import agreement
from reviewer.store.predictions import PredictionSet
from reviewer.store.sessions.fingerprint import evidence_hash
from reviewer.store.sessions.protocol import Store

SPEC, CAP = Verdict.SPECIFICATION, Verdict.CAPABILITY
FINAL = "final"
INTERVAL = "cohen-1960-large-sample-se"
"""How the kappa interval is made (``kappa_interval`` in the JSON): 95%, analytic."""
INTERVAL_WORDS = "95% interval from Cohen's large-sample standard error (analytic; too narrow below a few dozen failures)"


@record
class JudgeScore:
    """One judge held against one set of human verdicts.

    Attributes:
        judge: the judge's name.
        against: the reviewer whose labels it is held against, or ``final``.
        n: failures both decided (the judge's verdict and the humans').
        ss, sc, cs, cc: the confusion table, the judge's verdict first.
        percent: 100 * agreements / n (None when n is 0).
        kappa: Cohen's kappa (None when n is 0 or chance agreement is 1).
        kappa_low, kappa_high: its 95% interval (None when kappa is).
        precision, recall: of the judge's specification (None when undefined).
        recall_all: ``ss`` over every failure the humans called specification (None when none).
        labelled: failures the humans decided.
        abstained: of those, failures the judge abstained on.
        unpredicted: of those, failures without a usable prediction (none, or stale).
        stale: of those, failures whose prediction is stale.
    """

    judge: str
    against: str
    n: int
    ss: int
    sc: int
    cs: int
    cc: int
    percent: float | None
    kappa: float | None
    kappa_low: float | None
    kappa_high: float | None
    precision: float | None
    recall: float | None
    recall_all: float | None = None
    labelled: int = 0
    abstained: int = 0
    unpredicted: int = 0
    stale: int = 0

    @property
    def blames_task(self) -> int:
        """Failures where the judge said specification and the humans capability."""
        return self.sc

    @property
    def blames_model(self) -> int:
        """Failures where the judge said capability and the humans specification."""
        return self.cs

    @property
    def leans(self) -> str:
        """``the task``, ``the model``, ``neither`` (as many errors each way), "" (no error)."""
        if not self.sc and not self.cs:
            return ""
        if self.sc == self.cs:
            return "neither"
        return "the task" if self.sc > self.cs else "the model"

    @property
    def confusion(self) -> dict[str, int]:
        """The 2x2 table keyed ``<judge's verdict>/<humans' verdict>``."""
        return {"specification/specification": self.ss, "specification/capability": self.sc,
                "capability/specification": self.cs, "capability/capability": self.cc}

    def as_json(self) -> dict[str, Any]:
        """The JSON object ``agreement --json`` and ``stats --json`` print under ``judges``."""
        return {
            "judge": self.judge, "against": self.against, "n": self.n, "percent": self.percent,
            "kappa": self.kappa, "kappa_low": self.kappa_low, "kappa_high": self.kappa_high, "kappa_interval": INTERVAL,
            "precision": self.precision, "recall": self.recall, "recall_all": self.recall_all, "confusion": self.confusion,
            "blames_task": self.blames_task, "blames_model": self.blames_model, "leans": self.leans or None,
            "labelled": self.labelled, "abstained": self.abstained, "unpredicted": self.unpredicted, "stale": self.stale,
        }


def ratio(a: int, b: int) -> float | None:
    """a / b, None when b is 0."""
    return a / b if b else None


def judge_kappa(ss: int, sc: int, cs: int, cc: int) -> tuple[float | None, float | None, float | None, float | None]:
    """(percent, kappa, low, high) of a judge's confusion table (see the module for when they are None)."""
    percent, kappa = agreement(ss, sc, cs, cc)
    interval = kappa_interval(ss, sc, cs, cc)
    if interval is None:
        return percent, None, None, None
    return percent, kappa, interval[0], interval[1]


def score(judge: str, against: str, predictions: Mapping[FailureKey, Prediction], truth: Mapping[FailureKey, Verdict],
          stale: frozenset[FailureKey] = frozenset()) -> JudgeScore:
    """One judge's predictions held against one set of human verdicts (stale ones already left out
    of ``predictions``, named in ``stale``)."""
    cells = {(SPEC, SPEC): 0, (SPEC, CAP): 0, (CAP, SPEC): 0, (CAP, CAP): 0}
    abstained = unpredicted = stale_here = 0
    for key, human in truth.items():
        p = predictions.get(key)
        if p is None:
            unpredicted += 1
            stale_here += key in stale
        elif p.verdict is None:
            abstained += 1
        else:
            cells[(p.verdict, human)] += 1
    ss, sc, cs, cc = cells[(SPEC, SPEC)], cells[(SPEC, CAP)], cells[(CAP, SPEC)], cells[(CAP, CAP)]
    percent, kappa, low, high = judge_kappa(ss, sc, cs, cc)
    specification = sum(1 for human in truth.values() if human is SPEC)
    return JudgeScore(judge, against, ss + sc + cs + cc, ss, sc, cs, cc, percent, kappa, low, high,
                      ratio(ss, ss + sc), ratio(ss, ss + cs), ratio(ss, specification), len(truth), abstained, unpredicted,
                      stale_here)


@record
class Fresh:
    """Each judge's predictions on the folder's current failures that still hold, and the stale ones."""

    predictions: dict[str, dict[FailureKey, Prediction]]
    stale: dict[str, frozenset[FailureKey]]


def fresh_predictions(store: Store, found: PredictionSet) -> Fresh:
    """Leave out predictions on failures gone from the folder, and set apart those made before the
    failure changed (a prediction without an evidence hash is taken as it is)."""
    current: dict[FailureKey, Any] = {}
    hashes: dict[FailureKey, str] = {}
    runs: dict[str, Any] = {}
    fresh: dict[str, dict[FailureKey, Prediction]] = {}
    stale: dict[str, frozenset[FailureKey]] = {}
    for judge, preds in found.by_judge.items():
        kept: dict[FailureKey, Prediction] = {}
        old: set[FailureKey] = set()
        for key, p in preds.items():
            run_key = f"{key[0]}/{key[1]}"
            if run_key not in runs:
                run = store.run(run_key)
                runs[run_key] = run
                if run is not None:
                    for f in store.failures(run):
                        current[(run.session, run.id, f.check_id)] = (run, f)
            hit = current.get(key)
            if hit is None:
                continue
            if p.evidence:
                if key not in hashes:
                    hashes[key] = evidence_hash(store, *hit)
                if hashes[key] != p.evidence:
                    old.add(key)
                    continue
            kept[key] = p
        fresh[judge], stale[judge] = kept, frozenset(old)
    return Fresh(fresh, stale)


def facts_truth(facts: Facts) -> dict[FailureKey, Verdict]:
    """The verdicts statistics use (final, or one reviewer's own), fresh labels only."""
    return {f.key: f.verdict for f in facts.failures if f.verdict is not None}


def score_all(fresh: Fresh, truths: Iterable[tuple[str, Mapping[FailureKey, Verdict]]]) -> tuple[JudgeScore, ...]:
    """Every judge against every set of verdicts (in the order given), judges by name; a judge that
    predicted none of a set's failures is left out of that set."""
    out = []
    sets = list(truths)
    for judge in sorted(fresh.predictions):
        preds, stale = fresh.predictions[judge], fresh.stale.get(judge, frozenset())
        for against, truth in sets:
            if not any(k in preds or k in stale for k in truth):
                continue
            out.append(score(judge, against, preds, truth, stale))
    return tuple(out)


def reviewer_truths(by_failure: Mapping[FailureKey, Iterable[Any]], current: Iterable[FailureKey] | None = None,
                    ) -> list[tuple[str, dict[FailureKey, Verdict]]]:
    """Each reviewer's decided labels, by reviewer name (``by_failure``: a label set's labels per
    failure; ``current``: keep only these failures)."""
    keep = None if current is None else set(current)
    per: dict[str, dict[FailureKey, Verdict]] = {}
    for key, labs in by_failure.items():
        if keep is not None and key not in keep:
            continue
        for lab in labs:
            if lab.verdict.decided:
                per.setdefault(lab.reviewer, {})[key] = lab.verdict
    return sorted(per.items())


def fmt(x: float | None, digits: int = 3) -> str:
    """A figure to ``digits`` places, or ``—``."""
    return "—" if x is None else f"{x:.{digits}f}"


def kappa_text(s: JudgeScore) -> str:
    """``0.823 (0.690 to 0.956)``, or ``—``."""
    if s.kappa is None:
        return "—"
    return f"{s.kappa:.3f} ({fmt(s.kappa_low)} to {fmt(s.kappa_high)})"


def errs_text(s: JudgeScore) -> str:
    """``leans: blames the task (5 task / 1 model)``."""
    if not s.leans:
        return "no error"
    lean = "even" if s.leans == "neither" else f"blames {s.leans}"
    return f"{lean} ({s.sc} task / {s.cs} model)"


def render_judges(scores: tuple[JudgeScore, ...]) -> list[str]:
    """The judges' table as text lines (nothing when there is no judge)."""
    if not scores:
        return []
    rows = [("judge", "against", "n", "agree", "kappa (95% CI)", "spec prec", "spec rec / of all", "s/s", "s/c", "c/s",
             "c/c", "errs", "coverage")]
    for s in scores:
        cover = f"{s.n}/{s.labelled}" + (f", {s.abstained} abstained" if s.abstained else "") + \
            (f", {s.stale} stale" if s.stale else "")
        rows.append((plain(s.judge), plain(s.against), str(s.n), "—" if s.percent is None else f"{s.percent:.1f}%",
                     kappa_text(s), fmt(s.precision), f"{fmt(s.recall)} / {fmt(s.recall_all)}", str(s.ss), str(s.sc),
                     str(s.cs), str(s.cc),
                     errs_text(s), cover))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [f"judges against the humans (kappa: Cohen's, {INTERVAL_WORDS}; confusion: the judge's verdict first)"]
    for r in rows:
        lines.append("  " + "  ".join(c.ljust(w) if i < 2 or i >= 11 else c.rjust(w)
                                      for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    return lines


def judges_in_scope(store: Store, facts: Facts, reviewer: str | None) -> tuple[tuple[JudgeScore, ...], tuple[str, ...]]:
    """Every judge of the folder held against the verdicts of a scope, and the predictions files'
    problems: ``reviewer`` None, against the final verdicts and each reviewer's labels; else only
    against that reviewer's own (the facts' verdicts)."""
    from reviewer.store.predictions import read_predictions

    sessions = sorted(store.corpus.sessions)
    found = read_predictions(store.root, sessions)
    if not found.by_judge:
        return (), found.problems
    truths: list[tuple[str, Mapping[FailureKey, Verdict]]] = [(reviewer or FINAL, facts_truth(facts))]
    if reviewer is None:
        from reviewer.store.labels.agreement import read_label_set

        labels = read_label_set(store.root, sessions)
        truths += reviewer_truths(labels.by_failure, {f.key for f in facts.failures})
    return score_all(fresh_predictions(store, found), truths), found.problems
