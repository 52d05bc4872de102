"""Statistics over the verdicts: per task and per model, pass rates as graded and corrected,
the verifier's false-negative rate with a Wilson 95% interval, and each reviewer's progress.

Definitions (documented for ``reviewer stats --json``):

- *verdicts*: everyone's final verdicts (adjudicated, else unanimous), or one reviewer's own
  labels (:class:`Scope`; blind mode uses the current reviewer's).
- *failures*: failing checks (fail or error) of the runs that loaded.
- *labelled*: failures with a verdict (deferred, stale and disputed failures are not
  labelled). *specification* / *capability*: counts among labelled; the shares are these over
  labelled.
- *pass rates*: see :mod:`reviewer.analysis.stats.passrates`.
- *verifier false-negative rate*: among failing runs whose every failure is labelled
  (``runs``), the fraction whose every failure is labelled specification: runs the verifier
  rejected only for things the brief never asked. Wilson score interval at 95%.
- *reviewers*: per reviewer, decided (``labelled``) and ``deferred`` labels on current failures;
  ``stale`` labels (evidence changed) count in neither.
- *judges*: each judge (``reviewer judge``) against the scope's verdicts (and, for everyone's final
  verdicts, against each reviewer's labels too): :mod:`reviewer.analysis.stats.judged`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from reviewer.analysis.stats.bars import bar_rows, interval_line, percent, split_bar
from reviewer.analysis.stats.facts import Facts, FailureFact, FailureKey, ReviewerProgress
from reviewer.analysis.stats.intervals import wilson
from reviewer.analysis.stats.judged import JudgeScore, render_judges
from reviewer.analysis.stats.passrates import (
    PassRate,
    PassRates,
    interval_text,
    pass_rates,
    rate_json,
)
from reviewer.model.label import Verdict
from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.model.wording import count, plural


@record
class Group:
    """Counts for one task or one model."""

    name: str
    failures: int
    labelled: int
    specification: int
    capability: int

    @property
    def specification_share(self) -> float | None:
        """Specification over labelled (None when nothing is labelled)."""
        return self.specification / self.labelled if self.labelled else None

    @property
    def capability_share(self) -> float | None:
        """Capability over labelled (None when nothing is labelled)."""
        return self.capability / self.labelled if self.labelled else None

    @property
    def progress(self) -> float:
        """Labelled over failures (1 when there are none)."""
        return self.labelled / self.failures if self.failures else 1.0


@record
class Rate:
    """An estimated proportion with its Wilson 95% interval.

    Attributes:
        runs: failing runs fully labelled (the denominator).
        hits: of those, runs whose every failure is labelled specification.
        value, low, high: the estimate and interval; None when ``runs`` is 0.
    """

    runs: int
    hits: int
    value: float | None
    low: float | None
    high: float | None


@record
class Scope:
    """Whose verdicts the figures use.

    Attributes:
        reviewer: one reviewer's own labels; None for every reviewer's final verdicts.
        blind: chosen by blind mode (no ``--final`` or ``--reviewer`` was given).
    """

    reviewer: str | None = None
    blind: bool = False

    @property
    def shows_others(self) -> bool:
        """True when other reviewers' verdicts may be shown (agreement, disagreements)."""
        return self.reviewer is None

    def describe(self) -> str:
        """One line saying whose verdicts count, and how to see everyone's in blind mode."""
        if self.reviewer is None:
            return "verdicts: every reviewer's final verdicts (adjudicated, else unanimous)"
        if self.blind:
            return (f"verdicts: your own labels only ({self.reviewer}): blind mode hides the other reviewers' "
                    "until adjudication; --final uses everyone's final verdicts")
        return f"verdicts: {self.reviewer}'s own labels only"

    def as_json(self) -> dict[str, Any]:
        """``{"verdicts": "final" | "reviewer", "reviewer": name | null, "blind": bool}``."""
        return {"verdicts": "final" if self.reviewer is None else "reviewer", "reviewer": self.reviewer, "blind": self.blind}


@record
class Stats:
    """All statistics of a folder; ``pass_rates`` when the facts counted passing checks."""

    total: Group
    tasks: tuple[Group, ...]
    models: tuple[Group, ...]
    verifier_fnr: Rate
    reviewers: tuple[ReviewerProgress, ...]
    left_out: int = 0
    stale: int = 0
    errors: tuple[str, ...] = ()
    pass_rates: PassRates | None = None
    scope: Scope = Scope()
    judges: tuple[JudgeScore, ...] = ()
    judge_problems: tuple[str, ...] = ()


def group(name: str, failures: list[FailureFact]) -> Group:
    """Counts of one group of failures."""
    spec = sum(1 for f in failures if f.verdict is Verdict.SPECIFICATION)
    cap = sum(1 for f in failures if f.verdict is Verdict.CAPABILITY)
    return Group(name, len(failures), spec + cap, spec, cap)


