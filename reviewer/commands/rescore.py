"""``reviewer rescore``: re-run a failure's grader with only the notation repaired, in the sandbox.

``rescore [PATH] --failure ID [--failure ID]... [--repair KIND:ARGS]...`` re-scores the named
failures with the given repairs (without ``--repair``: with those the evidence proposes);
``--all-proposed`` re-scores every failure the evidence proposes a repair for. Failures of the
same grading share one control run and one repaired run; gradings run in parallel: ``-j N``
threads here (default: the cores this process may use), or with ``--cluster ADDRESS`` on the
workers of the user's Dask cluster (:mod:`reviewer.parallel`). Each grading goes as a task that
carries its recorded files as bytes (:func:`reviewer.rescore.engine.grading`), runs in the
sandbox where it lands (:func:`reviewer.rescore.wire.perform`) and comes back as JSON read as
data; every result is saved here, by this thread alone, in ``<session>/rescores/<reviewer>.toml``
as soon as it is known, and printed: a line each, or with ``--json`` one JSON object per line.
Ctrl-C stops: running sandboxes are killed, results already back are kept, and nothing new starts.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reviewer.model import Failure, Run
from reviewer.model.check import split_failure_id
from reviewer.model.observation import Observation
from reviewer.model.records import record
from reviewer.model.repair import (
    BadRepair,
    Repair,
    RepairKind,
    format_repair,
    parse_repair,
    usage,
)
from reviewer.model.sanitize import plain
from reviewer.model.wording import count
from reviewer.parallel import ClusterUnavailable, Done, Executor, connect, default_jobs, local_pool
from reviewer.rescore.engine import Grading, NotRerunnable, Options, Rescore, grading, rescores
from reviewer.rescore.sandbox import Cancelled, Limits, SandboxUnavailable
from reviewer.rescore.wire import perform, read_result, read_worker_check, worker_check
from reviewer.store.sessions.protocol import Store
from reviewer.store.sessions.store import SessionStore

if TYPE_CHECKING:
    from reviewer.analysis.evidence.engine import Evidence
    from reviewer.store.sessions.inplace import LogSource

EXIT = """exit status:
  0  every re-score (or observation) ran and was saved (whether or not a check flipped)
  1  a failure is unknown, a grading cannot be re-run, a repair is not one of notation,
     a record could not be saved, failures had proposed repairs and none could run, or
     --cluster cannot be used (the extra not installed, no scheduler at ADDRESS: nothing run)
  2  bad usage (a --repair that is not KIND:ARGS, -j with --cluster), or PATH is not a folder
  3  no working bubblewrap sandbox here, or with --cluster on a worker: nothing was run
130  interrupted (Ctrl-C): the sandboxes were killed, results already back are saved"""

REPAIR_HELP = "a repair, repeatable, applied in order: " + "; ".join(usage(k) for k in RepairKind) + \
    ". In ARGS write \\: for a colon, \\s for a space, \\\\ for a backslash."


@record(frozen=False, slots=False)
class Job:
    """One grading to re-score: its failures and the repairs to try."""

    run: Run
    grader: str
    repairs: list[Repair] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    stated: str = ""
    """Why the repairs change what the brief states ("" when they do not)."""
    allowed: Callable[[Repair], bool] = lambda _r: True
    """Whether a limit the repaired run reveals may be lifted too (the brief does not name it)."""


def find_failure(store: Store, failure_id: str) -> tuple[Run, Failure]:
    """The run and failure of an id; LookupError with a plain reason."""
    try:
        session, run_id, check = split_failure_id(failure_id)
    except ValueError as exc:
        raise LookupError(str(exc)) from None
    run = store.run(f"{session}/{run_id}")
    if run is None:
        raise LookupError(f"no run {session}/{run_id} in {store.root}")
    for f in store.failures(run):
        if f.check_id == check:
            return run, f
    raise LookupError(f"run {session}/{run_id} has no failing check {check!r}")


def evidence(store: Store, run: Run, failure: Failure) -> Evidence:
    """The failure's evidence (what the strip shows)."""
    from reviewer.analysis.evidence.engine import evidence_for

    return evidence_for(store, run, failure)


