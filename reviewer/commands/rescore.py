"""``reviewer rescore``: re-run a failure's grader with only the notation repaired, in the sandbox.

``rescore [PATH] --failure ID [--failure ID]... [--repair KIND:ARGS]...`` re-scores the named
failures with the given repairs (without ``--repair``: with those the evidence proposes);
``--all-proposed`` re-scores every failure the evidence proposes a repair for. Failures of the
same grading share one control run and one repaired run; gradings run in parallel (``--jobs``,
default the number of cores). Each result is saved in ``<session>/rescores/<reviewer>.toml`` as
soon as it is known, and printed: a line each, or with ``--json`` one JSON object per line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import field
from pathlib import Path
from typing import Any

from reviewer.model import Failure, Run
from reviewer.model.check import split_failure_id
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
from reviewer.rescore.engine import Options, Rescore, rescore_grader
from reviewer.rescore.sandbox import Cancelled, Limits, SandboxUnavailable, Tool
from reviewer.store.protocol import Store
from reviewer.store.sessions import SessionStore

EXIT = """exit status:
  0  every re-score ran and was saved (whether or not a check flipped)
  1  a failure is unknown, a grading cannot be re-run, or a record could not be saved
  2  bad usage (a --repair that is not KIND:ARGS), or PATH is not a folder
  3  no working bubblewrap sandbox here: nothing was run"""

REPAIR_HELP = "a repair, repeatable, applied in order: " + "; ".join(usage(k) for k in RepairKind) + \
    ". In ARGS write \\: for a colon, \\s for a space, \\\\ for a backslash."


@record(frozen=False, slots=False)
class Job:
    """One grading to re-score: its failures and the repairs to try."""

    run: Run
    grader: str
    repairs: list[Repair] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)


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


def proposed(store: Store, run: Run, failure: Failure) -> tuple[Repair, ...]:
    """What the evidence proposes for one failure."""
    from reviewer.analysis.evidence import evidence_for
    from reviewer.analysis.proposals import propose

    return propose(evidence_for(store, run, failure))


def applicable(rerun: Any, repairs: tuple[Repair, ...]) -> tuple[Repair, ...]:
    """The repairs a grader's re-run can apply: re-expressing output needs a ``program`` whose
    output the checker reads, or files it ``reads`` (a checker that runs the code in its own
    process can only have a limit lifted or be graded where the files were saved)."""
    from reviewer.model.repair import STDOUT_KINDS

    if rerun.program or rerun.reads:
        return repairs
    return tuple(r for r in repairs if r.kind not in STDOUT_KINDS)


def add(jobs: dict[tuple[str, str], Job], run: Run, failure: Failure, repairs: tuple[Repair, ...]) -> None:
    """Put a failure into its grading's job, adding repairs not there yet."""
    job = jobs.setdefault((run.key, failure.grader), Job(run, failure.grader))
    job.failures.append(failure)
    for r in repairs:
        if all((x.kind, x.args) != (r.kind, r.args) for x in job.repairs):
            job.repairs.append(r)


def plan(store: Store, args: argparse.Namespace, repairs: tuple[Repair, ...],
         problems: list[str]) -> list[Job]:
    """The jobs the arguments ask for; unknown failures and failures without proposals go to ``problems``."""
    jobs: dict[tuple[str, str], Job] = {}
    if args.all_proposed:
        for run in store.runs:
            graders = {g.name: g for g in run.graders}
            for f in store.failures(run):
                g = graders.get(f.grader)
                if g is None or g.rerun is None or g.rerun.problem:
                    continue
                found = applicable(g.rerun, proposed(store, run, f))
                if found:
                    add(jobs, run, f, found)
        return list(jobs.values())
    for fid in args.failure:
        try:
            run, f = find_failure(store, fid)
        except LookupError as exc:
            problems.append(str(exc))
            continue
        found = repairs or proposed(store, run, f)
        if not found:
            problems.append(f"{fid}: the evidence proposes no repair; give one with --repair KIND:ARGS")
            continue
        add(jobs, run, f, found)
    return list(jobs.values())


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
    }


def as_line(r: Rescore, record: str) -> str:
    """One result as a line for people (and its notes below it)."""
    flip = "FLIPPED" if r.flipped else ("not reproduced" if not r.reproduced else "still failing")
    text = f"{r.failure}: {r.before} -> {r.after} ({flip}); grader {r.summary()}; saved in {record}"
    return "\n".join([plain(text), *(plain(f"  note: {n}") for n in r.notes)])


class Bar:
    """A one-line progress bar on stderr, when stderr is a terminal."""

    def __init__(self, total: int, stream: Any = None) -> None:
        self.total, self.done = total, 0
        self.stream = stream or sys.stderr
        self.on = total > 0 and self.stream.isatty()

    def step(self, n: int = 1) -> None:
        """Count ``n`` gradings done and redraw."""
        self.done += n
        if self.on:
            width = 30
            filled = int(width * self.done / self.total)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{count(self.total, 'grading')} re-scored")
            self.stream.flush()

    def close(self) -> None:
        """End the bar's line."""
        if self.on:
            self.stream.write("\n")
            self.stream.flush()


