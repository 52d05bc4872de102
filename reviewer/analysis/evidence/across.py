"""The same check across models, and the task x model matrix.

"One program using an unpublished notation is a coincidence; many programs inventing different
notations for the same unpublished value is what an underspecified contract does." For the
current failure, :func:`across` lists every run of the same task with a grader of the same name:
its model, its result on this check, and the part of its output the check looked at (or the
nearest notation it printed instead), with the hint "n of m models fail this check, with k
different notations". :func:`task_matrix` gives pass / fail per check and model, with the
labelled shares, for a screen to move through. Pure over the store; polls ``cancel``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field, replace

from reviewer.analysis.evidence.engine import Evidence, Hint, evidence_for
from reviewer.analysis.reading.demands import DemandKind
from reviewer.analysis.reading.notation import strip_quotes
from reviewer.analysis.reading.output import program_output
from reviewer.analysis.reading.scan import Cancel, poll
from reviewer.model import Failure, Run
from reviewer.model.check import Check, check_id
from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.store.sessions.protocol import Store

MAX_ROWS = 500
SHOWN = 80


@record
class AcrossRow:
    """One run of the task on this check.

    Attributes:
        run: the run key ``session/run``.
        model: the model.
        result: ``pass``, ``fail``, ``error``, ``skip``, or ``absent`` when its grader has no
            such check (it did not build, or was not run).
        looked_at: the part of its output the check looked at (``mults=17``), or the nearest
            notation it printed instead (``steps=15``); "" when the text shows neither.
        notation: how its failure differs from what the check reads (``steps``, ``true``,
            ``','``); "" for a pass, a plain wrong value, or when unknown.
        failure_id: the failure's id when it fails, else "".
        current: the run of the failure being looked at.
    """

    run: str
    model: str
    result: str
    looked_at: str = ""
    notation: str = ""
    failure_id: str = ""
    current: bool = False


@record
class Across:
    """The check across models.

    Attributes:
        task: the task.
        grader: the grader name.
        check: the check key within the grader.
        keys: the output keys the check reads.
        rows: one per run, the current run first.
        failing: runs that fail this check.
        total: runs that have this check (absent ones excluded).
        notations: the different notations the failing runs used, once each.
    """

    task: str
    grader: str
    check: str
    keys: tuple[str, ...] = ()
    rows: tuple[AcrossRow, ...] = ()
    failing: int = 0
    total: int = 0
    notations: tuple[str, ...] = ()

    @property
    def towards(self) -> bool:
        """Several models fail with different notations: the contract is what is missing."""
        return self.failing >= 2 and len(self.notations) >= 2

    @property
    def hint(self) -> str:
        """``3 of 5 models fail this check, with 3 different notations (...)``; "" when fewer
        than two fail."""
        if self.failing < 2:
            return ""
        noun = "models" if len({r.model for r in self.rows}) == len(self.rows) else "runs"
        text = f"{self.failing} of {self.total} {noun} fail this check"
        if len(self.notations) >= 2:
            text += f", with {len(self.notations)} different notations ({', '.join(self.notations[:6])})"
        return text


def notation_of(ev: Evidence) -> tuple[str, str]:
    """(nearest notation shown, notation name) from a failure's near misses."""
    for nm in ev.near_misses:
        if nm.kind == "renamed-key" and nm.found_key:
            return f"{nm.found_key}={nm.found}", nm.found_key
        if nm.kind == "separator":
            return f"{nm.found_key}={nm.found}" if nm.found_key and nm.found not in (",", ";", " ") else nm.actual, repr(nm.found)
        if nm.kind in ("vocabulary", "case", "shape", "precision"):
            return nm.actual, f"{nm.found_key + '=' if nm.found_key else ''}{strip_quotes(nm.actual)}"
    return "", ""


def looked_at(check: Check, keys: tuple[str, ...]) -> str:
    """The values of the keys the check reads, as this run printed them."""
    printed = {p.key: p.value for p in reversed(program_output(check.message).pairs())}
    shown = [f"{k}={printed[k]}" for k in keys if k in printed]
    return " ".join(shown)


def find_check(store: Store, run: Run, grader: str, key: str) -> Check | None:
    """A run's check of that grader and key, or None."""
    for gc in store.grader_checks(run):
        if gc.grader == grader:
            for c in gc.checks:
                if c.key == key:
                    return c
    return None


def cap(text: str) -> str:
    """A value for a cell: sanitised, one line, capped."""
    one = plain(" ".join(text.split()))
    return one if len(one) <= SHOWN else one[: SHOWN - 1] + "\u2026"