def add(jobs: dict[tuple[str, str], Job], run: Run, failure: Failure, repairs: tuple[Repair, ...],
        stated: str = "", ev: Evidence | None = None) -> None:
    """Put a failure into its grading's job, adding repairs not there yet."""
    job = jobs.setdefault((run.key, failure.grader), Job(run, failure.grader))
    job.failures.append(failure)
    job.stated = job.stated or stated
    if ev is not None:
        job.allowed = lambda r: ev.guard.judge(r).notation_only
    for r in repairs:
        if all((x.kind, x.args) != (r.kind, r.args) for x in job.repairs):
            job.repairs.append(r)


@record(frozen=False, slots=False)
class Planned:
    """What the arguments ask for: the jobs, the problems to report, and the failures whose
    proposed repairs no recorded re-run can apply (with why)."""

    jobs: list[Job] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)


def plan(store: Store, args: argparse.Namespace, repairs: tuple[Repair, ...]) -> Planned:
    """The jobs the arguments ask for; unknown failures, failures without proposals and repairs
    the guard refuses go to ``problems``."""
    from reviewer.analysis.evidence.decidable import rerun_missing, runnable
    from reviewer.analysis.evidence.proposals import propose

    jobs: dict[tuple[str, str], Job] = {}
    out = Planned()
    if args.all_proposed:
        for run in store.runs:
            for f in store.failures(run):
                ev = evidence(store, run, f)
                found = propose(ev)
                usable = tuple(r for r in found if runnable(ev.rerun, r))
                if usable:
                    add(jobs, run, f, usable, ev=ev)
                elif found:
                    out.blocked.append(f"{f.id}: {rerun_missing(ev.rerun, True)}")
        out.jobs = list(jobs.values())
        return out
    for fid in args.failure:
        try:
            run, f = find_failure(store, fid)
        except LookupError as exc:
            out.problems.append(str(exc))
            continue
        ev = evidence(store, run, f)
        if repairs:
            verdicts = [ev.guard.judge(r, repairs) for r in repairs]
            refused = [j for j in verdicts if j.refused]
            if refused:
                out.problems.append(f"{fid}: not a repair of notation, not run: {refused[0].describe()}")
                continue
            stated = "; ".join(j.describe() for j in verdicts if j.stated)
            add(jobs, run, f, repairs, stated, ev)
            continue
        found = propose(ev)
        if not found:
            from reviewer.analysis.evidence.proposals import judged

            held = [j.describe() for j in judged(ev) if not j.notation_only]
            why = f" (not proposed: {'; '.join(held)})" if held else ""
            out.problems.append(f"{fid}: the evidence proposes no repair of notation{why}; give one with --repair KIND:ARGS")
            continue
        usable = tuple(r for r in found if runnable(ev.rerun, r))
        if not usable:
            out.problems.append(f"{fid}: {rerun_missing(ev.rerun, True)}")
            continue
        add(jobs, run, f, usable, ev=ev)
    out.jobs = list(jobs.values())
    return out


def observing(store: Store, args: argparse.Namespace) -> Planned:
    """The gradings ``--observe`` asks for: those of the named failures, else every grading with
    a failing check whose ``[grader.rerun]`` names the program the checker runs."""
    jobs: dict[tuple[str, str], Job] = {}
    out = Planned()
    if args.failure:
        for fid in args.failure:
            try:
                run, f = find_failure(store, fid)
            except LookupError as exc:
                out.problems.append(str(exc))
                continue
            add(jobs, run, f, ())
    else:
        for run in store.runs:
            for f in store.failures(run):
                g = run.grader(f.grader)
                if g is not None and g.rerun is not None and not g.rerun.problem and g.rerun.program:
                    add(jobs, run, f, ())
    out.jobs = list(jobs.values())
    return out


def as_json(r: Rescore, record: str) -> dict[str, Any]:
    """One result as the JSON object ``--json`` prints."""
    word = {"pass": "pass"}
    return {
        "failure": r.failure, "repairs": [format_repair(x) for x in r.repairs],
        "recorded": word.get(r.recorded, "fail"), "before": word.get(r.before, "fail"),
        "after": word.get(r.after, "fail"), "flipped": r.flipped, "reproduced": r.reproduced,
        "summary": r.summary(),
        "checks": [{"key": c.key, "recorded": c.recorded, "before": c.before, "after": c.after} for c in r.checks],
        "record": record, "command": r.command, "cwd": r.cwd, "runtime": r.runtime, "sandbox": r.sandbox,
        "limits": r.limits.as_table(), "stopped": {"before": r.stopped_before, "after": r.stopped_after},
        "notes": list(r.notes), "seconds": round(r.seconds, 3), "evidence": r.evidence,
        "stated": r.stated, "flipped_by_stated": r.flipped_by_stated,
        "observed": r.observation.summary() if r.observation is not None else "",
    }


