"""Pass rates as graded and as corrected by the labels, per model, per task and per model x task.

Definitions (documented for ``reviewer stats --json`` and the report):

- *checks*: the checks that ran in the group's runs (passed, failed or errored; skipped checks
  are left out). *passed*: those the grader passed.
- *pass rate* (as graded): passed / checks.
- *corrected pass rate*: (passed + failures labelled specification) / checks: a check the
  checker failed for something the brief never stated counts as a pass.
- *re-scored pass rate*: (passed + failures labelled specification or repaired by re-scoring) /
  checks. Re-scoring is a separate step; :func:`pass_rates` takes the repaired failures as its
  ``repaired`` argument (None, the default: no re-score, so no re-scored figures).
- *unlabelled*: failures without a verdict (never labelled, deferred, stale or disputed): the
  corrected figure can still rise by that many checks, so a half-labelled folder is never final.
- Every rate carries a Wilson 95% interval (:func:`reviewer.analysis.stats.intervals.wilson`).
- *ranking*: models by pass rate, highest first, as graded and as corrected; ties share a
  place (competition ranking: 1, 2, 2, 4) and are listed by name.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

from reviewer.analysis.stats.facts import Facts, FailureFact, FailureKey, RunChecks
from reviewer.analysis.stats.intervals import wilson
from reviewer.model.label import Verdict
from reviewer.model.records import record


@record
class Proportion:
    """``hits`` of ``n`` with the estimate and its Wilson 95% interval (None when ``n`` is 0)."""

    hits: int
    n: int

    @property
    def value(self) -> float | None:
        """hits / n."""
        return self.hits / self.n if self.n else None

    @property
    def low(self) -> float | None:
        """The interval's lower bound."""
        return wilson(self.hits, self.n)[0] if self.n else None

    @property
    def high(self) -> float | None:
        """The interval's upper bound."""
        return wilson(self.hits, self.n)[1] if self.n else None


@record
class PassRate:
    """Pass rates of one group of runs (a model, a task, a model on a task, or all).

    Attributes:
        name: the model or task (``model / task`` for a pair, ``all`` for everything).
        model, task: for a model x task pair ("" otherwise).
        checks, passed: checks that ran, and those passed as graded.
        failures: failing checks (``checks - passed``).
        specification: failures labelled specification.
        capability: failures labelled capability.
        repaired: failures re-scoring repaired that are not labelled specification; None when no
            re-score was given.
    """

    name: str
    checks: int
    passed: int
    specification: int
    capability: int
    repaired: int | None = None
    model: str = ""
    task: str = ""

    @property
    def failures(self) -> int:
        """Failing checks."""
        return self.checks - self.passed

    @property
    def unlabelled(self) -> int:
        """Failures without a verdict: the corrected figure may still move by this many checks."""
        return self.failures - self.specification - self.capability

    @property
    def graded(self) -> Proportion:
        """Passed as graded."""
        return Proportion(self.passed, self.checks)

    @property
    def corrected(self) -> Proportion:
        """Passed, plus failures labelled specification."""
        return Proportion(self.passed + self.specification, self.checks)

    @property
    def rescored(self) -> Proportion | None:
        """Corrected, plus failures repaired by re-scoring; None without a re-score."""
        if self.repaired is None:
            return None
        return Proportion(self.passed + self.specification + self.repaired, self.checks)


@record
class RankPlace:
    """One model's place as graded and as corrected (1 = best)."""

    model: str
    graded: int
    corrected: int

    @property
    def change(self) -> int:
        """Places gained once corrected (positive: moved up)."""
        return self.graded - self.corrected


@record
class PassRates:
    """Every pass rate of a folder, and the ranking of models."""

    overall: PassRate
    models: tuple[PassRate, ...]
    tasks: tuple[PassRate, ...]
    model_tasks: tuple[PassRate, ...]
    ranking: tuple[RankPlace, ...]
    rescored: bool = False


def rate(name: str, runs: list[RunChecks], failures: list[FailureFact], repaired: Collection[FailureKey] | None,
         model: str = "", task: str = "") -> PassRate:
    """The pass rates of one group: its runs' checks and their failures' verdicts."""
    spec = sum(1 for f in failures if f.verdict is Verdict.SPECIFICATION)
    cap = sum(1 for f in failures if f.verdict is Verdict.CAPABILITY)
    fixed = None
    if repaired is not None:
        fixed = sum(1 for f in failures if f.verdict is not Verdict.SPECIFICATION and f.key in repaired)
    return PassRate(name, sum(r.ran for r in runs), sum(r.passed for r in runs), spec, cap, fixed, model, task)


