"""``reviewer commit``, ``reviewer agreement`` and ``reviewer adjudicate``: several reviewers, in git."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from reviewer.model.sanitize import plain
from reviewer.model.wording import count, plural

if TYPE_CHECKING:
    from reviewer.analysis.stats.judged import JudgeScore
    from reviewer.store.labels.agreement import Disagreement, LabelSet, PairAgreement

Handler = Callable[[argparse.Namespace], int]


def register(sub: argparse._SubParsersAction, command_parser: Callable[..., argparse.ArgumentParser]) -> dict[str, Handler]:
    """Add the commands to the CLI; returns their handlers by name."""
    from reviewer.commands.common import failure_arg, folder_arg, reviewer_arg

    p = command_parser(
        sub, "commit", "commit this reviewer's label files (and nothing else) to git",
        "git refused (not a repository, another user's repository, a damaged label file),\n"
        "     or the labels are outside git (kept per user because the folder is read-only)",
    )
    folder_arg(p)
    reviewer_arg(p)
    p.add_argument("--adjudicated", action="store_true", help="also commit the adjudications (labels/_adjudicated.toml)")
    p = command_parser(sub, "agreement", "agreement between every pair of reviewers (percent, Cohen's kappa), and of every "
                       "judge with each reviewer and the final verdicts (kappa with its interval, which way it errs)",
                       "a labels or predictions file or line could not be read, or a reviewer has two labels on one\n"
                       "     failure (each named on stderr; the figures use what could be read, the newer of two labels)")
    folder_arg(p)
    p.add_argument("--json", action="store_true", help='print {"pairs": [...], "judges": [...]} as JSON')
    p.add_argument("--list", action="store_true",
                   help="also name every failure where reviewers disagree, with each verdict and any adjudication")
    p = command_parser(
        sub, "adjudicate", "record (or clear) the final verdict of a failure where reviewers disagree",
        "no such failure, every reviewer agrees and --override was not given, or it could not be saved",
    )
    folder_arg(p)
    failure_arg(p, required=True)
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--verdict", choices=["specification", "capability"])
    group.add_argument("--clear", action="store_true", help="remove the adjudication")
    p.add_argument("--note", default="", help="why (saved with the adjudication)")
    p.add_argument("--override", action="store_true",
                   help="adjudicate although every reviewer who decided the failure agrees")
    p.add_argument("--reviewer", metavar="NAME",
                   help="who adjudicates (default: `reviewer` in config.toml, else git's user.name, else the login name)")
    return {"commit": cmd_commit, "agreement": cmd_agreement, "adjudicate": cmd_adjudicate}


def say(text: str, err: bool = False) -> None:
    """Print sanitised text to stdout (or stderr)."""
    print(plain(text), file=sys.stderr if err else sys.stdout)


def cmd_commit(args: argparse.Namespace) -> int:
    """reviewer commit: exit 0 when committed or nothing to commit, 1 when git refused."""
    from reviewer.commands.common import resolve_folder, settings_and_identity
    from reviewer.store.git import GitError, commit_reviewer

    root = resolve_folder(args.path, args.labels)
    _, identity = settings_and_identity(args.reviewer)
    reviewer = identity.name
    say(f"committing the labels of {identity.describe()}", err=True)
    try:
        result = commit_reviewer(root, reviewer, args.adjudicated)
    except GitError as exc:
        say(f"reviewer commit: {exc}", err=True)
        return 1
    if result.outside_git:
        folder = Path(result.outside_git[0]).parents[2]
        say(f"reviewer commit: {count(len(result.outside_git), 'label file')} of {reviewer} {plural('is', len(result.outside_git))} kept in {folder} "
            "(the sessions folder is read-only): they are not in git and are not committed", err=True)
    if result.committed:
        say(f"committed {result.sha[:7]}: {result.message}")
        for path in result.paths:
            say(f"  {path}")
    else:
        say(result.message)
    return 1 if result.outside_git and not result.committed else 0


def cmd_agreement(args: argparse.Namespace) -> int:
    """reviewer agreement: a table (or JSON) of every pair of reviewers; exit 1 when a labels file has a problem."""
    from reviewer.commands.common import resolve_target
    from reviewer.store.labels.agreement import disagreements, pairwise, read_label_set
    from reviewer.store.settings.identity import session_names

    root, logs = resolve_target(args.path, args.labels)
    sessions = [log.session for log in logs] if logs else session_names(root)
    labels = read_label_set(root, sessions)
    for e in labels.errors:
        say(f"reviewer agreement: {e}", err=True)
    status = 1 if labels.errors else 0
    pairs = pairwise(labels)
    found = disagreements(root, sessions, labels) if args.list else []
    judges, problems = judge_scores(root, labels)
    for e in problems:
        say(f"reviewer agreement: {e}", err=True)
    status = 1 if problems else status
    if args.json:
        doc: dict[str, object] = {"pairs": [p.as_json() for p in pairs], "judges": [j.as_json() for j in judges]}
        if args.list:
            doc["disagreements"] = [disagreement_json(d) for d in found]
        sys.stdout.write(json.dumps(doc, ensure_ascii=True, sort_keys=False) + "\n")
        return status
    if not pairs:
        say(f"fewer than two reviewers have labels in {root}")
    else:
        print_pairs(pairs)
    if judges:
        from reviewer.analysis.stats.judged import render_judges

        say("")
        for line in render_judges(judges):
            say(line)
    if args.list:
        say(f"\n{len(found)} failure{'s' if len(found) != 1 else ''} where reviewers disagree"
            + (":" if found else ""))
        for d in found:
            say("  " + disagreement_line(d))
    return status


def judge_scores(root: Path, labels: LabelSet) -> tuple[tuple[JudgeScore, ...], tuple[str, ...]]:
    """Every judge (``reviewer judge``) against the final verdicts and each reviewer's labels, and the
    problems of the predictions files (none read: nothing is scanned)."""
    from reviewer.store.predictions import read_predictions
    from reviewer.store.settings.identity import session_names

    found = read_predictions(root, session_names(root))
    if not found.by_judge:
        return (), found.problems
    from reviewer.analysis.stats.facts import collect
    from reviewer.analysis.stats.judged import FINAL, facts_truth, fresh_predictions, reviewer_truths, score_all
    from reviewer.store.sessions.store import SessionStore

    store = SessionStore(root)
    store.scan()
    facts = collect(store)
    current = {f.key for f in facts.failures}
    truths = [(FINAL, facts_truth(facts)), *reviewer_truths(labels.by_failure, current)]
    scores = score_all(fresh_predictions(store, found), truths)
    store.save_index()
    return scores, found.problems


def disagreement_json(d: Disagreement) -> dict[str, object]:
    """One disagreement for ``agreement --list --json``."""
    final = d.adjudicated
    return {"id": d.failure_id, "verdicts": {lab.reviewer: lab.verdict.value for lab in d.labels},
            "adjudicated": None if final is None else {"verdict": final.verdict.value, "adjudicator": final.adjudicator}}


def disagreement_line(d: Disagreement) -> str:
    """``s/r#g:k  alice=specification bob=capability  adjudicated capability by carol``."""
    verdicts = " ".join(f"{lab.reviewer}={lab.verdict.value}" for lab in d.labels)
    final = d.adjudicated
    settled = "" if final is None else f"  adjudicated {final.verdict.value}" + (
        f" by {final.adjudicator}" if final.adjudicator else "")
    return f"{d.failure_id}  {verdicts}{settled}"