def as_line(r: Rescore, record: str) -> str:
    """One result as a line for people (and its notes below it)."""
    flip = ("FLIPPED" if r.flipped else "not reproduced" if not r.reproduced
            else "passes only by changing what the brief states: evidence for capability" if r.flipped_by_stated
            else "still failing")
    text = f"{r.failure}: {r.before} -> {r.after} ({flip}); grader {r.summary()}; saved in {record}"
    return "\n".join([plain(text), *(plain(f"  note: {n}") for n in r.notes)])


class Bar:
    """A one-line progress bar on stderr, when stderr is a terminal."""

    def __init__(self, total: int, stream: Any = None, what: str = "re-scored") -> None:
        self.total, self.done, self.what = total, 0, what
        self.stream = stream or sys.stderr
        self.on = total > 0 and self.stream.isatty()

    def step(self, n: int = 1) -> None:
        """Count ``n`` gradings done and redraw."""
        self.done += n
        if self.on:
            width = 30
            filled = int(width * self.done / self.total)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{count(self.total, 'grading')} {self.what}")
            self.stream.flush()

    def close(self) -> None:
        """End the bar's line."""
        if self.on:
            self.stream.write("\n")
            self.stream.flush()


def tasks_of(store: Store, jobs: list[Job], options: Options, observe: bool,
             refused: Callable[[Job, str], None]) -> Iterator[Grading]:
    """Each job as a task carrying its recorded files, read as the executor has room for it; a job
    whose grading cannot be run goes to ``refused`` instead."""
    for job in jobs:
        try:
            yield grading(store, job.run, job.grader, tuple(job.repairs), options=options, allowed=job.allowed,
                          observe_only=observe)
        except NotRerunnable as exc:
            refused(job, str(exc))


def run_jobs(store: Store, jobs: list[Job], options: Options, executor: Executor,
             emit: Callable[[list[Any] | None, Job, str], None], observe: bool = False) -> None:
    """Run the jobs on ``executor`` (re-scores, or with ``observe`` observations); ``emit(results,
    job, error)`` on the calling thread as each ends. On Ctrl-C the running sandboxes are killed,
    what already came back is emitted, and KeyboardInterrupt goes on up."""
    bar = Bar(len(jobs), what="observed" if observe else "re-scored")
    by_grading = {f"{job.run.key}#{job.grader}": job for job in jobs}

    def refused(job: Job, error: str) -> None:
        bar.step()
        emit(None, job, error)

    def handle(done: Done[Grading]) -> None:
        job = by_grading[done.task.grading_id]
        bar.step()
        if done.error:
            emit(None, job, done.error)
            return
        try:
            result = read_result(done.result, done.task)
        except Cancelled:
            return
        except Exception as exc:  # noqa: BLE001 - one grading's trouble must not stop the batch
            emit(None, job, str(exc) or type(exc).__name__)
            return
        if observe:
            emit([result], job, "")
        else:
            assert not isinstance(result, Observation)
            emit(list(rescores(store, job.run, result, job.failures, job.stated)), job, "")

    try:
        with executor.start(perform, tasks_of(store, jobs, options, observe, refused)) as batch:
            try:
                for done in batch:
                    handle(done)
            except KeyboardInterrupt:
                for done in batch.stop():
                    handle(done)
                raise
    finally:
        bar.close()


def sandbox_problems(executor: Executor) -> list[str]:
    """What keeps the executor's workers from re-scoring (each one's sandbox checked first)."""
    answers = executor.on_every_worker(worker_check)
    if not answers:
        return [f"{executor.where} has no worker"]
    return [f"{worker}: {problem}" for worker, text in sorted(answers.items()) if (problem := read_worker_check(text))]


