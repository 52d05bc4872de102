"""``reviewer judge``: run a judge over the failures and save what it predicts, as data beside the labels.

``judge [PATH] --command CMD --name NAME`` runs the user's judge command once per failure: the
failure as one JSON document on its stdin (the protocol: :mod:`reviewer.model.prediction`), one
JSON answer on its stdout. ``--builtin evidence`` and ``--builtin rescore`` run the project's own
instruments the same way (:mod:`reviewer.analysis.judges.builtin`). Every answer becomes a
prediction in ``<session>/predictions/<judge>.toml`` (:mod:`reviewer.store.predictions`).

The command is split with :func:`shlex.split` into an argv and started without a shell; nothing
recorded ever becomes part of it. Failures are judged ``-j N`` at a time
(:func:`reviewer.judging.run_parallel`); a failure the judge has a prediction (or an abstention)
on, made since the failure last changed, is skipped unless ``--redo``, so a run cut short is
resumed by running the same command again. Predictions are saved as they come (at most
:data:`SAVE_EVERY` seconds apart, and at the end); Ctrl-C stops every judge (its process group is
killed), saves what was predicted and exits 130.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reviewer.model import Failure, Run
from reviewer.model.prediction import (
    BUILTIN_JUDGES,
    Answer,
    BadAnswer,
    Prediction,
    judge_name_problem,
    parse_answer,
    verdict_word,
)
from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.model.wording import count

SAVE_EVERY = 0.5
"""Seconds between saves of the predictions that came meanwhile (a kill -9 loses at most these)."""
DEFAULT_TIMEOUT = 120.0
EVIDENCE_SECONDS = 20.0

EXIT = """exit status:
  0  every selected failure was judged (or skipped: already predicted) and saved
  1  a failure could not be judged (the judge failed, timed out or gave an answer that does not
     parse: each named on stderr), a --failure is unknown, or predictions could not be saved
  2  bad usage: no judge, a bad --name, a --command that does not split or is not found, or PATH
     is not a folder
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
    from reviewer.judging import DEFAULT_WORKERS

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
    p.add_argument("-j", "--jobs", type=int, default=DEFAULT_WORKERS, metavar="N",
                   help=f"failures judged at once (default {DEFAULT_WORKERS})")
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
    if args.jobs < 1 or args.timeout <= 0:
        return usage("-j must be 1 or more and --timeout more than 0")
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
        self.stop = threading.Event()
        self.unsaved: list[Prediction] = []
        self.saved_at = time.monotonic()
        self.saved: set[Path] = set()
        self.save_error = ""
        self.errors = 0
        self.judged = 0

    def run(self) -> int:
        """Judge, save, report; the exit status."""
        from reviewer.judging import run_parallel
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
        bar = Bar(len(plan.todo), self.judge)

        def done(item: tuple[Run, Failure], prediction: Prediction | None, error: BaseException | None) -> None:
            self.finished(item[1], prediction, error)
            bar.step(error is not None)

        cancelled = False
        try:
            run_parallel(plan.todo, self.judge_one, done, workers=self.args.jobs, stop=self.stop, idle=self.save)
        except KeyboardInterrupt:
            cancelled = True
        finally:
            bar.close()
            self.save(force=True)
        where = ", ".join(sorted(str(p) for p in self.saved)) or "nothing written"
        summary = (f"{count(self.judged, 'failure')} judged by {self.judge}"
                   + (f", {self.errors} could not be" if self.errors else "")
                   + (f", {plan.skipped} skipped (predicted already; --redo judges them again)" if plan.skipped else "")
                   + f"; predictions: {where}")
        print(plain(("reviewer judge: cancelled: " if cancelled else "reviewer judge: ") + summary), file=sys.stderr)
        if cancelled:
            return 130
        return 1 if self.errors or plan.problems or self.save_error else 0

    def predicted(self, existing: dict[tuple[str, str, str], Prediction], run: Run, failure: Failure) -> bool:
        """The judge has a prediction (or abstention) on this failure, made since it last changed."""
        from reviewer.store.sessions.fingerprint import evidence_hash

        p = existing.get((run.session, run.id, failure.check_id))
        return p is not None and (not p.evidence or p.evidence == evidence_hash(self.store, run, failure))

    def evidence(self, run: Run, failure: Failure, across_too: bool) -> tuple[Any, Any, str]:
        """(evidence, across, why it is missing) within :data:`EVIDENCE_SECONDS`, stopped on cancel."""
        from reviewer.analysis.evidence.across import with_across
        from reviewer.analysis.evidence.engine import evidence_for
        from reviewer.analysis.reading.scan import Cancelled

        end = time.monotonic() + EVIDENCE_SECONDS

        def cancel() -> bool:
            return self.stop.is_set() or time.monotonic() > end
        try:
            if across_too:
                ev, found = with_across(self.store, run, failure, cancel=cancel)
                return ev, found, ""
            return evidence_for(self.store, run, failure, cancel=cancel), None, ""
        except Cancelled:
            if self.stop.is_set():
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

    def answer(self, run: Run, failure: Failure) -> tuple[Answer, float]:
        """The judge's answer on one failure and the seconds it took (worker thread)."""
        from reviewer.analysis.judges import evidence_answer, rescore_answer
        from reviewer.judging import JudgeUnavailable, call_judge

        started = time.monotonic()
        if self.argv is None:
            if self.judge == "rescore":
                return rescore_answer(self.entries, failure.id), time.monotonic() - started
            ev, _, why = self.evidence(run, failure, across_too=False)
            return evidence_answer(ev, why), time.monotonic() - started
        document = self.document(run, failure)
        try:
            reply = call_judge(self.argv, document, timeout=self.args.timeout, cancelled=self.stop.is_set)
        except JudgeUnavailable as exc:
            self.stop.set()  # no failure can be judged by a command that does not start
            raise JudgeFailed(str(exc)) from None
        problem = reply.problem(self.args.timeout)
        if problem:
            raise JudgeFailed(problem)
        try:
            answer = parse_answer(reply.stdout)
        except BadAnswer as exc:
            tail = reply.stderr_tail.strip().splitlines()
            raise JudgeFailed(f"{exc}" + (f"; its stderr ended: {tail[-1][-300:]}" if tail else "")) from None
        return answer, reply.seconds

    def judge_one(self, item: tuple[Run, Failure]) -> Prediction:
        """Judge one failure (worker thread); JudgeFailed when it could not be."""
        from reviewer import __version__
        from reviewer.store.labels import utc_now
        from reviewer.store.sessions.fingerprint import evidence_hash

        run, failure = item
        if self.stop.is_set():
            raise JudgeFailed("cancelled")
        evidence = evidence_hash(self.store, run, failure)
        answer, seconds = self.answer(run, failure)
        version = answer.judge_version or (f"reviewer {__version__}" if self.argv is None else "")
        return Prediction(run.session, run.id, failure.check_id, self.judge, answer.verdict, answer.confidence,
                          answer.rationale, utc_now(), self.command, version, evidence, seconds)

    def finished(self, failure: Failure, prediction: Prediction | None, error: BaseException | None) -> None:
        """One failure done (main thread): report it, keep its prediction, save when it is time."""
        if prediction is None:
            reason = str(error) if isinstance(error, JudgeFailed) else f"{type(error).__name__}: {error}"
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
        self.save()

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
            self.stop.set()  # judging on would only make predictions that cannot be kept
            print(plain(f"reviewer judge: {count(len(batch), 'prediction')} not saved: {exc}"), file=sys.stderr)
        self.saved_at = time.monotonic()

    def print_inputs(self, plan: Plan) -> int:
        """``--print-input``: the documents, one JSON line each, in failure order."""
        for run, failure in plan.todo:
            sys.stdout.write(self.document(run, failure).decode("ascii"))
        sys.stdout.flush()
        return 1 if plan.problems else 0
