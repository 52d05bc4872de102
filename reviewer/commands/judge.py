"""``reviewer judge``: run a judge over the failures and save what it predicts, as data beside the labels.

``judge [PATH] --command CMD --name NAME`` runs the user's judge command once per failure: the
failure as one JSON document on its stdin (the protocol: :mod:`reviewer.model.prediction`), one
JSON answer on its stdout. ``--builtin evidence`` and ``--builtin rescore`` run the project's own
instruments the same way (:mod:`reviewer.analysis.judges.builtin`). Every answer becomes a
prediction in ``<session>/predictions/<judge>.toml`` (:mod:`reviewer.store.predictions`).

The command is split with :func:`shlex.split` into an argv and started without a shell; nothing
recorded ever becomes part of it. Failures are judged in parallel (:mod:`reviewer.parallel`):
``-j N`` threads here (default: the cores this process may use), or with ``--cluster ADDRESS`` on
the workers of the user's Dask cluster. Each failure goes as a :class:`~reviewer.judging.wire.JudgeTask`
built here as room frees up (the input document read from the folder, carried with it: workers
need no shared disk), the judge runs where it lands (:func:`reviewer.judging.wire.perform`), and
its reply comes back as JSON, read and parsed here; the prediction is made here. The built-in
judges read the folder themselves, so they run on this machine only.

A failure the judge has a prediction (or an abstention) on, made since the failure last changed,
is skipped unless ``--redo``, so a run cut short is resumed by running the same command again.
Predictions are saved as they come (at most :data:`SAVE_EVERY` seconds apart, and at the end);
Ctrl-C stops every judge (its process group is killed, on a worker too), saves what was predicted
and exits 130.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reviewer.model import Failure, Run
from reviewer.model.prediction import (
    BUILTIN_JUDGES,
    Prediction,
    judge_name_problem,
    verdict_word,
)
from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.model.wording import count

if TYPE_CHECKING:
    from reviewer.judging.wire import JudgeTask
    from reviewer.parallel import Done, Executor

SAVE_EVERY = 0.5
"""Seconds between saves of the predictions that came meanwhile (a kill -9 loses at most these)."""
DEFAULT_TIMEOUT = 120.0
EVIDENCE_SECONDS = 20.0

EXIT = """exit status:
  0  every selected failure was judged (or skipped: already predicted) and saved
  1  a failure could not be judged (the judge failed, timed out or gave an answer that does not
     parse: each named on stderr), a --failure is unknown, predictions could not be saved, or
     --cluster cannot be used (the extra not installed, no scheduler at ADDRESS: nothing run)
  2  bad usage: no judge, a bad --name, a --command that does not split or is not found (here, or
     with --cluster on a worker: nothing run), -j with --cluster, --cluster with a built-in judge,
     or PATH is not a folder
  130  cancelled (Ctrl-C): the judges were stopped, what they had predicted is saved"""


class JudgeFailed(Exception):
    """One failure could not be judged; the message is one line."""


@record(frozen=False, slots=False)
class Plan:
    """What to judge: the failures selected, those skipped, and the problems met choosing them."""

    todo: list[tuple[Run, Failure]]
    skipped: int
    problems: list[str]


def register(sub: argparse._SubParsersAction, command_parser: Callable[..., argparse.ArgumentParser]) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add ``judge`` to the command line."""
    p = command_parser(
        sub, "judge",
        "run a judge over the failures: the user's command (one JSON document per failure on its stdin, one JSON "
        "answer on its stdout) or a built-in instrument; save its predictions in <session>/predictions/<judge>.toml "
        "(data like labels, never a label); `agreement` and `stats` score them against the humans",
        "",
    )
    p.epilog = EXIT
    p.add_argument("path", nargs="?", type=Path, help="sessions folder (default: ./sessions when it exists, else the bundled examples)")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--command", dest="judge_command", metavar="CMD",
                     help="the judge's command line, split like a shell would split it (no shell runs it): "
                          "'python my_judge.py --model x'")
    who.add_argument("--builtin", choices=BUILTIN_JUDGES,
                     help="a built-in judge: evidence (the Evidence strip's hint), rescore (the saved re-scores)")
    p.add_argument("--name", metavar="NAME", help="the judge's name, its predictions file's (required with --command; "
                   "lower-case letters, digits, '_' and '-')")
    p.add_argument("--failure", metavar="ID", action="append", default=[], help="only this failure (repeatable; a unique prefix is enough)")
    p.add_argument("--unlabelled", action="store_true", help="only failures you have not decided (see `reviewer failures --unlabelled`)")
    p.add_argument("--session", metavar="S", help="only this session (shell-style pattern)")
    p.add_argument("--task", metavar="T", help="only this task (pattern)")
    p.add_argument("--model", metavar="M", help="only this model (pattern)")
    p.add_argument("--redo", action="store_true", help="judge again failures the judge has a prediction on")
    p.add_argument("-j", "--jobs", type=int, metavar="N",
                   help="failures judged at once on this machine (default: the cores this process may use)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="judge on the workers of your Dask cluster (its scheduler's address, tcp://HOST:8786): each "
                        "failure's input document is sent with it and the predictions are saved here; the --command "
                        "must work on every worker (same paths), and pip install 'reviewer[cluster]' is needed here "
                        "and on the workers. --command judges only: the built-in ones read the sessions folder")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S",
                   help=f"seconds a judge may take on one failure before it is stopped (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--print-input", action="store_true",
                   help="print the selected failures' input documents (one JSON line each) and run no judge")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object per failure judged (its verdict and confidence only with blind mode off)")
    p.add_argument("--reviewer", metavar="NAME", help="whose labels --unlabelled means (default: as for `reviewer label`)")
    return {"judge": cmd_judge}