def across(store: Store, run: Run, failure: Failure, ev: Evidence | None = None, cancel: Cancel | None = None) -> Across:
    """The same check across every run of the task with a grader of the same name."""
    ev = ev if ev is not None else evidence_for(store, run, failure, cancel)
    keys = tuple(d.value for d in ev.demands if d.kind is DemandKind.KEY)
    rows: list[AcrossRow] = []
    notations: list[str] = []
    runs = [run] + [r for r in store.runs if r.task == run.task and r.key != run.key]
    for other in runs[:MAX_ROWS]:
        poll(cancel)
        if other.grader(failure.grader) is None:
            continue
        c = find_check(store, other, failure.grader, failure.check.key)
        if c is None:
            rows.append(AcrossRow(other.key, other.model, "absent", current=other.key == run.key))
            continue
        result = c.status.value
        seen, notation, fid = cap(looked_at(c, keys)), "", ""
        if c.failing:
            fid = other.failure_id(check_id(failure.grader, c.key))
            oev = ev if other.key == run.key else evidence_for(store, other, Failure(fid, other.key, failure.grader, c), cancel)
            nearest, notation = notation_of(oev)
            if not seen and nearest:
                seen = cap(nearest)
            if not seen and oev.pairs:
                seen = cap(f"{oev.pairs[0].actual} (wanted {oev.pairs[0].expected})")
            if notation and notation not in notations:
                notations.append(notation)
        rows.append(AcrossRow(other.key, other.model, result, seen, cap(notation), fid, other.key == run.key))
    present = [r for r in rows if r.result != "absent"]
    failing = sum(1 for r in present if r.result in ("fail", "error"))
    return Across(run.task, failure.grader, failure.check.key, keys, tuple(rows), failing, len(present), tuple(notations))


def with_across(store: Store, run: Run, failure: Failure, cancel: Cancel | None = None) -> tuple[Evidence, Across]:
    """The evidence of a failure and the same check across models (it reads every run of the
    task, so the strip leaves it to its own view); the across hint is added to the evidence."""
    ev = evidence_for(store, run, failure, cancel)
    found = across(store, run, failure, ev, cancel)
    if found.hint:
        ev = replace(ev, hints=ev.hints + (Hint("across", found.hint, towards=found.towards and bool(ev.near_misses)),))
    return ev, found


@record
class Matrix:
    """Pass / fail of every check of a task, per run.

    Attributes:
        task: the task.
        checks: check ids ``grader:key`` in first-seen order.
        runs: (run key, model) per row, sorted by model.
        cells: {(run key, check id): status} (``pass``, ``fail``, ``error``, ``skip``); a
            missing cell is a check that run does not have.
        verdicts: {(run key, check id): verdict} for failures a label decided.
    """

    task: str
    checks: tuple[str, ...] = ()
    runs: tuple[tuple[str, str], ...] = ()
    cells: Mapping[tuple[str, str], str] = field(default_factory=dict)
    verdicts: Mapping[tuple[str, str], str] = field(default_factory=dict)

    def share(self, check: str) -> tuple[int, int, int, int]:
        """(failing, runs with the check, labelled specification, labelled capability)."""
        statuses = [self.cells[(r, check)] for r, _ in self.runs if (r, check) in self.cells]
        failing = sum(1 for s in statuses if s in ("fail", "error"))
        labels = [self.verdicts.get((r, check), "") for r, _ in self.runs]
        return failing, len(statuses), labels.count("specification"), labels.count("capability")


def task_matrix(store: Store, task: str, verdicts: Mapping[str, str] | None = None, cancel: Cancel | None = None) -> Matrix:
    """The task x model matrix; ``verdicts`` maps failure ids to decided verdicts."""
    verdicts = verdicts or {}
    checks: list[str] = []
    cells: dict[tuple[str, str], str] = {}
    labels: dict[tuple[str, str], str] = {}
    runs = sorted((r for r in store.runs if r.task == task), key=lambda r: (r.model, r.key))
    for r in runs[:MAX_ROWS]:
        poll(cancel)
        for gc in store.grader_checks(r):
            for c in gc.checks:
                cid = check_id(gc.grader, c.key)
                if cid not in checks:
                    checks.append(cid)
                cells[(r.key, cid)] = c.status.value
                verdict = verdicts.get(r.failure_id(cid))
                if verdict:
                    labels[(r.key, cid)] = verdict
    return Matrix(task, tuple(checks), tuple((r.key, r.model) for r in runs[:MAX_ROWS]), cells, labels)


def tasks(store: Store) -> list[str]:
    """Every task of the folder, sorted."""
    return sorted({r.task for r in store.runs})
