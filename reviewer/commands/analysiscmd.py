"""``reviewer stats`` and ``reviewer score``: the numbers ground truth is for.

``stats [PATH] [--json] [--final | --reviewer NAME]`` prints per task and per model the
failures, labelled, specification and capability counts (with shares and bars), pass rates as
graded and corrected with Wilson 95% intervals, the ranking of models both ways, the estimated
verifier false-negative rate, each reviewer's progress and each judge against the humans
(``reviewer judge``: kappa with its interval, precision and recall of specification, which way it
errs). In blind mode (the ``blind``
setting, default on) and without ``--final`` or ``--reviewer`` it uses only the current
reviewer's own labels and says so. ``score PREDICTIONS.toml [PATH] [--json]`` scores a predictor
against the final verdicts beside the flag-everything baseline. Stale labels count as unlabelled.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from reviewer.model.sanitize import plain
from reviewer.model.wording import count, plural


def folder_args(p: argparse.ArgumentParser) -> None:
    """``PATH`` and ``--json``."""
    from reviewer.commands.common import folder_arg

    folder_arg(p)
    p.add_argument("--json", action="store_true", help="print one JSON document")


def open_store(path: Path | None, labels: Path | None = None):
    """A scanned store of the folder or harness log (exits 2 when it is neither)."""
    from reviewer.commands import common

    store = common.open_store(path, labels)
    store.scan()
    return store


def warn(command: str, lines: tuple[str, ...] | list[str]) -> None:
    """Problems worth knowing that do not stop the command, on stderr."""
    for line in lines:
        print(plain(f"reviewer {command}: {line}"), file=sys.stderr)


def scope_args(p: argparse.ArgumentParser) -> None:
    """``--final`` or ``--reviewer NAME``: whose verdicts count."""
    who = p.add_mutually_exclusive_group()
    who.add_argument("--final", action="store_true",
                     help="every reviewer's final verdicts (adjudicated, else unanimous), blind mode or not")
    who.add_argument("--reviewer", metavar="NAME", help="only this reviewer's own labels")


def resolve_scope(command: str, args: argparse.Namespace):
    """The :class:`~reviewer.analysis.stats.summary.Scope` of ``--final`` / ``--reviewer``, else of blind mode.

    Without either flag: in blind mode (the ``blind`` setting, default true) the current
    reviewer's own labels (``reviewer`` setting, else git's user.name, else the login), otherwise
    every reviewer's final verdicts.
    """
    from reviewer.analysis.stats.summary import Scope
    from reviewer.store.settings.config import load_settings
    from reviewer.store.settings.identity import resolve_reviewer

    if args.final:
        return Scope()
    if args.reviewer:
        return Scope(args.reviewer.strip())
    settings, problems = load_settings()
    warn(command, [f"settings: {p}" for p in problems])
    return Scope(resolve_reviewer(None, settings.reviewer), blind=True) if settings.blind else Scope()


def cmd_stats(args: argparse.Namespace) -> int:
    """reviewer stats."""
    from reviewer.analysis.stats.rescored import stats_with_rescores
    from reviewer.analysis.stats.summary import stats_json
    from reviewer.rescore.tally import tally_json

    scope = resolve_scope("stats", args)
    store = open_store(args.path, args.labels)
    only = args.rescores_of
    if only == "me":
        from reviewer.store.settings.identity import resolve_reviewer

        only = resolve_reviewer(getattr(args, "reviewer", None))
    stats, rescores, text = stats_with_rescores(store, scope, terminal_width(), only)
    warn("stats", [f"{count(len(store.errors), 'file')} did not load (see `reviewer check`)"] if store.errors else [])
    warn("stats", [*stats.errors, *rescores.errors, *stats.judge_problems])
    if args.json:
        print(json.dumps({**stats_json(stats), "repaired_by_notation": tally_json(rescores.tally),
                          "rescores_counted": {"reviewers": list(rescores.reviewers), "only": rescores.only}},
                         ensure_ascii=True, indent=2))
    else:
        sys.stdout.write(text)
    # a labels or predictions file (or line) not read, or a duplicate: the figures are not the whole truth
    return 1 if stats.errors or stats.judge_problems else 0


def cmd_score(args: argparse.Namespace) -> int:
    """reviewer score."""
    from reviewer.analysis.stats.facts import collect
    from reviewer.analysis.stats.score import (
        BadPredictions,
        read_predictions,
        render_score,
        score_json,
        score_predictions,
    )

    try:
        predictions = read_predictions(args.predictions)
    except BadPredictions as exc:
        print(plain(f"reviewer score: {exc}"), file=sys.stderr)
        return 1
    store = open_store(args.path, args.labels)
    facts = collect(store)
    warn("score", facts.errors)
    score = score_predictions(predictions, facts)
    if score.unknown:
        warn("score", [f"{count(score.unknown, 'prediction')} {plural('names', score.unknown, 'name')} no failure in {store.root}"])
    if args.json:
        print(json.dumps(score_json(score), ensure_ascii=True, indent=2))
    else:
        sys.stdout.write(render_score(score))
    return 1 if facts.errors else 0


def terminal_width() -> int:
    """The terminal's width (100 when unknown), for the bars."""
    import shutil

    return max(60, min(160, shutil.get_terminal_size((100, 24)).columns))


def register(sub: argparse._SubParsersAction, command_parser: Callable[..., argparse.ArgumentParser]) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add ``stats`` and ``score`` to the command line."""
    p = command_parser(
        sub, "stats",
        "per task and model: failures, labelled, specification and capability shares; pass rates as graded and "
        "corrected (specification failures counted as passes) with Wilson 95% intervals and the ranking of models "
        "both ways; the verifier false-negative rate; progress per reviewer. Blind mode (the default) counts only "
        "your own labels: --final for everyone's final verdicts. Stale labels count as unlabelled",
        "a labels file or line could not be read, or a reviewer has two labels on one failure\n"
        "     (each named on stderr; the figures use what could be read, the newer of two labels)",
    )
    folder_args(p)
    scope_args(p)
    p.add_argument("--rescores-of", metavar="NAME", default="",
                   help="count only NAME's re-score records in the re-scored figures (default: every record, each "
                        "reviewer named); `--rescores-of me` counts your own")
    p = command_parser(
        sub, "score",
        "score predictions ([[prediction]] session, run, check, flagged) against the labels, beside the "
        "flag-everything baseline; disputed failures are left out and counted",
        "the predictions file is unreadable or invalid, or a labels file or line could not be read\n"
        "     (or a reviewer has two labels on one failure: each named on stderr)",
    )
    p.add_argument("predictions", type=Path, metavar="PREDICTIONS.toml", help="the predictor's [[prediction]] tables")
    folder_args(p)
    return {"stats": cmd_stats, "score": cmd_score}