def judge_argv(args: argparse.Namespace) -> tuple[list[str] | None, str]:
    """The judge command's argv (None for a built-in judge), or "" and why it cannot be used."""
    if args.builtin:
        return None, ""
    try:
        argv = shlex.split(args.judge_command)
    except ValueError as exc:
        return None, f"--command does not split into words ({exc})"
    if not argv:
        return None, "--command is empty"
    program = argv[0]
    if "/" in program:
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            return None, f"--command: {program} is not an executable file"
    elif shutil.which(program) is None:
        return None, f"--command: {program} is not found on PATH"
    return argv, ""


def select(args: argparse.Namespace, store: Any, labeller: Any, done: Callable[[Run, Failure], bool]) -> Plan:
    """The failures the arguments select, those the judge has predicted already set apart."""
    from reviewer.commands.failures import matches
    from reviewer.store.labels import UnknownFailure
    from reviewer.store.sessions.lookup import every_failure, resolve_failure

    problems: list[str] = []
    chosen: list[tuple[Run, Failure]] = []
    if args.failure:
        for text in args.failure:
            try:
                chosen.append(resolve_failure(store, text))
            except UnknownFailure as exc:
                problems.append(str(exc))
        chosen = list({f.id: (r, f) for r, f in chosen}.values())
    else:
        chosen = list(every_failure(store))
    todo, skipped = [], 0
    for run, failure in chosen:
        if not matches(run, args):
            continue
        if args.unlabelled and labeller.state(run, failure).decided:
            continue
        if not args.redo and not args.print_input and done(run, failure):
            skipped += 1
            continue
        todo.append((run, failure))
    return Plan(todo, skipped, problems)


class Bar:
    """A one-line progress bar on stderr, when stderr is a terminal."""

    def __init__(self, total: int, judge: str) -> None:
        self.total, self.done, self.failed, self.judge = total, 0, 0, judge
        self.on = total > 0 and sys.stderr.isatty()
        self.drawn = 0.0

    def step(self, failed: bool) -> None:
        """One failure done; redraw (at most 20 times a second, and at the last)."""
        self.done += 1
        self.failed += failed
        now = time.monotonic()
        if self.on and (now - self.drawn > 0.05 or self.done == self.total):
            self.drawn = now
            width = 30
            filled = int(width * self.done / self.total)
            errors = f" · {count(self.failed, 'error')}" if self.failed else ""
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} judged by "
                             f"{plain(self.judge)}{errors} ")
            sys.stderr.flush()

    def close(self) -> None:
        """End the bar's line."""
        if self.on and self.done:
            sys.stderr.write("\n")
            sys.stderr.flush()


def cmd_judge(args: argparse.Namespace) -> int:
    """reviewer judge."""
    from reviewer.commands.common import open_labeller, settings_and_identity

    if bool(args.judge_command) == bool(args.builtin):
        return usage("give a judge: --command CMD --name NAME, or --builtin evidence|rescore")
    name = args.builtin or args.name or ""
    if args.builtin and args.name and args.name != args.builtin:
        return usage(f"a built-in judge keeps its own name ({args.builtin}): leave out --name")
    if not name:
        return usage("--command needs --name NAME (the judge's name: its predictions file's)")
    why = judge_name_problem(name)
    if why:
        return usage(f"--name: {why}")
    if args.judge_command and name in BUILTIN_JUDGES:
        return usage(f"--name {name} is a built-in judge's name: choose another")
    if (args.jobs is not None and args.jobs < 1) or args.timeout <= 0:
        return usage("-j must be 1 or more and --timeout more than 0")
    if args.cluster and args.jobs is not None:
        return usage("--jobs is for this machine; on a cluster each worker runs as many judges as it has threads "
                     "(dask worker --nthreads)")
    if args.cluster and args.builtin:
        return usage(f"--cluster runs --command judges only: the built-in judge {args.builtin} reads the sessions "
                     "folder, which the workers do not have (run it here, with -j)")
    argv, why = judge_argv(args)
    if why:
        return usage(why)
    settings, identity = settings_and_identity(args.reviewer)
    labeller = open_labeller(args.path, identity.name)
    return Judging(args, labeller, name, argv, settings.blind).run()