def groups(failures: tuple[FailureFact, ...], attr: str, names: Collection[str] = ()) -> tuple[Group, ...]:
    """One group per distinct task (or model) with failures or in ``names``, sorted by name."""
    by: dict[str, list[FailureFact]] = {name: [] for name in names}
    for f in failures:
        by.setdefault(getattr(f, attr), []).append(f)
    return tuple(group(name, fs) for name, fs in sorted(by.items()))


def verifier_fnr(failures: tuple[FailureFact, ...]) -> Rate:
    """Failing runs whose every failure is specification, over failing runs fully labelled."""
    by_run: dict[str, list[FailureFact]] = {}
    for f in failures:
        by_run.setdefault(f.run_key, []).append(f)
    full = [fs for fs in by_run.values() if all(f.verdict is not None for f in fs)]
    hits = sum(1 for fs in full if all(f.verdict is Verdict.SPECIFICATION for f in fs))
    if not full:
        return Rate(0, 0, None, None, None)
    low, high = wilson(hits, len(full))
    return Rate(len(full), hits, hits / len(full), low, high)


def compute_stats(facts: Facts, repaired: Collection[FailureKey] | None = None, scope: Scope | None = None) -> Stats:
    """Statistics from gathered facts (pass rates when they were collected with ``count_passes``).

    ``repaired``: failures re-scoring repaired, for the re-scored pass rates (None: no re-score).
    ``scope``: whose verdicts the facts hold, for the JSON and the text (default: from ``facts``).
    """
    models = {m for ms in facts.task_models.values() for m in ms}
    return Stats(
        total=group("all", list(facts.failures)),
        tasks=groups(facts.failures, "task", facts.task_models),
        models=groups(facts.failures, "model", models),
        verifier_fnr=verifier_fnr(facts.failures),
        reviewers=facts.reviewers,
        left_out=facts.left_out,
        stale=sum(1 for f in facts.failures if f.stale),
        errors=facts.errors,
        pass_rates=pass_rates(facts, repaired) if facts.runs is not None else None,
        scope=scope if scope is not None else Scope(facts.only),
    )


def group_json(g: Group, field: str) -> dict[str, Any]:
    """A group as a JSON object (counts, plus the shares)."""
    return {
        field: g.name,
        "failures": g.failures,
        "labelled": g.labelled,
        "specification": g.specification,
        "capability": g.capability,
        "specification_share": g.specification_share,
        "capability_share": g.capability_share,
    }


def stats_json(s: Stats) -> dict[str, Any]:
    """The document ``reviewer stats --json`` prints."""
    r = s.verifier_fnr
    pr = s.pass_rates
    rates = {"task": {p.name: rate_json(p) for p in pr.tasks}, "model": {p.name: rate_json(p) for p in pr.models}} if pr else {}

    def entry(g: Group, field: str) -> dict[str, Any]:
        return group_json(g, field) | rates.get(field, {}).get(g.name, {})

    doc: dict[str, Any] = {
        "scope": s.scope.as_json(),
        "tasks": [entry(g, "task") for g in s.tasks],
        "models": [entry(g, "model") for g in s.models],
        "verifier_fnr": {"runs": r.runs, "specification_only": r.hits, "value": r.value, "low": r.low, "high": r.high},
        "reviewers": [{"reviewer": p.reviewer, "labelled": p.labelled, "deferred": p.deferred, "stale": p.stale} for p in s.reviewers],
        "failures": s.total.failures,
        "labelled": s.total.labelled,
        "left_out": s.left_out,
        "stale": s.stale,
    }
    if pr is not None:
        doc["overall"] = rate_json(pr.overall)
        doc["model_tasks"] = [{"model": p.model, "task": p.task} | rate_json(p) for p in pr.model_tasks]
        doc["ranking"] = [{"model": p.model, "graded_place": p.graded, "corrected_place": p.corrected, "change": p.change}
                          for p in pr.ranking]
    doc["judges"] = [j.as_json() for j in s.judges]
    return doc


def table(title: str, gs: tuple[Group, ...], width: int) -> list[str]:
    """A per-task or per-model block: counts, then a share bar (█ specification, ░ capability)."""
    if not gs:
        return []
    nw = min(28, max(len(title), *(len(plain(g.name)) for g in gs)))
    bw = max(10, width - nw - 44)
    out = [f"{title:<{nw}}  failures labelled  spec   cap  {'█ specification  ░ capability (share of labelled)'[: bw + 12]}"]
    for g in gs:
        cells = split_bar(g.specification_share or 0.0, g.capability_share or 0.0, bw) if g.labelled else "·" * bw
        note = f"{percent(g.specification_share)} spec" if g.labelled else "none labelled"
        out.append(f"{plain(g.name)[:nw]:<{nw}}  {g.failures:>8} {g.labelled:>8} {g.specification:>5} {g.capability:>5}  {cells} {note}")
    return out


