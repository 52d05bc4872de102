"""Statistics over the final verdicts: per task and per model, the verifier's false-negative
rate with a Wilson 95% interval, and each reviewer's progress.

Definitions (documented for ``reviewer stats --json``):

- *failures*: failing checks (fail or error) of the runs that loaded.
- *labelled*: failures with a final verdict (adjudicated, else unanimous; deferred, stale and
  disputed failures are not labelled). *specification* / *capability*: counts among labelled;
  the shares are these over labelled.
- *verifier false-negative rate*: among failing runs whose every failure is labelled
  (``runs``), the fraction whose every failure is labelled specification: runs the verifier
  rejected only for things the brief never asked. Wilson score interval at 95%.
- *reviewers*: per reviewer, decided (``labelled``) and ``deferred`` labels on current failures;
  ``stale`` labels (evidence changed) count in neither.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from reviewer.analysis.bars import bar_rows, interval_line, percent, split_bar
from reviewer.analysis.facts import Facts, FailureFact, ReviewerProgress
from reviewer.model.label import Verdict
from reviewer.model.sanitize import plain

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (low, high) of ``successes`` out of ``n``; (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class Stats:
    """All statistics of a folder."""

    total: Group
    tasks: tuple[Group, ...]
    models: tuple[Group, ...]
    verifier_fnr: Rate
    reviewers: tuple[ReviewerProgress, ...]
    left_out: int = 0
    stale: int = 0
    errors: tuple[str, ...] = ()


def group(name: str, failures: list[FailureFact]) -> Group:
    """Counts of one group of failures."""
    spec = sum(1 for f in failures if f.verdict is Verdict.SPECIFICATION)
    cap = sum(1 for f in failures if f.verdict is Verdict.CAPABILITY)
    return Group(name, len(failures), spec + cap, spec, cap)


def groups(failures: tuple[FailureFact, ...], attr: str) -> tuple[Group, ...]:
    """One group per distinct task (or model), sorted by name."""
    by: dict[str, list[FailureFact]] = {}
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


def compute_stats(facts: Facts) -> Stats:
    """Statistics from gathered facts."""
    return Stats(
        total=group("all", list(facts.failures)),
        tasks=groups(facts.failures, "task"),
        models=groups(facts.failures, "model"),
        verifier_fnr=verifier_fnr(facts.failures),
        reviewers=facts.reviewers,
        left_out=facts.left_out,
        stale=sum(1 for f in facts.failures if f.stale),
        errors=facts.errors,
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
    return {
        "tasks": [group_json(g, "task") for g in s.tasks],
        "models": [group_json(g, "model") for g in s.models],
        "verifier_fnr": {"runs": r.runs, "specification_only": r.hits, "value": r.value, "low": r.low, "high": r.high},
        "reviewers": [{"reviewer": p.reviewer, "labelled": p.labelled, "deferred": p.deferred, "stale": p.stale} for p in s.reviewers],
        "failures": s.total.failures,
        "labelled": s.total.labelled,
        "left_out": s.left_out,
        "stale": s.stale,
    }


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
        f"{t.failures} failures · {t.labelled} labelled ({percent(t.progress if t.failures else None)}) · "
        f"{t.specification} specification · {t.capability} capability"
        + (f" · {s.left_out} left out (reviewers disagree)" if s.left_out else "")
        + (f" · {s.stale} stale" if s.stale else ""),
        "",
    ]
    lines += table("task", s.tasks, width) + [""]
    lines += table("model", s.models, width) + [""]
    r = s.verifier_fnr
    if r.runs and r.value is not None and r.low is not None and r.high is not None:
        lines.append(
            f"verifier false-negative rate: {r.hits} of {r.runs} fully labelled failing runs failed only on "
            f"specification = {percent(r.value)} (95% Wilson interval {percent(r.low)} to {percent(r.high)})"
        )
        lines.append("  " + interval_line(r.low, r.value, r.high, max(20, min(60, width - 12))))
    else:
        lines.append("verifier false-negative rate: no failing run is fully labelled yet")
    lines.append("")
    if s.reviewers:
        lines.append(f"progress per reviewer (of {t.failures} failures)")
        rows = [(plain(p.reviewer), p.labelled / t.failures if t.failures else 0.0,
                 f"{p.labelled} labelled · {p.deferred} deferred" + (f" · {p.stale} stale" if p.stale else "")) for p in s.reviewers]
        lines += ["  " + ln for ln in bar_rows(rows, max(10, min(40, width - 60)), min(24, max(len(r[0]) for r in rows)))]
    else:
        lines.append("no labels yet")
    for e in s.errors:
        lines.append(f"not read: {plain(e)}")
    return "\n".join(lines).rstrip() + "\n"