def places(rates: tuple[PassRate, ...], corrected: bool) -> dict[str, int]:
    """Competition ranking of models by pass rate (as graded or corrected), highest first."""
    scored = [(r.corrected.value if corrected else r.graded.value, r.name) for r in rates]
    ordered = sorted(((v, n) for v, n in scored if v is not None), key=lambda vn: (-vn[0], vn[1]))
    out: dict[str, int] = {}
    for i, (v, n) in enumerate(ordered):
        out[n] = out[ordered[i - 1][1]] if i and math.isclose(v, ordered[i - 1][0]) else i + 1
    return out


def ranking(models: tuple[PassRate, ...]) -> tuple[RankPlace, ...]:
    """Models in corrected order, each with its place as graded and as corrected."""
    graded, corrected = places(models, False), places(models, True)
    rows = [RankPlace(m, graded[m], corrected[m]) for m in corrected]
    return tuple(sorted(rows, key=lambda p: (p.corrected, p.model)))


def pass_rates(facts: Facts, repaired: Collection[FailureKey] | None = None) -> PassRates:
    """Pass rates from facts collected with ``count_passes=True``.

    ``repaired``: failures (session, run, check) that re-scoring repaired; None (the default)
    when no re-score was run, and the re-scored figures are left out.
    """
    if facts.runs is None:
        raise ValueError("pass rates need facts collected with count_passes=True")
    by_run: dict[str, list[FailureFact]] = {}
    for f in facts.failures:
        by_run.setdefault(f.run_key, []).append(f)

    def groups(key: Any) -> dict[Any, list[RunChecks]]:
        out: dict[Any, list[RunChecks]] = {}
        for r in facts.runs or ():
            out.setdefault(key(r), []).append(r)
        return dict(sorted(out.items()))

    def of(runs: list[RunChecks]) -> list[FailureFact]:
        return [f for r in runs for f in by_run.get(r.run_key, [])]

    models = tuple(rate(m, rs, of(rs), repaired, model=m) for m, rs in groups(lambda r: r.model).items())
    tasks = tuple(rate(t, rs, of(rs), repaired, task=t) for t, rs in groups(lambda r: r.task).items())
    pairs = tuple(rate(f"{m} / {t}", rs, of(rs), repaired, m, t) for (m, t), rs in groups(lambda r: (r.model, r.task)).items())
    runs = list(facts.runs)
    return PassRates(rate("all", runs, of(runs), repaired), models, tasks, pairs, ranking(models), repaired is not None)


def rate_json(r: PassRate) -> dict[str, Any]:
    """The pass-rate fields of one group for ``stats --json`` (fractions 0-1, None when no check ran)."""
    out: dict[str, Any] = {
        "checks": r.checks,
        "passed": r.passed,
        "pass_rate": r.graded.value,
        "pass_rate_low": r.graded.low,
        "pass_rate_high": r.graded.high,
        "corrected_passed": r.corrected.hits,
        "corrected_pass_rate": r.corrected.value,
        "corrected_pass_rate_low": r.corrected.low,
        "corrected_pass_rate_high": r.corrected.high,
        "unlabelled": r.unlabelled,
    }
    re = r.rescored
    if re is not None:
        out |= {"rescored_passed": re.hits, "rescored_pass_rate": re.value,
                "rescored_pass_rate_low": re.low, "rescored_pass_rate_high": re.high}
    return out


def percent1(fraction: float | None) -> str:
    """A fraction as a percentage to one decimal, ``.0`` dropped: ``62%``, ``62.5%``; ``—`` when None."""
    if fraction is None:
        return "—"
    text = f"{fraction * 100:.1f}"
    return (text.removesuffix(".0")) + "%"


def interval_text(p: Proportion) -> str:
    """``62.5% (40.1%-80%)``, or ``—``."""
    if p.value is None:
        return "—"
    return f"{percent1(p.value)} ({percent1(p.low)}-{percent1(p.high)})"