def render_stats(s: Stats, width: int = 100) -> str:
    """The statistics as plain text with bars, for the terminal and the Stats screen."""
    t = s.total
    lines = [
        f"{count(t.failures, 'failure')} · {t.labelled} labelled ({percent(t.progress if t.failures else None)}) · "
        f"{t.specification} specification · {t.capability} capability"
        + (f" · {s.left_out} left out (reviewers disagree)" if s.left_out else "")
        + (f" · {s.stale} stale" if s.stale else ""),
        "",
    ]
    lines.insert(0, s.scope.describe())
    lines += table("task", s.tasks, width) + [""]
    lines += table("model", s.models, width) + [""]
    if s.pass_rates is not None:
        lines += pass_rate_text(s.pass_rates)
    r = s.verifier_fnr
    if r.runs and r.value is not None and r.low is not None and r.high is not None:
        lines.append(
            f"verifier false-negative rate: {r.hits} of {r.runs} fully labelled failing {plural('run', r.runs)} failed only on "
            f"specification = {percent(r.value)} (95% Wilson interval {percent(r.low)} to {percent(r.high)})"
        )
        lines.append("  " + interval_line(r.low, r.value, r.high, max(20, min(60, width - 12))))
    else:
        lines.append("verifier false-negative rate: no failing run is fully labelled yet")
    lines.append("")
    if s.reviewers:
        lines.append(f"progress per reviewer (of {count(t.failures, 'failure')})")
        rows: list[tuple[str, float | None, str]] = [(plain(p.reviewer), p.labelled / t.failures if t.failures else 0.0,
                 f"{p.labelled} labelled · {p.deferred} deferred" + (f" · {p.stale} stale" if p.stale else "")) for p in s.reviewers]
        lines += ["  " + ln for ln in bar_rows(rows, max(10, min(40, width - 60)), min(24, max(len(r[0]) for r in rows)))]
    else:
        lines.append("no labels yet")
    if s.judges:
        lines += [""] + render_judges(s.judges)
    for e in s.errors:
        lines.append(f"labels problem: {plain(e)}")
    for e in s.judge_problems:
        lines.append(f"predictions problem: {plain(e)}")
    return "\n".join(lines).rstrip() + "\n"


def rate_rows(title: str, rates: tuple[PassRate, ...], re: bool, place: dict[str, str] | None = None) -> list[str]:
    """A pass-rate table: checks, graded and corrected with intervals, unlabelled (and places)."""
    if not rates:
        return []
    nw = min(36, max(len(title), *(len(plain(r.name)) for r in rates)))
    head = f"{title:<{nw}}  {'checks':>6}  {'graded (95% CI)':<22}  {'corrected (95% CI)':<22}"
    head += f"  {'re-scored (95% CI)':<22}" if re else ""
    out = [head + "  unlabelled" + ("  place graded → corrected" if place is not None else "")]
    for r in rates:
        row = f"{plain(r.name)[:nw]:<{nw}}  {r.checks:>6}  {interval_text(r.graded):<22}  {interval_text(r.corrected):<22}"
        rescored = r.rescored
        row += f"  {interval_text(rescored) if rescored else '—':<22}" if re else ""
        row += f"  {r.unlabelled:>10}"
        if place is not None:
            row += f"  {place.get(r.name, '—')}"
        out.append(row.rstrip())
    return out


PAIRS_IN_TEXT = 100


def pass_rate_text(pr: PassRates) -> list[str]:
    """The pass-rate tables and the ranking, as text lines."""
    o = pr.overall
    if not o.checks:
        return ["pass rates: no check ran", ""]
    lines = [
        f"pass rates ({count(o.checks, 'check')} ran; corrected: failures labelled specification count as passes): "
        f"graded {interval_text(o.graded)} · corrected {interval_text(o.corrected)}"
        + (f" · re-scored {interval_text(o.rescored)}" if o.rescored else ""),
    ]
    if o.unlabelled:
        lines.append(f"  {count(o.unlabelled, 'failure')} still unlabelled: the corrected figures are not final")
    places = {}
    for p in pr.ranking:
        arrow = f"▲{p.change}" if p.change > 0 else f"▼{-p.change}" if p.change < 0 else "="
        places[p.model] = f"{p.graded} → {p.corrected} {arrow}"
    lines += [""] + rate_rows("model", pr.models, pr.rescored, places) + [""]
    lines += rate_rows("task", pr.tasks, pr.rescored) + [""]
    if len(pr.model_tasks) <= PAIRS_IN_TEXT:
        lines += rate_rows("model / task", pr.model_tasks, pr.rescored) + [""]
    else:
        lines += [f"{count(len(pr.model_tasks), 'model x task pair')}: see --json or `reviewer report`", ""]
    moved = [p for p in pr.ranking if p.change]
    lines.append(f"ranking: {count(len(moved), 'model')} {plural('changes', len(moved), 'change')} place once corrected" if moved
                 else "ranking: no model changes place once corrected")
    return lines + [""]
