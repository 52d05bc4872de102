"""``reviewer failures``: every failure id of a folder, with task, model, check and verdicts.

Your own verdict is always shown. Other reviewers' verdicts (and the adjudicated one) only when
blind mode is off (``blind = false`` in config.toml) or with ``--disagreements``, which is for
after labelling: in blind mode nothing on this list is derived from another reviewer's labels.
The judges' predictions (``reviewer judge``) follow the blind rule of the app: shown (with
``--judge``, ``--judge-disagrees``, ``--judged``, or blind mode off) on the failures you have
decided, on every failure with blind mode off; ``--judged V --unlabelled`` asks for what blind
mode hides and is refused in blind mode.
A labels file (or journal line) that could not be read, and a reviewer's two labels on one
failure, are named on stderr and the command exits 1: a failure can look unlabelled because its
label was not read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from fnmatch import fnmatchcase
from typing import Any

from reviewer.model import Failure, Run
from reviewer.model.label import Label
from reviewer.model.prediction import Prediction, judge_name_problem, verdict_word
from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.store.labels import Labeller

Handler = Callable[[argparse.Namespace], int]


def register(sub: argparse._SubParsersAction, command_parser: Callable[..., argparse.ArgumentParser]) -> dict[str, Handler]:
    """Add ``failures`` to the CLI."""
    from reviewer.commands.common import folder_arg, reviewer_arg

    p = command_parser(
        sub, "failures", "list failure ids with task, model, check and verdicts (others' only when not blind)",
        "a labels file or line it read could not be read, or holds two labels on one failure\n"
        "     (each named on stderr; folder load errors are reported and do not change the exit status)",
    )
    folder_arg(p)
    p.add_argument("--unlabelled", action="store_true",
                   help="only failures you have not decided (no label, deferred, stale, or a note only)")
    p.add_argument("--disagreements", action="store_true",
                   help="only failures where reviewers' verdicts differ (shows everyone's verdicts, even when blind)")
    p.add_argument("--session", metavar="S", help="only this session (shell-style pattern: 'pounce-*')")
    p.add_argument("--task", metavar="T", help="only this task (pattern)")
    p.add_argument("--model", metavar="M", help="only this model (pattern)")
    p.add_argument("--judge", metavar="NAME", help="show this judge's predictions (default with the two below: every judge's)")
    p.add_argument("--judge-disagrees", action="store_true",
                   help="only failures you decided where a judge's verdict differs from yours")
    p.add_argument("--judged", choices=["specification", "capability"],
                   help="only failures a judge gave this verdict (with --unlabelled: blind mode off only)")
    p.add_argument("--json", action="store_true", help="print a JSON array of objects")
    reviewer_arg(p)
    return {"failures": cmd_failures}


@record
class Row:
    """One failure as ``failures`` lists it."""

    run: Run
    failure: Failure
    mine: Label | None
    stale: bool
    others: tuple[Label, ...] | None = None
    final: Label | None = None
    judges: tuple[Prediction, ...] | None = None
    judges_hidden: int = 0

    def as_json(self) -> dict[str, Any]:
        """The JSON object of the row (``others`` and ``final`` only when they may be shown)."""
        f = self.failure
        out: dict[str, Any] = {
            "id": f.id, "session": self.run.session, "run": self.run.id, "task": self.run.task,
            "model": self.run.model, "check": f.check_id, "check_name": f.check.name,
            "status": f.check.status.value, "message": first_line(f.check.message),
            "verdict": self.mine.verdict.value if self.mine else None, "stale": self.stale,
        }
        if self.others is not None:
            out["others"] = [{"reviewer": lab.reviewer, "verdict": lab.verdict.value} for lab in self.others]
            out["final"] = None if self.final is None else {
                "verdict": self.final.verdict.value, "adjudicator": self.final.adjudicator}
        if self.judges is not None:
            out["judges"] = [{"judge": p.judge, "verdict": p.verdict.value if p.verdict else None,
                              "confidence": p.confidence} for p in self.judges]
            out["judges_hidden"] = self.judges_hidden
        return out

    def judges_text(self) -> str:
        """``evidence=specification script=capability(60%)``, ``hidden`` or ``-``."""
        if self.judges_hidden:
            return "hidden"
        parts = [f"{plain(p.judge)}={verdict_word(p.verdict)}"
                 + (f"({round(p.confidence * 100)}%)" if p.confidence is not None else "") for p in self.judges or ()]
        return " ".join(parts) or "-"

    def mine_text(self) -> str:
        """``specification``, ``capability (stale)`` or ``-``."""
        if self.mine is None:
            return "-"
        return self.mine.verdict.value + (" (stale)" if self.stale else "")

    def others_text(self) -> str:
        """``bob=capability carol=specification final=capability``."""
        parts = [f"{plain(lab.reviewer)}={lab.verdict.value}" for lab in self.others or ()]
        if self.final is not None:
            parts.append(f"final={self.final.verdict.value}")
        return " ".join(parts) or "-"


def first_line(text: str, cap: int = 200) -> str:
    """The first non-empty line of a message, cut at ``cap`` characters."""
    line = next((x.strip() for x in text.splitlines() if x.strip()), "")
    return line if len(line) <= cap else line[: cap - 1] + "…"


def matches(run: Run, args: argparse.Namespace) -> bool:
    """The session, task and model filters."""
    return all(pattern is None or fnmatchcase(value, pattern)
               for pattern, value in ((args.session, run.session), (args.task, run.task), (args.model, run.model)))


def wants_judges(args: argparse.Namespace, blind: bool) -> bool:
    """The judges' predictions are read and shown: asked for, or blind mode off."""
    return bool(getattr(args, "judge", None) or getattr(args, "judge_disagrees", False) or getattr(args, "judged", None)
                or not blind)