def usage(text: str) -> int:
    """A usage error: one line, exit 2."""
    print(plain(f"reviewer judge: {text}"), file=sys.stderr)
    return 2


class Judging:
    """One ``reviewer judge`` run: select, judge in parallel, save as they come, report."""

    def __init__(self, args: argparse.Namespace, labeller: Any, judge: str, argv: list[str] | None,
                 blind: bool = True) -> None:
        from reviewer.rescore.record import read_records

        self.args, self.labeller, self.judge, self.argv, self.blind = args, labeller, judge, argv, blind
        self.store = labeller.sessions
        self.sessions = sorted(self.store.corpus.sessions)
        self.command = f"builtin:{judge}" if argv is None else shlex.join(argv)
        self.entries, self.observations, self.record_errors = read_records(self.store.root, self.sessions)
        self.todo: dict[str, tuple[Run, Failure]] = {}
        self.bar = Bar(0, judge)
        self.sent: dict[str, str] = {}
        self.halt = False
        self.unsaved: list[Prediction] = []
        self.saved_at = time.monotonic()
        self.saved: set[Path] = set()
        self.save_error = ""
        self.errors = 0
        self.judged = 0

    def run(self) -> int:
        """Judge, save, report; the exit status."""
        from reviewer.store.predictions import PredictionsUnsafe, prediction_path, read_file

        for error in self.record_errors:
            print(plain(f"reviewer judge: re-score records: {error}"), file=sys.stderr)
        existing: dict[tuple[str, str, str], Prediction] = {}
        for session in self.sessions:
            path = prediction_path(self.store.root, session, self.judge)
            if not self.args.print_input:
                try:  # a file this run could not write is named before any judge runs
                    from reviewer.store.predictions.files import read_doc

                    read_doc(path)
                except PredictionsUnsafe as exc:
                    print(plain(f"reviewer judge: {exc}; not written over: repair or move it first"), file=sys.stderr)
                    return 1
            existing.update({p.key: p for p in read_file(path, session)[1]} if path.is_file() else {})
        plan = select(self.args, self.store, self.labeller, lambda run, f: self.predicted(existing, run, f))
        for problem in plan.problems:
            print(plain(f"reviewer judge: {problem}"), file=sys.stderr)
        if self.args.print_input:
            return self.print_inputs(plan)
        cancelled = False
        if plan.todo:
            executor = self.open_executor()
            if isinstance(executor, int):
                return executor
            try:
                cancelled = self.judge_on(executor, plan.todo)
            finally:
                executor.close()
        where = ", ".join(sorted(str(p) for p in self.saved)) or "nothing written"
        summary = (f"{count(self.judged, 'failure')} judged by {self.judge}"
                   + (f", {self.errors} could not be" if self.errors else "")
                   + (f", {plan.skipped} skipped (predicted already; --redo judges them again)" if plan.skipped else "")
                   + f"; predictions: {where}")
        print(plain(("reviewer judge: cancelled: " if cancelled else "reviewer judge: ") + summary), file=sys.stderr)
        if cancelled:
            return 130
        return 1 if self.errors or plan.problems or self.save_error else 0

    def open_executor(self) -> Executor | int:
        """Threads here, or the cluster with the judge's program found on every worker; the exit
        status when the cluster cannot be used (nothing was run)."""
        from reviewer.judging.wire import read_worker_check, worker_check
        from reviewer.parallel import ClusterUnavailable, connect, default_jobs, local_pool

        if not self.args.cluster:
            return local_pool(self.args.jobs or default_jobs())
        assert self.argv is not None  # cmd_judge refuses --cluster with a built-in judge
        try:
            executor = connect(self.args.cluster)
        except ClusterUnavailable as exc:
            print(plain(f"reviewer judge: {exc}"), file=sys.stderr)
            return 1
        try:
            answers = executor.on_every_worker(partial(worker_check, tuple(self.argv)))
        except Exception as exc:  # noqa: BLE001 - a worker without reviewer, a scheduler gone: said, nothing run
            executor.close()
            print(plain(f"reviewer judge: the workers of {executor.where} could not check the judge's command "
                        f"({type(exc).__name__}: {exc}); each needs reviewer installed (pip install 'reviewer[cluster]'). "
                        "Nothing was run."), file=sys.stderr)
            return 1
        problems = [f"{worker}: {why}" for worker, text in sorted(answers.items()) if (why := read_worker_check(text))]
        if problems or not answers:
            executor.close()
            print(plain(f"reviewer judge: --command must run on every worker of {executor.where}, and "
                        + (f"{count(len(problems), 'worker')} cannot run it" if answers else "it has no worker")
                        + " (install the judge there, at the same path). Nothing was run" + (":" if problems else ".")),
                  file=sys.stderr)
            for problem in problems:
                print(plain(f"  {problem}"), file=sys.stderr)
            return 2
        return executor

    def judge_on(self, executor: Executor, todo: list[tuple[Run, Failure]]) -> bool:
        """Judge ``todo`` on ``executor``, saving as predictions come; True when it was cancelled (Ctrl-C)."""
        from reviewer.judging.wire import perform

        self.bar = Bar(len(todo), self.judge)
        self.todo = {failure.id: (run, failure) for run, failure in todo}
        cancelled = False
        try:
            with executor.start(perform if self.argv is not None else self.builtin, self.tasks(todo)) as batch:
                try:
                    for done in batch.every(SAVE_EVERY):
                        if done is not None:
                            self.handle(done)
                        self.save()
                        if self.halt and not batch.stopped:  # a judge that cannot start, predictions that cannot be kept
                            for rest in batch.stop():
                                self.handle(rest)
                except KeyboardInterrupt:
                    cancelled = True
                    for rest in batch.stop():
                        self.handle(rest)
        except KeyboardInterrupt:  # a second Ctrl-C while the running judges stop
            cancelled = True
        finally:
            self.bar.close()
            self.save(force=True)
        return cancelled

    def tasks(self, todo: list[tuple[Run, Failure]]) -> Iterator[JudgeTask]:
        """Each failure as a task carrying its input document, built as the executor has room for it
        (this thread: it reads the folder); the failure's evidence hash kept here for its prediction."""
        from reviewer.judging.wire import JudgeTask
        from reviewer.store.sessions.fingerprint import evidence_hash

        argv = tuple(self.argv or ())
        for run, failure in todo:
            try:
                self.sent[failure.id] = evidence_hash(self.store, run, failure)
                document = self.document(run, failure) if self.argv is not None else b""
            except Exception as exc:  # noqa: BLE001 - one failure's trouble is its own, never the run's
                self.bar.step(True)
                self.finished(failure, None, f"its input could not be made: {type(exc).__name__}: {str(exc)[:300]}")
                continue
            yield JudgeTask(failure.id, argv, self.args.timeout, document)

    def predicted(self, existing: dict[tuple[str, str, str], Prediction], run: Run, failure: Failure) -> bool:
        """The judge has a prediction (or abstention) on this failure, made since it last changed."""
        from reviewer.store.sessions.fingerprint import evidence_hash

        p = existing.get((run.session, run.id, failure.check_id))
        return p is not None and (not p.evidence or p.evidence == evidence_hash(self.store, run, failure))

    def evidence(self, run: Run, failure: Failure, across_too: bool,
                 cancelled: Callable[[], bool] = lambda: False) -> tuple[Any, Any, str]:
        """(evidence, across, why it is missing) within :data:`EVIDENCE_SECONDS`, stopped on cancel."""
        from reviewer.analysis.evidence.across import with_across
        from reviewer.analysis.evidence.engine import evidence_for
        from reviewer.analysis.reading.scan import Cancelled

        end = time.monotonic() + EVIDENCE_SECONDS

        def cancel() -> bool:
            return cancelled() or time.monotonic() > end
        try:
            if across_too:
                ev, found = with_across(self.store, run, failure, cancel=cancel)
                return ev, found, ""
            return evidence_for(self.store, run, failure, cancel=cancel), None, ""
        except Cancelled:
            if cancelled():
                raise JudgeFailed("cancelled") from None
            return None, None, f"the evidence took longer than {EVIDENCE_SECONDS:.0f} s and was stopped"
        except Exception as exc:  # noqa: BLE001 - an analysis bug must not cost the judge its input
            return None, None, f"the evidence could not be computed: {type(exc).__name__}: {str(exc)[:300]}"

    def document(self, run: Run, failure: Failure) -> bytes:
        """The failure's input document."""
        from reviewer.analysis.judges import document_bytes, judge_input

        ev, found, why = self.evidence(run, failure, across_too=True)
        grading = f"{run.key}#{failure.grader}"
        seen = [o for o in self.observations if o.grading == grading]
        observation = max(seen, key=lambda o: o.at) if seen else None
        return document_bytes(judge_input(self.store, run, failure, ev, found, why, self.entries, observation))

    def builtin(self, task: JudgeTask, cancelled: Callable[[], bool]) -> str:
        """A built-in judge's answer on one failure, as a judge's reply (a thread here: it reads the folder)."""
        from reviewer.analysis.judges import evidence_answer, rescore_answer
        from reviewer.judging.wire import answer_bytes, answer_doc, problem_doc

        started = time.monotonic()
        run, failure = self.todo[task.failure]
        if self.judge == "rescore":
            answer = rescore_answer(self.entries, failure.id)
        else:
            try:
                ev, _, why = self.evidence(run, failure, across_too=False, cancelled=cancelled)
            except JudgeFailed:
                return problem_doc(task.failure, "cancelled", "cancelled")
            answer = evidence_answer(ev, why)
        return answer_doc(task.failure, answer_bytes(answer), "", time.monotonic() - started)

    def handle(self, done: Done[JudgeTask]) -> None:
        """One failure's reply (this thread): its prediction made and kept, or its problem reported."""
        from reviewer import __version__
        from reviewer.judging.wire import BadResult, JudgeProblem, read_result
        from reviewer.store.labels import utc_now

        run, failure = self.todo[done.task.failure]
        evidence = self.sent.pop(failure.id, "")
        self.bar.step(bool(done.error))
        if done.error:
            self.finished(failure, None, done.error)
            return
        try:
            reply = read_result(done.result, done.task)
        except JudgeProblem as exc:
            if exc.kind == "unavailable":
                self.halt = True  # no failure can be judged by a command that does not start
            self.finished(failure, None, "cancelled" if exc.kind == "cancelled" else str(exc))
            return
        except BadResult as exc:
            self.finished(failure, None, f"refused: {exc}")
            return
        answer = reply.answer
        version = answer.judge_version or (f"reviewer {__version__}" if self.argv is None else "")
        self.finished(failure, Prediction(run.session, run.id, failure.check_id, self.judge, answer.verdict,
                                          answer.confidence, answer.rationale, utc_now(), self.command, version,
                                          evidence, reply.seconds), "")

    def finished(self, failure: Failure, prediction: Prediction | None, reason: str) -> None:
        """One failure done (this thread): report it, or keep its prediction to be saved."""
        if prediction is None:
            if reason == "cancelled":
                return
            self.errors += 1
            print(plain(f"reviewer judge: {failure.id}: {reason}"), file=sys.stderr)
            if self.args.json:
                print(json.dumps({"failure": failure.id, "judge": self.judge, "error": plain(reason)}, ensure_ascii=True),
                      flush=True)
            return
        self.judged += 1
        self.unsaved.append(prediction)
        if self.args.json:
            line: dict[str, Any] = {"failure": failure.id, "judge": self.judge, "seconds": round(prediction.seconds, 3)}
            if not self.blind:  # blind mode shows no prediction before the reviewer decides (the file holds them)
                line.update(verdict=verdict_word(prediction.verdict), confidence=prediction.confidence)
            print(json.dumps(line, ensure_ascii=True), flush=True)

    def save(self, force: bool = False) -> None:
        """Save the predictions that came since the last save (every :data:`SAVE_EVERY` s, or now)."""
        from reviewer.store.predictions import PredictionsUnsafe, save_predictions

        if not self.unsaved or (not force and time.monotonic() - self.saved_at < SAVE_EVERY):
            return
        batch, self.unsaved = self.unsaved, []
        try:
            self.saved.update(save_predictions(self.store.root, self.judge, batch))
        except KeyboardInterrupt:  # Ctrl-C during a save: nothing is lost, the final save takes them again
            self.unsaved = batch + self.unsaved
            raise
        except (PredictionsUnsafe, OSError, TimeoutError) as exc:
            self.save_error = str(exc)
            self.halt = True  # judging on would only make predictions that cannot be kept
            print(plain(f"reviewer judge: {count(len(batch), 'prediction')} not saved: {exc}"), file=sys.stderr)
        self.saved_at = time.monotonic()

    def print_inputs(self, plan: Plan) -> int:
        """``--print-input``: the documents, one JSON line each, in failure order."""
        for run, failure in plan.todo:
            sys.stdout.write(self.document(run, failure).decode("ascii"))
        sys.stdout.flush()
        return 1 if plan.problems else 0
