"""Checks repaired by notation alone, per task and model, from every reviewer's re-score records
(the table of seed 003: ``3/9 -> 9/9``).

For each grading that was re-scored, each check counts once: *repaired* when some re-score
shows it failing as recorded and in the control run and passing with the repairs; *broken*
when some re-score shows it passing as recorded and failing with the repairs (a repair must
never do that: it is shown so that it cannot hide). Checks of gradings never re-scored are not
counted. ``reviewer stats`` prints the table and adds it to ``--json``.
"""

from __future__ import annotations

from typing import Any

from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.rescore.record import Entry, read_entries
from reviewer.store.sessions.protocol import Store


@record
class Tally:
    """One task and model: gradings re-scored, their checks (every check any run of them had),
    passing as recorded, passing with the repairs, repaired (failing as recorded and in the
    control, passing with the repairs) and broken (passing as recorded, not with the repairs)."""

    task: str
    model: str
    gradings: int
    checks: int
    passing_before: int
    passing_after: int
    repaired: int
    broken: int


def grading_of(e: Entry) -> tuple[str, str]:
    """(run key, grader name) of an entry."""
    run_key, sep, grader = e.grading.partition("#")
    if not sep or not grader or "/" not in run_key:
        raise ValueError(e.grading)
    return run_key, grader


def tally(store: Store, only: str = "") -> tuple[tuple[Tally, ...], list[str]]:
    """Per (task, model), sorted; and the record files that could not be read (``only``: one
    reviewer's records)."""
    sessions = sorted({r.session for r in store.runs})
    entries, errors = read_entries(store.root, sessions)
    if only:
        entries = [e for e in entries if e.reviewer == only]
    by_grading: dict[tuple[str, str], dict[str, list[bool]]] = {}
    for e in entries:
        if e.stated:  # its flips say the program ignored the brief: no repair of notation
            continue
        try:
            grading = grading_of(e)
        except ValueError:
            continue
        checks = by_grading.setdefault(grading, {})
        for key, recorded, before, after in e.checks:
            seen = checks.setdefault(key, [recorded == "pass", False, False, False])
            seen[1] = seen[1] or after == "pass"
            seen[2] = seen[2] or (recorded in ("fail", "error") and before in ("fail", "error") and after == "pass")
            seen[3] = seen[3] or (recorded == "pass" and after != "pass")
    groups: dict[tuple[str, str], list[int]] = {}
    for (run_key, _grader), checks in by_grading.items():
        run = store.run(run_key)
        if run is None:
            continue
        row = groups.setdefault((run.task, run.model), [0, 0, 0, 0, 0, 0])
        row[0] += 1
        row[1] += len(checks)
        row[2] += sum(1 for p, _, _, _ in checks.values() if p)
        row[3] += sum(1 for p, a, _, b in checks.values() if (p and not b) or (not p and a))
        row[4] += sum(1 for _, _, r, _ in checks.values() if r)
        row[5] += sum(1 for _, _, _, b in checks.values() if b)
    return tuple(Tally(t, m, *row) for (t, m), row in sorted(groups.items())), errors


def tally_json(rows: tuple[Tally, ...]) -> list[dict[str, Any]]:
    """The rows as ``reviewer stats --json`` gives them (``repaired_by_notation``)."""
    return [{"task": r.task, "model": r.model, "gradings": r.gradings, "checks": r.checks,
             "passing_before": r.passing_before, "passing_after": r.passing_after, "repaired": r.repaired,
             "broken": r.broken} for r in rows]


def render_tally(rows: tuple[Tally, ...]) -> str:
    """The table as plain text ("" when nothing was re-scored)."""
    if not rows:
        return ""
    tw = min(24, max(4, *(len(plain(r.task)) for r in rows)))
    mw = min(24, max(5, *(len(plain(r.model)) for r in rows)))
    lines = ["checks repaired by notation alone (re-scores with only the notation repaired)",
             f"  {'task':<{tw}}  {'model':<{mw}}  passing as recorded -> repaired   repaired  broken"]
    for r in rows:
        change = f"{r.passing_before}/{r.checks} -> {r.passing_after}/{r.checks}"
        lines.append(f"  {plain(r.task)[:tw]:<{tw}}  {plain(r.model)[:mw]:<{mw}}  {change:<32} {r.repaired:>8} {r.broken:>7}")
    total = [sum(getattr(r, f) for r in rows) for f in ("checks", "passing_before", "passing_after", "repaired", "broken")]
    lines.append(f"  {'total':<{tw + mw + 2}}  {f'{total[1]}/{total[0]} -> {total[2]}/{total[0]}':<32} {total[3]:>8} {total[4]:>7}")
    return "\n".join(lines) + "\n"
