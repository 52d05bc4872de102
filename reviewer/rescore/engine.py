"""One re-score: the recorded grader run again on the recorded program, once as recorded (the
control) and once with only the notation repaired, both in the sandbox; every check compared.

A check *flips* when it failed in the recorded output, still fails in the control run, and
passes with the repairs. The control is what makes a flip evidence: a check that already passes
in the sandbox without any repair (another interpreter, another machine) proves nothing, and
the result says so (``reproduced`` false). A re-score is evidence, never a label.

:func:`rescore_grader` is what a worker calls (cancel check, progress callback, frozen result);
it never writes the record (:mod:`reviewer.rescore.record` does).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import field, replace
from datetime import UTC, datetime

from reviewer.model import Failure, GraderRecord, Run
from reviewer.model.check import Check
from reviewer.model.records import record
from reviewer.model.repair import Repair, describe_repair
from reviewer.model.rerun import Rerun, parse_runtime
from reviewer.model.wording import count
from reviewer.parsers import parse_output
from reviewer.rescore.layout import StagingError, fresh_staging
from reviewer.rescore.runtime import Found, RuntimeMissing, describe, runtimes
from reviewer.rescore.sandbox import (
    INSIDE,
    Limits,
    Outcome,
    Tool,
    require_sandbox,
    run_sandboxed,
)
from reviewer.rescore.stage import lay_out
from reviewer.store.evidence import evidence_hash
from reviewer.store.protocol import Store

MESSAGE_CAP = 4000
MISSING = "missing"
START = (f'mkdir -p {INSIDE}/home {INSIDE}/tmp {INSIDE}/cache && cp -R {INSIDE}/in/ws {INSIDE}/run && cd "{INSIDE}/run/$1" && exec /bin/bash -c "$2"'
         )
Progress = Callable[[str, float], None]


class NotRerunnable(Exception):
    """This grading cannot be re-run: no ``[grader.rerun]``, a defect in it, a runtime missing,
    or a repair that does not apply. Nothing was run."""


@record
class Options:
    """How to re-score: the Python to use, and limits overriding the sandbox's defaults
    (``wall_seconds`` None: the grader's ``time_limit``)."""

    python: str | None = None
    limits: Limits = field(default_factory=Limits)
    wall_seconds: float | None = None


@record
class CheckResult:
    """One check of the grader: recorded, control run (``before``), repaired run (``after``).

    Statuses are pass, fail, error, skip or ``missing`` (the output did not have the check);
    ``message`` is the repaired run's text for a check that does not pass or changed.
    """

    key: str
    recorded: str
    before: str
    after: str
    message: str = ""


@record
class Rescore:
    """The re-score of one failure (frozen: safe to hand from a worker to the screen)."""

    failure: str
    run_key: str
    grader: str
    check: str
    repairs: tuple[Repair, ...]
    evidence: str
    command: str
    cwd: str
    runtime: str
    sandbox: str
    limits: Limits
    recorded: str
    before: str
    after: str
    flipped: bool
    reproduced: bool
    checks: tuple[CheckResult, ...]
    output_before: str
    output_after: str
    exit_before: int | None
    exit_after: int | None
    stopped_before: str = ""
    stopped_after: str = ""
    seconds: float = 0.0
    at: str = ""
    notes: tuple[str, ...] = ()

    def passing(self, which: str) -> tuple[int, int]:
        """(checks passing, checks) in ``recorded``, ``before`` or ``after``."""
        return sum(1 for c in self.checks if getattr(c, which) == "pass"), len(self.checks)

    def note(self) -> str:
        """A note to pre-fill when labelling after this re-score."""
        return f"re-scored in the sandbox: {self.summary()}"

    def summary(self) -> str:
        """``3/9 -> 9/9 with key steps->mults``: the grader's passing checks, recorded then repaired."""
        b, n = self.passing("recorded")
        a, _ = self.passing("after")
        return f"{b}/{n} -> {a}/{n} with " + (", ".join(describe_repair(r) for r in self.repairs) or "no repair")


def utc_now() -> str:
    """Now, as the record writes it."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def rerun_of(run: Run, grader_name: str) -> tuple[GraderRecord, Rerun]:
    """The grader and its usable rerun table; NotRerunnable otherwise."""
    grader = run.grader(grader_name)
    if grader is None:
        raise NotRerunnable(f"run {run.key} has no grader {grader_name!r}")
    if grader.rerun is None:
        raise NotRerunnable(f"grader {grader_name!r} of {run.key} has no [grader.rerun] table: the harness did not "
                            "record how to run it again (sessions/README.md, `[grader.rerun]`)")
    if grader.rerun.problem:
        raise NotRerunnable(f"grader {grader_name!r} of {run.key}: [grader.rerun] {grader.rerun.problem}")
    return grader, grader.rerun


def environment(found: tuple[Found, ...], rerun: Rerun, extra: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """The clean environment inside: fixed basics, the runtimes', the table's, the repairs'."""
    path = [p for f in found for p in f.path] + ["/usr/local/bin", "/usr/bin", "/bin"]
    env = {"PATH": ":".join(dict.fromkeys(path)), "HOME": f"{INSIDE}/home", "TMPDIR": f"{INSIDE}/tmp",
           "USER": "sandbox", "LOGNAME": "sandbox", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC",
           "TERM": "dumb", "COLUMNS": "100", "LINES": "40", "PYTHONHASHSEED": "0",
           "PYTHONDONTWRITEBYTECODE": "1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    for f in found:
        env.update(f.env)
    env.update(rerun.env)
    env.update(extra)
    return env


def one_run(tool: Tool, store: Store, run: Run, grader: GraderRecord, rerun: Rerun, repairs: tuple[Repair, ...],
            found: tuple[Found, ...], limits: Limits, cancel: Callable[[], bool]) -> tuple[Outcome, list[Check]]:
    """Lay out and run the grader once; its outcome and parsed checks."""
    with fresh_staging() as staging:
        try:
            staged = lay_out(store.root, run, grader, rerun, repairs, staging, found[0])
        except StagingError as exc:
            raise NotRerunnable(str(exc)) from None
        binds = [b for f in found for b in f.binds]
        env = environment(found, rerun, staged.env)
        outcome = run_sandboxed(tool, staging, ["/bin/bash", "-c", START, "rescore", rerun.cwd, rerun.command],
                                binds=binds, env=env, limits=limits, cancel=cancel)
    checks = parse_output(outcome.output, grader.format or None, exit_status=outcome.exit_status)
    return outcome, checks


def status_in(checks: dict[str, Check], key: str, outcome: Outcome) -> tuple[str, str]:
    """A check's status in one run, and its text. A check absent from the output of a grader that
    exited 0 passed (a build failure that is gone once the files are where they belong)."""
    if key in checks:
        return checks[key].status.value, checks[key].message
    if outcome.exit_status == 0 and not outcome.stopped:
        return "pass", "absent from the output, and the grader exited 0"
    return MISSING, ""


def compare(recorded: tuple[Check, ...], before: tuple[Outcome, list[Check]],
            after: tuple[Outcome, list[Check]]) -> tuple[CheckResult, ...]:
    """Every check that any of the three has, in recorded order, then new ones."""
    rec = {c.key: c for c in recorded}
    bef = {c.key: c for c in before[1]}
    aft = {c.key: c for c in after[1]}
    out = []
    for k in dict.fromkeys([*rec, *bef, *aft]):
        r = rec[k].status.value if k in rec else MISSING
        b, _ = status_in(bef, k, before[0])
        a, text = status_in(aft, k, after[0])
        message = text[-MESSAGE_CAP:] if a != "pass" or a != r else ""
        out.append(CheckResult(k, r, b, a, message))
    return tuple(out)


def recorded_checks(store: Store, run: Run, grader: str) -> tuple[Check, ...]:
    """The checks the store derives for ``grader`` (what the failures were read from)."""
    for gc in store.grader_checks(run):
        if gc.grader == grader:
            return gc.checks
    return ()


def verdict_word(status: str) -> str:
    """``pass`` or ``fail`` (anything that is not a pass) for the failure's own check."""
    return "pass" if status == "pass" else "fail"


@record
class Comparison:
    """One grading run twice in the sandbox (control and repaired), every check compared."""

    run_key: str
    grader: str
    repairs: tuple[Repair, ...]
    command: str
    cwd: str
    runtime: str
    sandbox: str
    limits: Limits
    checks: tuple[CheckResult, ...]
    before: Outcome
    after: Outcome
    seconds: float
    at: str
    notes: tuple[str, ...]

    @property
    def broken(self) -> tuple[str, ...]:
        """Checks that passed as recorded and in the control run but not with the repairs."""
        return tuple(c.key for c in self.checks if c.recorded == "pass" and c.before == "pass" and c.after != "pass")


def compare_grader(store: Store, run: Run, grader_name: str, repairs: tuple[Repair, ...], *,
                   options: Options = Options(), tool: Tool | None = None, cancel: Callable[[], bool] = lambda: False,
                   progress: Progress = lambda _m, _f: None) -> Comparison:
    """Run ``grader_name`` of ``run`` as recorded and with ``repairs``; compare every check.
    Raises SandboxUnavailable, NotRerunnable or Cancelled; writes nothing."""
    if not repairs:
        raise NotRerunnable("no repair given: a re-score needs at least one repair to try")
    grader, rerun = rerun_of(run, grader_name)
    tool = tool or require_sandbox()
    wanted = parse_runtime(rerun.runtime)
    try:
        found = runtimes(wanted, options.python)
    except RuntimeMissing as exc:
        raise NotRerunnable(str(exc)) from None
    limits = replace(options.limits, wall_seconds=options.wall_seconds or rerun.time_limit)
    limits = replace(limits, cpu_seconds=min(limits.cpu_seconds, max(1, int(limits.wall_seconds) + 1)))
    started = time.monotonic()
    progress("control run (as recorded)", 0.05)
    before_run = one_run(tool, store, run, grader, rerun, (), found, limits, cancel)
    progress("repaired run", 0.5)
    after_run = one_run(tool, store, run, grader, rerun, repairs, found, limits, cancel)
    progress("comparing", 0.95)
    before, after = before_run[0], after_run[0]
    checks = compare(recorded_checks(store, run, grader_name), before_run, after_run)
    notes = []
    differ = [c.key for c in checks if c.recorded != MISSING and verdict_word(c.recorded) != verdict_word(c.before)]
    if differ:
        notes.append(f"the control run differs from the recorded output on {count(len(differ), 'check')}: {', '.join(differ[:5])}")
    for label, outcome in (("control", before), ("repaired", after)):
        if outcome.stopped or outcome.limit:
            notes.append(f"{label} run stopped: {outcome.stopped or outcome.limit}")
    comparison = Comparison(run.key, grader_name, repairs, rerun.command, rerun.cwd, describe(found, wanted),
                            tool.version, limits, checks, before, after, time.monotonic() - started, utc_now(),
                            tuple(notes))
    progress("done", 1.0)
    return comparison


def rescore_grader(store: Store, run: Run, grader_name: str, repairs: tuple[Repair, ...],
                   failures: list[Failure], *, options: Options = Options(), tool: Tool | None = None,
                   cancel: Callable[[], bool] = lambda: False, progress: Progress = lambda _m, _f: None) -> tuple[Rescore, ...]:
    """Re-score ``failures`` (all of ``grader_name`` in ``run``) with ``repairs``: one control run,
    one repaired run (:func:`compare_grader`), a result per failure. Writes nothing."""
    c = compare_grader(store, run, grader_name, repairs, options=options, tool=tool, cancel=cancel, progress=progress)
    by_key = {row.key: row for row in c.checks}
    results = []
    for f in failures:
        row = by_key.get(f.check.key, CheckResult(f.check.key, f.check.status.value, MISSING, MISSING))
        reproduced = row.before not in ("pass", MISSING)
        results.append(Rescore(
            failure=f.id, run_key=run.key, grader=grader_name, check=f.check.key, repairs=repairs,
            evidence=evidence_hash(store, run, f), command=c.command, cwd=c.cwd, runtime=c.runtime,
            sandbox=c.sandbox, limits=c.limits, recorded=row.recorded, before=row.before, after=row.after,
            flipped=reproduced and row.after == "pass", reproduced=reproduced, checks=c.checks,
            output_before=c.before.output, output_after=c.after.output, exit_before=c.before.exit_status,
            exit_after=c.after.exit_status, stopped_before=c.before.stopped or c.before.limit,
            stopped_after=c.after.stopped or c.after.limit, seconds=c.seconds, at=c.at, notes=c.notes))
    return tuple(results)


def rescore(store: Store, run: Run, failure: Failure, repairs: tuple[Repair, ...], *,
            options: Options = Options(), cancel: Callable[[], bool] = lambda: False,
            progress: Progress = lambda _m, _f: None) -> Rescore:
    """Re-score one failure (the app's entry point: call it from a worker)."""
    return rescore_grader(store, run, failure.grader, repairs, [failure], options=options, cancel=cancel,
                          progress=progress)[0]