def print_pairs(pairs: list[PairAgreement]) -> None:
    """The agreement table."""
    rows = [("a", "b", "n", "agree", "kappa", "s/s", "s/c", "c/s", "c/c")]
    for p in pairs:
        rows.append((
            plain(p.a), plain(p.b), str(p.n),
            "-" if p.percent is None else f"{p.percent:.1f}%",
            "-" if p.kappa is None else f"{p.kappa:.3f}",
            str(p.ss), str(p.sc), str(p.cs), str(p.cc),
        ))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip())


def cmd_adjudicate(args: argparse.Namespace) -> int:
    """reviewer adjudicate: exit 0 saved, 1 no such failure, unanimous without --override, or not saved."""
    from reviewer.commands.common import full_failure_id, open_labeller, settings_and_identity
    from reviewer.model.label import Verdict
    from reviewer.store.labels import LabelsUnsafe
    from reviewer.store.labels.adjudication import (
        Unanimous,
        adjudicate_failure,
        clear_adjudication,
    )

    _, identity = settings_and_identity(args.reviewer)
    labeller = open_labeller(args.path, identity.name, args.labels)
    fid = full_failure_id(labeller, args.failure, "adjudicate")
    if fid is None:
        return 1
    run, failure = labeller.find(fid)
    try:
        if args.clear:
            removed = clear_adjudication(labeller.sessions.root, run.session, run.id, failure.check_id)
            say(f"{failure.id}: adjudication {'removed' if removed else 'was not set'}")
            return 0
        lab = adjudicate_failure(labeller, fid, Verdict(args.verdict), note=args.note, override=args.override)
    except Unanimous as exc:
        say(f"reviewer adjudicate: {failure.id}: {exc.consensus.describe()}; adjudication is for disagreements. "
            "Nothing saved: pass --override to record a final verdict anyway", err=True)
        return 1
    except (LabelsUnsafe, OSError, TimeoutError) as exc:
        say(f"reviewer adjudicate: not saved: {exc}", err=True)
        return 1
    settled = ", ".join(f"{who}: {v.value}" for who, v in lab.settled) or "no reviewer had decided it"
    say(f"{lab.failure_id}: final verdict {lab.verdict.value} by {identity.describe()} (settles {settled})"
        + (f"; note: {lab.note}" if lab.note else ""))
    return 0