def cmd_rescore(args: argparse.Namespace) -> int:
    """reviewer rescore."""
    from reviewer.commands.common import resolve_target

    try:
        repairs = tuple(parse_repair(text) for text in args.repair or ())
    except BadRepair as exc:
        print(plain(f"reviewer rescore: --repair: {exc}"), file=sys.stderr)
        return 2
    if args.observe and (repairs or args.all_proposed):
        print("reviewer rescore: --observe runs the grader as recorded: give it alone, or with --failure ID", file=sys.stderr)
        return 2
    if not args.observe and (bool(args.failure) == bool(args.all_proposed) or (args.all_proposed and repairs)):
        print("reviewer rescore: give --failure ID (with or without --repair), --all-proposed alone, or --observe",
              file=sys.stderr)
        return 2
    if args.cluster and args.jobs:
        print("reviewer rescore: --jobs is for this machine; on a cluster each worker runs as many re-scores as it has "
              "threads (dask worker --nthreads)", file=sys.stderr)
        return 2
    folder, logs = resolve_target(args.path)
    executor = open_executor(args)
    if isinstance(executor, int):
        return executor
    try:
        return rescore_on(executor, folder, logs, args, repairs)
    finally:
        executor.close()


def open_executor(args: argparse.Namespace) -> Executor | int:
    """Threads here (their sandbox checked), or the cluster (every worker's sandbox checked); the
    exit status when neither can run a re-score (nothing was run)."""
    from reviewer.rescore.sandbox import require_sandbox

    if not args.cluster:
        try:
            require_sandbox()
        except SandboxUnavailable as exc:
            print(plain(f"reviewer rescore: {exc}"), file=sys.stderr)
            return 3
        return local_pool(args.jobs or default_jobs())
    try:
        executor = connect(args.cluster)
    except ClusterUnavailable as exc:
        print(plain(f"reviewer rescore: {exc}"), file=sys.stderr)
        return 1
    try:
        problems = sandbox_problems(executor)
    except Exception as exc:  # noqa: BLE001 - a worker without reviewer, a scheduler gone: said, nothing run
        executor.close()
        print(plain(f"reviewer rescore: the workers of {executor.where} could not check their sandbox ({type(exc).__name__}: "
                    f"{exc}); each needs reviewer installed (pip install 'reviewer[cluster]') and bubblewrap. Nothing was run."),
              file=sys.stderr)
        return 1
    if problems:
        executor.close()
        print(plain(f"reviewer rescore: re-scores run only in a bubblewrap sandbox, and on {executor.where} "
                    f"{count(len(problems), 'worker')} cannot run one (install bubblewrap there). Nothing was run:"),
              file=sys.stderr)
        for problem in problems:
            print(plain(f"  {problem}"), file=sys.stderr)
        return 3
    return executor


def rescore_on(executor: Executor, folder: Path, logs: tuple[LogSource, ...], args: argparse.Namespace,
               repairs: tuple[Repair, ...]) -> int:
    """Plan, run on ``executor``, save and print; the exit status (``logs``: a harness log named
    instead of a folder, read in place)."""
    from reviewer.rescore.record import save, save_observations
    from reviewer.store.settings.identity import resolve_reviewer

    store = SessionStore(folder, logs=logs)
    store.scan()
    reviewer = resolve_reviewer(args.reviewer)
    planned = observing(store, args) if args.observe else plan(store, args, repairs)
    for p in planned.problems:
        print(plain(f"reviewer rescore: {p}"), file=sys.stderr)
    limits = Limits(memory_mb=args.memory_mb, processes=args.processes)
    options = Options(python=args.python, limits=limits, wall_seconds=args.time_limit)
    failed = [bool(planned.problems)]

    def emit(results: list[Any] | None, job: Job, error: str) -> None:
        if results is None:
            failed[0] = True
            for f in job.failures if not args.observe else job.failures[:1]:
                what = f.id if not args.observe else f"{job.run.key}#{job.grader}"
                print(plain(f"reviewer rescore: {what}: {error}"), file=sys.stderr)
                if args.json:
                    print(json.dumps({"failure" if not args.observe else "grading": what, "error": error}, ensure_ascii=True),
                          flush=True)
            return
        try:
            paths = save_observations(store.root, reviewer, results) if args.observe else save(store.root, reviewer, results)
            where = str(paths[0]) if paths else ""
        except Exception as exc:  # noqa: BLE001 - RecordUnsafe or OSError: shown, never a traceback
            failed[0] = True
            print(plain(f"reviewer rescore: not saved: {exc}"), file=sys.stderr)
            where = ""
        for r in results:
            if args.observe:
                print(json.dumps(observed_json(r, where), ensure_ascii=True) if args.json else observed_line(r, where), flush=True)
            else:
                print(json.dumps(as_json(r, where), ensure_ascii=True) if args.json else as_line(r, where), flush=True)

    run_jobs(store, planned.jobs, options, executor, emit, observe=args.observe)
    if planned.blocked and not planned.jobs:
        failed[0] = True
        print(plain(f"reviewer rescore: {count(len(planned.blocked), 'failure')} with a proposed repair, and none can be run:"),
              file=sys.stderr)
        for line in planned.blocked[:20]:
            print(plain(f"  {line}"), file=sys.stderr)
    elif planned.blocked:
        print(plain(f"reviewer rescore: {count(len(planned.blocked), 'more failure')} with a proposed repair that cannot run "
                    f"(first: {planned.blocked[0]})"), file=sys.stderr)
    if not planned.jobs and not planned.problems and not planned.blocked:
        what = "observe (no failing grading names the program its checker runs)" if args.observe else \
            "re-score (no failure has a proposed repair of notation)"
        print(f"reviewer rescore: nothing to {what}", file=sys.stderr)
    return 1 if failed[0] else 0