def judge_filter(row: Row, args: argparse.Namespace) -> bool:
    """``--judge-disagrees`` and ``--judged`` on the predictions the row may show."""
    said = [p.verdict for p in row.judges or () if p.verdict is not None]
    if getattr(args, "judge_disagrees", False):
        mine = row.mine.verdict if row.mine is not None and row.mine.verdict.decided and not row.stale else None
        if mine is None or all(v is mine for v in said):
            return False
    if getattr(args, "judged", None) and all(v.value != args.judged for v in said):
        return False
    return True


def collect_rows(labeller: Labeller, args: argparse.Namespace, show_others: bool,
                 blind: bool = True) -> tuple[list[Row], list[str]]:
    """The rows to print, filtered, and the problems of the labels (and predictions) files read (one
    "path: reason" each)."""
    from reviewer.review.reviewers import visible_judges
    from reviewer.store.labels import read_all_labels
    from reviewer.store.labels.agreement import read_label_set
    from reviewer.store.labels.final import read_adjudications
    from reviewer.store.predictions import PredictionSet, read_predictions
    from reviewer.store.sessions.lookup import every_failure

    store = labeller.sessions
    runs = [r for r in store.corpus.runs if matches(r, args)]
    sessions = sorted({r.session for r in runs})
    everyone = read_label_set(store.root, sessions) if (show_others or args.disagreements) else None
    finals = read_adjudications(store.root, sessions) if show_others else {}
    me = labeller.labels.reviewer
    problems = [f"{e.path}: {e.reason}" for e in labeller.labels.load(sessions)]
    judged = read_predictions(store.root, sessions) if wants_judges(args, blind) else None
    if judged is not None:
        problems += list(judged.problems)
        if args.judge:
            judged = PredictionSet({j: ps for j, ps in judged.by_judge.items() if j == args.judge}, judged.problems)
    if everyone is not None:  # the other reviewers' files were read too (the reviewer's own: just above)
        problems += [text for g in read_all_labels(store.root, sessions) if g.stem != labeller.labels.stem
                     for text in g.problems]
    rows = []
    for run, failure in every_failure(store, runs):
        state = labeller.state(run, failure)
        if args.unlabelled and state.decided:
            continue
        key = (run.session, run.id, failure.check_id)
        labs = everyone.by_failure.get(key, ()) if everyone is not None else ()
        if args.disagreements and len({lab.verdict for lab in labs if lab.verdict.decided}) < 2:
            continue
        others = tuple(lab for lab in labs if lab.reviewer != me) if show_others else None
        row = Row(run, failure, state.label, state.stale, others, finals.get(key) if show_others else None)
        if judged is not None:
            seen = visible_judges(judged.on(key), state.label if state.decided else None, blind, False)
            row = Row(run, failure, state.label, state.stale, row.others, row.final, seen.shown, seen.hidden)
            if not judge_filter(row, args):
                continue
        rows.append(row)
    return rows, problems


def cmd_failures(args: argparse.Namespace) -> int:
    """reviewer failures: exit 0, or 1 when a labels file it read has a problem."""
    from reviewer.commands.common import open_labeller, settings_and_identity

    settings, identity = settings_and_identity(args.reviewer)
    labeller = open_labeller(args.path, identity.name, args.labels)
    store = labeller.sessions
    for e in store.errors:
        print(plain(f"{e.path}: {e.reason}"), file=sys.stderr)
    show_others = not settings.blind or args.disagreements
    if settings.blind and args.judged and args.unlabelled:
        print("reviewer failures: --judged with --unlabelled lists what blind mode hides (a judge's verdict on a failure "
              "you have not decided); set blind = false in config.toml to use it", file=sys.stderr)
        return 2
    if args.judge and judge_name_problem(args.judge):
        print(plain(f"reviewer failures: --judge: {judge_name_problem(args.judge)}"), file=sys.stderr)
        return 2
    rows, problems = collect_rows(labeller, args, show_others, settings.blind)
    store.save_index()
    for text in problems:
        print(plain(f"reviewer failures: {text}"), file=sys.stderr)
    status = 1 if problems else 0
    if args.json:
        sys.stdout.write(json.dumps([r.as_json() for r in rows], ensure_ascii=True, indent=1) + "\n")
        return status
    judges = wants_judges(args, settings.blind)
    header = ["ID", "TASK", "MODEL", "YOURS"] + (["OTHERS"] if show_others else []) + (["JUDGES"] if judges else [])
    table = [header] + [[plain(r.failure.id), plain(r.run.task), plain(r.run.model), r.mine_text()]
                        + ([r.others_text()] if show_others else []) + ([r.judges_text()] if judges else []) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    decided = sum(1 for r in rows if r.mine is not None and r.mine.verdict.decided and not r.stale)
    hidden = "" if show_others else "; other reviewers' verdicts hidden (blind mode: blind = true in config.toml)"
    print(f"{len(rows)} failure{'s' if len(rows) != 1 else ''}, {decided} decided by {identity.describe()}{hidden}")
    return status
