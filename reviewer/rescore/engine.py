"""One re-score: the recorded grader run again on the recorded program, once as recorded (the
control) and once with only the notation repaired, both in the sandbox; every check compared.

A check *flips* when it failed in the recorded output, still fails in the control run, and
passes with the repairs. The control is what makes a flip evidence: a check that already passes
in the sandbox without any repair (another interpreter, another machine) proves nothing, and
the result says so (``reproduced`` false). A re-score is evidence, never a label.

:func:`rescore_grader` is what a worker calls (cancel check, progress callback, frozen result);
it never writes the record (:mod:`reviewer.rescore.record` does).

A re-score is made in two places that may be two machines. Where the sessions folder is,
:func:`grading` reads everything recorded the runs need into a :class:`Grading` (bytes, the
table, the recorded checks; nothing of it refers to the folder). Where the sandbox is,
:func:`compare_task` (or :func:`observe_task`) finds the runtimes, lays the bytes out and runs
them: the same function on this machine and on a cluster's worker. Back where the folder is,
:func:`rescores` turns the comparison into one result per failure.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import field, replace
from datetime import UTC, datetime

from reviewer.model import Failure, GraderRecord, Run
from reviewer.model.check import Check, CheckStatus
from reviewer.model.limits import limit_in
from reviewer.model.observation import STREAM_CUT, Invocation, Observation
from reviewer.model.records import record
from reviewer.model.repair import LIMITS, Repair, RepairKind, describe_repair
from reviewer.model.rerun import Rerun, parse_runtime
from reviewer.model.wording import count
from reviewer.parsers import detect_format, parse_output
from reviewer.parsers.fallback import KEY as FALLBACK_KEY
from reviewer.parsers.unreadable import KEY as UNREADABLE_KEY
from reviewer.rescore.layout import StagingError, fresh_staging
from reviewer.rescore.runtime import Found, RuntimeMissing, describe, runtimes
from reviewer.rescore.sandbox import (
    INSIDE,
    Cancelled,
    Limits,
    Outcome,
    Tool,
    require_sandbox,
    run_sandboxed,
)
from reviewer.rescore.stage import Inputs, StagingCancelled, gather, lay_out
from reviewer.store.sessions.fingerprint import evidence_hash
from reviewer.store.sessions.protocol import Store

MESSAGE_CAP = 4000
MISSING = "missing"
OBSERVE = f"{INSIDE}/obs"
"""Where the observing shim notes each run of the program (the sandbox's own tmpfs)."""
REPORT_MARK = "--report--"
GO_FORMATS = ("go-test-json", "go-test-v")
STREAM_KEEP = 96 << 10
MAX_INVOCATIONS = 200
MAX_REVEALED = 2
"""Repaired runs repeated at most, each time lifting a limit the one before revealed."""
START = (
    f'mkdir -p {INSIDE}/home {INSIDE}/tmp {INSIDE}/cache {OBSERVE} && cp -R {INSIDE}/in/ws {INSIDE}/run '
    f'&& cd "{INSIDE}/run/$1" || exit 125; '
    # The grader's output goes through a pipe made inside the sandbox, so a grader that opens
    # /dev/stdout by name (pytest --junitxml=/dev/stdout) can, as the sandbox's own user.
    # The run's own environment (the [grader.rerun] env, from $6 on) is set by env(1) for the grader
    # only, inside every limit: nothing of it reaches bubblewrap, prlimit or this script.
    'if [ -z "$3" ]; then /usr/bin/env -- "${@:6}" /bin/bash -c "$2" 2>&1 | cat; exit "${PIPESTATUS[0]}"; fi; '
    # The side channel (notes of the program's runs, the report file) is fd 9 for this script only:
    # the grader runs without it, under a time limit a little below the watchdog's, so its notes
    # are sent even when it runs out of time.
    'exec 9>&"$3"; eval "exec $3>&-"; '
    'timeout -k 2 "$4" /usr/bin/env -- "${@:6}" /bin/bash -c "$2" 9>&- 2>&1 | cat; s="${PIPESTATUS[0]}"; '
    'printf \'{"status": %d}\\n\' "$s" >&9; '
    f'for f in {OBSERVE}/*.json; do [ -f "$f" ] && [ ! -L "$f" ] && cat -- "$f" >&9 && echo >&9; done; '
    f'[ -f {OBSERVE}/dropped ] && printf \'{{"dropped": %d}}\\n\' "$(wc -c < {OBSERVE}/dropped)" >&9; '
    f'r="{INSIDE}/run/$5"; if [ -n "$5" ] && [ -f "$r" ] && [ ! -L "$r" ]; then echo "{REPORT_MARK}" >&9; '
    'head -c 4000000 -- "$r" >&9; fi; '
    'exit $s'
)
Progress = Callable[[str, float], None]
STATED_FLIP = "a flip only by changing what the brief states: evidence for capability"


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
    observation: Observation | None = None
    memory: str = ""
    """How the sandbox bounded memory (a cgroup, or a watchdog)."""
    stated: str = ""
    """Why the repairs change what the brief states ("" when they do not): a check they flip is
    then evidence for capability (the program ignored the brief), never a flip of notation."""

    @property
    def flipped_by_stated(self) -> bool:
        """The check passes only once the repairs change what the brief states."""
        return bool(self.stated) and self.reproduced and self.after == "pass"

    def passing(self, which: str) -> tuple[int, int]:
        """(checks passing, checks) in ``recorded``, ``before`` or ``after``."""
        return sum(1 for c in self.checks if getattr(c, which) == "pass"), len(self.checks)

    def note(self) -> str:
        """A note to pre-fill when labelling after this re-score."""
        return f"re-scored in the sandbox: {self.summary()}"

    def summary(self) -> str:
        """``3/9 -> 9/9 with key steps->mults``: the grader's passing checks, recorded then repaired
        (and, for repairs of what the brief states, that a flip is evidence for capability)."""
        b, n = self.passing("recorded")
        a, _ = self.passing("after")
        text = f"{b}/{n} -> {a}/{n} with " + (", ".join(describe_repair(r) for r in self.repairs) or "no repair")
        if self.stated:
            text += f" ({STATED_FLIP}: {self.stated})"
        return text


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
    """The clean environment inside: fixed basics, the runtimes', the repairs' (the table's own is
    set for the grader alone, inside the limits: :data:`START`)."""
    path = [p for f in found for p in f.path] + ["/usr/local/bin", "/usr/bin", "/bin"]
    env = {"PATH": ":".join(dict.fromkeys(path)), "HOME": f"{INSIDE}/home", "TMPDIR": f"{INSIDE}/tmp",
           "USER": "sandbox", "LOGNAME": "sandbox", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC",
           "TERM": "dumb", "COLUMNS": "100", "LINES": "40", "PYTHONHASHSEED": "0",
           "PYTHONDONTWRITEBYTECODE": "1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    for f in found:
        env.update(f.env)
    env.update(extra)
    return env


@record
class Ran:
    """One run of the grader in the sandbox: what it did, its checks, what was seen of the program.

    Attributes:
        outcome: the sandbox's outcome (exit status, output, why it was stopped).
        checks: the checks read from its output (or its report file).
        readable: the output (or report) was read as the grader's format; False when it was
            not (its checks then say nothing, and an absent check never counts as a pass).
        problem: why it was not readable ("" when it was).
        observation: the program's runs, when they were observed.
    """

    outcome: Outcome
    checks: tuple[Check, ...]
    readable: bool = True
    problem: str = ""
    observation: Observation | None = None


@record
class Grading:
    """One grading to run in the sandbox, whole: what a worker needs, and nothing that refers to
    the sessions folder (the recorded files are bytes in ``inputs``). Made by :func:`grading`.

    Attributes:
        run_key: ``<session>/<run>``.
        grader: the grader's name.
        format: the grader's recorded output format ("" to detect).
        rerun: its ``[grader.rerun]`` table (usable: :func:`rerun_of` checked it).
        inputs: the recorded files the runs lay out.
        recorded: the checks as recorded (what the runs are compared with).
        repairs: the repairs to try (none for an observation).
        options: the Python (a path where the sandbox runs) and the limits.
        lifts: the interpreter limits a repaired run may reveal that may be lifted too (those
            the brief does not name).
        observe_only: run once as recorded and note the program's runs (``--observe``).
    """

    run_key: str
    grader: str
    format: str
    rerun: Rerun
    inputs: Inputs
    recorded: tuple[Check, ...] = ()
    repairs: tuple[Repair, ...] = ()
    options: Options = Options()
    lifts: tuple[str, ...] = LIMITS
    observe_only: bool = False

    @property
    def grading_id(self) -> str:
        """``<session>/<run>#<grader>``."""
        return f"{self.run_key}#{self.grader}"


def grading(store: Store, run: Run, grader_name: str, repairs: tuple[Repair, ...] = (), *,
            options: Options = Options(), allowed: Callable[[Repair], bool] = lambda _r: True,
            observe_only: bool = False) -> Grading:
    """Everything recorded the re-runs of ``grader_name`` need, read now through the store's
    reader; NotRerunnable (no usable table, no repair to try, nothing to observe, a recorded
    file that cannot be read). Runs nothing."""
    grader, rerun = rerun_of(run, grader_name)
    if observe_only and not rerun.program:
        raise NotRerunnable(f"grader {grader_name!r} of {run.key} names no program in [grader.rerun] (`program`), so "
                            "there is no program to observe: the checker runs the code in its own process, or the "
                            "importer was not told (reviewer import ... --program FILE)")
    if not observe_only and not repairs:
        raise NotRerunnable("no repair given: a re-score needs at least one repair to try")
    try:
        inputs = gather(store.root, run, grader, rerun)
    except StagingError as exc:
        raise NotRerunnable(str(exc)) from None
    lifts = tuple(name for name in LIMITS if allowed(Repair(RepairKind.LIFT_LIMIT, (name,))))
    recorded = () if observe_only else recorded_checks(store, run, grader_name)
    return Grading(run.key, grader_name, grader.format, rerun, inputs, recorded, tuple(repairs), options, lifts,
                   observe_only)


def one_run(tool: Tool, task: Grading, repairs: tuple[Repair, ...], found: tuple[Found, ...], limits: Limits,
            cancel: Callable[[], bool], observe: bool = False) -> Ran:
    """Lay out and run the grader once; its outcome, parsed checks and (``observe``, with a
    declared ``program``) the program's runs."""
    rerun = task.rerun
    watch = observe and bool(rerun.program)
    with fresh_staging() as staging:
        try:
            staged = lay_out(task.inputs, rerun, repairs, staging, found[0], OBSERVE if watch else "", cancel)
        except StagingCancelled:
            raise Cancelled("the re-score was cancelled") from None
        except StagingError as exc:
            raise NotRerunnable(str(exc)) from None
        binds = [b for f in found for b in f.binds]
        env = environment(found, rerun, staged.env)
        side = os.pipe() if watch or rerun.report else None
        extra = [str(side[1]), f"{inner_seconds(limits.wall_seconds):g}", rerun.report] if side else ["", "", ""]
        own = [f"{name}={value}" for name, value in rerun.env]
        outcome = run_sandboxed(tool, staging, ["/bin/bash", "-c", START, "rescore", rerun.cwd, rerun.command, *extra, *own],
                                binds=binds, env=env, limits=limits, cancel=cancel, side=side)
    status, notes, dropped, report = read_side(outcome.side)
    if side is not None and status is not None and outcome.exit_status == 0 and status != 0:
        outcome = replace(outcome, exit_status=status)
    if side is not None and status == 124 and not outcome.stopped:
        outcome = replace(outcome, stopped=f"time limit ({inner_seconds(limits.wall_seconds):g} s inside the sandbox)")
    text = outcome.output
    if rerun.report:
        text = report if report is not None else ""
    fmt = rerun.format or task.format or None
    checks, problem = parse_rerun(text, fmt, outcome.exit_status, rerun.report if report is None else "")
    observation = None
    if watch:
        observation = Observation(task.grading_id, rerun.program, utc_now(), tuple(invocations(notes)),
                                  dropped + max(0, len(notes) - MAX_INVOCATIONS), outcome.exit_status,
                                  outcome.stopped or outcome.limit)
    return Ran(outcome, tuple(checks), not problem, problem, observation)


def inner_seconds(wall: float) -> float:
    """The grader's own time limit inside the sandbox: a little below the watchdog's, so that what
    it saw is still sent when it runs out of time."""
    return max(1.0, round(wall - min(5.0, wall * 0.2), 1))


def read_side(side: bytes) -> tuple[int | None, list[dict[str, object]], int, str | None]:
    """(the grader's exit status, the notes of the program's runs, runs not noted, the report
    file's text or None) from the side channel."""
    text = side.decode("utf-8", "replace")
    head, mark, report = text.partition(f"\n{REPORT_MARK}\n")
    status: int | None = None
    dropped = 0
    notes: list[dict[str, object]] = []
    for line in head.splitlines():
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if not isinstance(value, dict):
            continue
        if set(value) == {"status"} and isinstance(value["status"], int):
            status = value["status"]
        elif set(value) == {"dropped"} and isinstance(value["dropped"], int):
            dropped = value["dropped"]
        else:
            notes.append(value)
    return status, notes, dropped, report if mark else None


def kept(value: object) -> str:
    """A noted stream as text, cut to :data:`STREAM_KEEP` characters (head and tail)."""
    text = value if isinstance(value, str) else ""
    if len(text) <= STREAM_KEEP:
        return text
    half = STREAM_KEEP // 2
    return text[:half] + STREAM_CUT + text[-half:]


def invocations(notes: list[dict[str, object]]) -> list[Invocation]:
    """The notes the shim made, as invocations (a note that is not one is skipped)."""
    out = []
    for n in notes[:MAX_INVOCATIONS]:
        argv, status, cut, seconds = n.get("argv"), n.get("exit_status"), n.get("cut"), n.get("seconds")
        if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
            continue
        out.append(Invocation(
            argv=tuple(a[:1000] for a in argv[:100]), stdin=kept(n.get("stdin")), stdout=kept(n.get("stdout")),
            stderr=kept(n.get("stderr")), exit_status=status if isinstance(status, int) and not isinstance(status, bool) else None,
            test=kept(n.get("test"))[:500],
            cut=tuple(c for c in cut if c in ("stdin", "stdout", "stderr")) if isinstance(cut, list) else (),
            seconds=float(seconds) if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) else 0.0))
    return out


def parse_rerun(text: str, fmt: str | None, exit_status: int | None, missing_report: str = "") -> tuple[list[Check], str]:
    """The checks of a re-run's output, and why it could not be read ("" when it could).

    Output the declared format cannot read is never a pass: it gives no checks of the grader's,
    only the reason (a re-run that prints pytest's text where JUnit XML is declared, or writes
    no report)."""
    if missing_report:
        return [], f"the re-run wrote no report at {missing_report} (the [grader.rerun] `report`)"
    if fmt in GO_FORMATS:  # go test prints -json events or -v lines (and a build failure plain lines either way)
        found = detect_format(text)
        fmt = found if found in GO_FORMATS else fmt
    checks = parse_output(text, fmt, exit_status=exit_status)
    bad = next((c for c in checks if c.key == UNREADABLE_KEY), None)
    if bad is not None:
        return [], bad.message.split("\n", 1)[0]
    if fmt and fmt != "fallback" and len(checks) == 1 and checks[0].key == FALLBACK_KEY:
        return [], f"the re-run's output is not {fmt} output (declare what it prints with [grader.rerun] `format`)"
    return checks, ""


def status_in(checks: dict[str, Check], key: str, ran: Ran) -> tuple[str, str]:
    """A check's status in one run, and its text. A check absent from a readable output of a
    grader that exited 0 passed (a build failure that is gone once the files are where they
    belong); absent from an output that could not be read, it is an error."""
    if key in checks:
        return checks[key].status.value, checks[key].message
    if not ran.readable:
        return CheckStatus.ERROR.value, ran.problem
    if ran.outcome.exit_status == 0 and not ran.outcome.stopped:
        return "pass", "absent from the output, and the grader exited 0"
    return MISSING, ""


def compare(recorded: tuple[Check, ...], before: Ran, after: Ran) -> tuple[CheckResult, ...]:
    """Every check that any of the three has, in recorded order, then new ones."""
    rec = {c.key: c for c in recorded}
    bef = {c.key: c for c in before.checks}
    aft = {c.key: c for c in after.checks}
    out = []
    for k in dict.fromkeys([*rec, *bef, *aft]):
        r = rec[k].status.value if k in rec else MISSING
        b, _ = status_in(bef, k, before)
        a, text = status_in(aft, k, after)
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
    observation: Observation | None = None

    @property
    def broken(self) -> tuple[str, ...]:
        """Checks that passed as recorded and in the control run but not with the repairs."""
        return tuple(c.key for c in self.checks if c.recorded == "pass" and c.before == "pass" and c.after != "pass")


@record
class Prepared:
    """What a grading needs to run in the sandbox here: the tool, the runtimes, the limits."""

    tool: Tool
    found: tuple[Found, ...]
    runtime: str
    limits: Limits


def prepare(rerun: Rerun, options: Options, tool: Tool | None) -> Prepared:
    """A working sandbox here and the runtimes the table names; NotRerunnable or
    SandboxUnavailable otherwise (nothing runs)."""
    tool = tool or require_sandbox()
    wanted = parse_runtime(rerun.runtime)
    try:
        found = runtimes(wanted, options.python)
    except RuntimeMissing as exc:
        raise NotRerunnable(str(exc)) from None
    limits = replace(options.limits, wall_seconds=options.wall_seconds or rerun.time_limit)
    limits = replace(limits, cpu_seconds=min(limits.cpu_seconds, max(1, int(limits.wall_seconds) + 1)))
    return Prepared(tool, found, describe(found, wanted), limits)


def control_problem(before: Ran) -> None:
    """NotRerunnable when the control run's output could not be read: nothing can be compared."""
    if not before.readable:
        tail = before.outcome.output.strip()[-600:]
        raise NotRerunnable(f"the control run's output could not be read ({before.problem}); nothing is decided"
                            + (f". Its last lines:\n{tail}" if tail else ""))


def revealed(ran: Ran, repairs: tuple[Repair, ...]) -> tuple[Repair, ...]:
    """Interpreter limits a repaired run died on that no repair lifts yet (lifting one limit
    lets a program run on into the next: a recursion lifted, its 31,000-digit result dies in
    ``print``)."""
    lifted = {r.args[0] for r in repairs if r.kind is RepairKind.LIFT_LIMIT}
    texts = [i.stderr for i in ran.observation.invocations if i.failed] if ran.observation is not None else [ran.outcome.output]
    out: list[Repair] = []
    for text in texts:
        limit = limit_in(text[-20_000:])
        if limit is not None and limit.repair and limit.repair not in lifted:
            lifted.add(limit.repair)
            out.append(Repair(RepairKind.LIFT_LIMIT, (limit.repair,), f"revealed in the repaired run: {limit.name}"))
    return tuple(out)


def compare_grader(store: Store, run: Run, grader_name: str, repairs: tuple[Repair, ...], *,
                   options: Options = Options(), tool: Tool | None = None, cancel: Callable[[], bool] = lambda: False,
                   progress: Progress = lambda _m, _f: None,
                   allowed: Callable[[Repair], bool] = lambda _r: True) -> Comparison:
    """Run ``grader_name`` of ``run`` as recorded and with ``repairs`` here (:func:`grading`
    then :func:`compare_task`); ``allowed``: whether a limit the repaired run reveals may be lifted
    too. Raises SandboxUnavailable, NotRerunnable or Cancelled; writes nothing."""
    task = grading(store, run, grader_name, repairs, options=options, allowed=allowed)
    return compare_task(task, tool=tool, cancel=cancel, progress=progress)


def compare_task(task: Grading, *, tool: Tool | None = None, cancel: Callable[[], bool] = lambda: False,
                 progress: Progress = lambda _m, _f: None) -> Comparison:
    """Run the grading as recorded (observing the program when the table names it) and with its
    repairs; compare every check. An interpreter limit the repaired run reveals (one the first
    hid) is lifted too and the repaired run repeated, when ``task.lifts`` allows it. Raises
    SandboxUnavailable, NotRerunnable or Cancelled; reads no sessions folder, writes nothing."""
    repairs = task.repairs
    if not repairs:
        raise NotRerunnable("no repair given: a re-score needs at least one repair to try")
    ready = prepare(task.rerun, task.options, tool)
    started = time.monotonic()
    progress("control run (as recorded)", 0.05)
    before_run = one_run(ready.tool, task, (), ready.found, ready.limits, cancel, observe=True)
    control_problem(before_run)
    progress("repaired run", 0.5)
    notes = []
    after_run = one_run(ready.tool, task, repairs, ready.found, ready.limits, cancel, observe=True)
    for _ in range(MAX_REVEALED):
        more = tuple(r for r in revealed(after_run, repairs) if r.args[0] in task.lifts)
        if not more:
            break
        repairs = (*repairs, *more)
        notes.append("the repaired run died on another interpreter limit the first one hid: "
                     + ", ".join(r.args[0] for r in more) + " lifted too")
        progress("repaired run, another limit lifted", 0.75)
        after_run = one_run(ready.tool, task, repairs, ready.found, ready.limits, cancel, observe=True)
    progress("comparing", 0.95)
    before, after = before_run.outcome, after_run.outcome
    checks = compare(task.recorded, before_run, after_run)
    differ = [c.key for c in checks if c.recorded != MISSING and verdict_word(c.recorded) != verdict_word(c.before)]
    if differ:
        notes.append(f"the control run differs from the recorded output on {count(len(differ), 'check')}: {', '.join(differ[:5])}")
    for label, outcome in (("control", before), ("repaired", after)):
        if outcome.stopped or outcome.limit:
            notes.append(f"{label} run stopped: {outcome.stopped or outcome.limit}")
    if not after_run.readable:
        notes.append(f"the repaired run's output could not be read: {after_run.problem}")
    comparison = Comparison(task.run_key, task.grader, tuple(repairs), task.rerun.command, task.rerun.cwd, ready.runtime,
                            ready.tool.version, ready.limits, checks, before, after, time.monotonic() - started,
                            utc_now(), tuple(notes), before_run.observation)
    progress("done", 1.0)
    return comparison


def observe_grader(store: Store, run: Run, grader_name: str, *, options: Options = Options(), tool: Tool | None = None,
                   cancel: Callable[[], bool] = lambda: False,
                   progress: Progress = lambda _m, _f: None) -> Observation:
    """Run ``grader_name`` of ``run`` once as recorded, here, and note every run of the program
    it names (:func:`grading` then :func:`observe_task`). Raises NotRerunnable (no ``program``
    declared: nothing to observe), SandboxUnavailable or Cancelled; writes nothing."""
    task = grading(store, run, grader_name, options=options, observe_only=True)
    return observe_task(task, tool=tool, cancel=cancel, progress=progress)


def observe_task(task: Grading, *, tool: Tool | None = None, cancel: Callable[[], bool] = lambda: False,
                 progress: Progress = lambda _m, _f: None) -> Observation:
    """Run the grading once as recorded and note every run of the program it names. Raises
    NotRerunnable, SandboxUnavailable or Cancelled; reads no sessions folder, writes nothing."""
    if not task.rerun.program:
        raise NotRerunnable(f"grader {task.grader!r} of {task.run_key} names no program in [grader.rerun] (`program`): "
                            "there is no program to observe")
    ready = prepare(task.rerun, task.options, tool)
    progress("control run (as recorded), observing the program", 0.05)
    ran = one_run(ready.tool, task, (), ready.found, ready.limits, cancel, observe=True)
    progress("done", 1.0)
    assert ran.observation is not None
    return ran.observation


def rescore_grader(store: Store, run: Run, grader_name: str, repairs: tuple[Repair, ...],
                   failures: list[Failure], *, options: Options = Options(), tool: Tool | None = None,
                   cancel: Callable[[], bool] = lambda: False, progress: Progress = lambda _m, _f: None,
                   stated: str = "", allowed: Callable[[Repair], bool] = lambda _r: True) -> tuple[Rescore, ...]:
    """Re-score ``failures`` (all of ``grader_name`` in ``run``) with ``repairs``: one control run,
    one repaired run (:func:`compare_grader`), a result per failure. ``stated``: why the repairs
    change what the brief states, when they do (a check they flip is then no flip of notation).
    Writes nothing."""
    c = compare_grader(store, run, grader_name, repairs, options=options, tool=tool, cancel=cancel, progress=progress,
                       allowed=allowed)
    return rescores(store, run, c, failures, stated)


def rescores(store: Store, run: Run, c: Comparison, failures: list[Failure], stated: str = "") -> tuple[Rescore, ...]:
    """One result per failure of the compared grading (``stated``: why its repairs change what
    the brief states, when they do; a check they flip is then no flip of notation)."""
    repairs = c.repairs
    by_key = {row.key: row for row in c.checks}
    results = []
    for f in failures:
        row = by_key.get(f.check.key, CheckResult(f.check.key, f.check.status.value, MISSING, MISSING))
        reproduced = row.before not in ("pass", MISSING)
        results.append(Rescore(
            failure=f.id, run_key=run.key, grader=c.grader, check=f.check.key, repairs=repairs,
            evidence=evidence_hash(store, run, f), command=c.command, cwd=c.cwd, runtime=c.runtime,
            sandbox=c.sandbox, limits=c.limits, recorded=row.recorded, before=row.before, after=row.after,
            flipped=reproduced and row.after == "pass" and not stated, reproduced=reproduced, checks=c.checks,
            output_before=c.before.output, output_after=c.after.output, exit_before=c.before.exit_status,
            exit_after=c.after.exit_status, stopped_before=c.before.stopped or c.before.limit,
            stopped_after=c.after.stopped or c.after.limit, seconds=c.seconds, at=c.at, notes=c.notes,
            observation=c.observation, memory=c.after.memory, stated=stated))
    return tuple(results)


def rescore(store: Store, run: Run, failure: Failure, repairs: tuple[Repair, ...], *,
            options: Options = Options(), cancel: Callable[[], bool] = lambda: False,
            progress: Progress = lambda _m, _f: None) -> Rescore:
    """Re-score one failure (the app's entry point: call it from a worker)."""
    return rescore_grader(store, run, failure.grader, repairs, [failure], options=options, cancel=cancel,
                          progress=progress)[0]