def observed_json(o: Observation, record: str) -> dict[str, Any]:
    """One observation as the JSON object ``--observe --json`` prints."""
    return {
        "grading": o.grading, "program": o.program, "at": o.at, "runs": len(o.invocations), "dropped": o.dropped,
        "exit_status": o.exit_status, "stopped": o.stopped, "record": record, "summary": o.summary(),
        "invocations": [{"argv": list(i.argv), "test": i.test, "exit_status": i.exit_status,
                         "stdout": i.stdout[:2000], "stderr": i.stderr[-2000:]} for i in o.invocations],
    }


def observed_line(o: Observation, record: str) -> str:
    """One observation as a line for people."""
    return plain(f"{o.grading}: {o.summary()}; saved in {record}")


def positive(text: str) -> int:
    """A count of at least 1 (``-j 0`` is refused by argparse)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("at least 1")
    return value


def register(sub: argparse._SubParsersAction, command_parser: Callable[..., argparse.ArgumentParser]) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add ``rescore`` to the command line."""
    p = command_parser(
        sub, "rescore",
        "re-run a failure's recorded grader on the recorded program, with only the notation repaired, inside a "
        "bubblewrap sandbox; save the experiment in <session>/rescores/<reviewer>.toml (evidence, never a label)",
        "",
    )
    p.epilog = EXIT
    p.add_argument("path", nargs="?", type=Path, help="sessions folder (default: ./sessions when it exists, else the bundled examples)")
    p.add_argument("--failure", metavar="ID", action="append", default=[], help="SESSION/RUN#GRADER:CHECK (repeatable)")
    p.add_argument("--repair", metavar="KIND:ARGS", action="append", default=[], help=REPAIR_HELP)
    p.add_argument("--all-proposed", action="store_true", help="every failure the evidence proposes a repair for")
    p.add_argument("--observe", action="store_true",
                   help="run the recorded grader once as recorded and note every run of the program it names "
                        "([grader.rerun] program): its arguments, input, output and how it ended; the evidence reads "
                        "them where the grader output shows none (all failing gradings, or those of --failure)")
    p.add_argument("--json", action="store_true", help="one JSON object per re-score, a line each")
    p.add_argument("--reviewer", metavar="NAME", help="whose record (default: git user.name, else login)")
    p.add_argument("-j", "--jobs", type=positive, metavar="N",
                   help="gradings re-scored at once on this machine (default: the cores this process may use)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="re-score on the workers of your Dask cluster (its scheduler's address, tcp://HOST:8786), each "
                        "grading's recorded files sent with it and results saved here; needs pip install "
                        "'reviewer[cluster]' here and on the workers, and bubblewrap on every worker. --python then "
                        "names a Python on the workers")
    p.add_argument("--python", metavar="PATH", help="the Python inside the sandbox (default: $REVIEWER_RESCORE_PYTHON, "
                   "else the one running reviewer); it needs what the grader imports (pytest)")
    p.add_argument("--time-limit", type=float, metavar="S", help="wall-clock seconds per run (default: the grader's time_limit)")
    p.add_argument("--memory-mb", type=int, default=Limits().memory_mb, metavar="MB", help="memory per process and in all (default 2048)")
    p.add_argument("--processes", type=int, default=Limits().processes, metavar="N", help="processes and threads at once (default 256)")
    return {"rescore": cmd_rescore}