def run_jobs(store: Store, jobs: list[Job], options: Options, tool: Tool, workers: int,
             emit: Callable[[list[Rescore] | None, Job, str], None]) -> None:
    """Run the jobs in parallel; ``emit(results, job, error)`` on the calling thread as each ends."""
    stop = threading.Event()
    bar = Bar(len(jobs))

    def work(job: Job) -> tuple[Rescore, ...]:
        return rescore_grader(store, job.run, job.grader, tuple(job.repairs), job.failures, options=options, tool=tool,
                              cancel=stop.is_set)

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        pending: dict[Future[tuple[Rescore, ...]], Job] = {pool.submit(work, j): j for j in jobs}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    job = pending.pop(fut)
                    bar.step()
                    try:
                        emit(list(fut.result()), job, "")
                    except Cancelled:
                        continue
                    except Exception as exc:  # noqa: BLE001 - one grading's trouble must not stop the batch
                        emit(None, job, str(exc) or type(exc).__name__)
        except KeyboardInterrupt:
            stop.set()
            for fut in pending:
                fut.cancel()
            raise
        finally:
            bar.close()


def cmd_rescore(args: argparse.Namespace) -> int:
    """reviewer rescore."""
    from reviewer.commands.common import resolve_folder
    from reviewer.rescore.record import save
    from reviewer.rescore.sandbox import require_sandbox
    from reviewer.store.identity import resolve_reviewer

    try:
        repairs = tuple(parse_repair(text) for text in args.repair or ())
    except BadRepair as exc:
        print(plain(f"reviewer rescore: --repair: {exc}"), file=sys.stderr)
        return 2
    if bool(args.failure) == bool(args.all_proposed) or (args.all_proposed and repairs):
        print("reviewer rescore: give --failure ID (with or without --repair), or --all-proposed alone", file=sys.stderr)
        return 2
    folder = resolve_folder(args.path)
    try:
        tool = require_sandbox()
    except SandboxUnavailable as exc:
        print(plain(f"reviewer rescore: {exc}"), file=sys.stderr)
        return 3
    store = SessionStore(folder)
    store.scan()
    reviewer = resolve_reviewer(args.reviewer)
    problems: list[str] = []
    jobs = plan(store, args, repairs, problems)
    for p in problems:
        print(plain(f"reviewer rescore: {p}"), file=sys.stderr)
    limits = Limits(memory_mb=args.memory_mb, processes=args.processes)
    options = Options(python=args.python, limits=limits, wall_seconds=args.time_limit)
    failed = [bool(problems)]

    def emit(results: list[Rescore] | None, job: Job, error: str) -> None:
        if results is None:
            failed[0] = True
            for f in job.failures:
                print(plain(f"reviewer rescore: {f.id}: {error}"), file=sys.stderr)
                if args.json:
                    print(json.dumps({"failure": f.id, "error": error}, ensure_ascii=True), flush=True)
            return
        try:
            paths = save(store.root, reviewer, results)
            where = str(paths[0]) if paths else ""
        except Exception as exc:  # noqa: BLE001 - RecordUnsafe or OSError: shown, never a traceback
            failed[0] = True
            print(plain(f"reviewer rescore: not saved: {exc}"), file=sys.stderr)
            where = ""
        for r in results:
            print(json.dumps(as_json(r, where), ensure_ascii=True) if args.json else as_line(r, where), flush=True)

    run_jobs(store, jobs, options, tool, args.jobs or os.cpu_count() or 1, emit)
    if not jobs and not problems:
        print("reviewer rescore: nothing to re-score (no failure has a proposed repair and a [grader.rerun])",
              file=sys.stderr)
    return 1 if failed[0] else 0


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
    p.add_argument("--json", action="store_true", help="one JSON object per re-score, a line each")
    p.add_argument("--reviewer", metavar="NAME", help="whose record (default: git user.name, else login)")
    p.add_argument("--jobs", type=int, metavar="N", help="gradings re-scored at once (default: the number of cores)")
    p.add_argument("--python", metavar="PATH", help="the Python inside the sandbox (default: $REVIEWER_RESCORE_PYTHON, "
                   "else the one running reviewer); it needs what the grader imports (pytest)")
    p.add_argument("--time-limit", type=float, metavar="S", help="wall-clock seconds per run (default: the grader's time_limit)")
    p.add_argument("--memory-mb", type=int, default=Limits().memory_mb, metavar="MB", help="memory per process and in all (default 2048)")
    p.add_argument("--processes", type=int, default=Limits().processes, metavar="N", help="processes and threads at once (default 256)")
    return {"rescore": cmd_rescore}
