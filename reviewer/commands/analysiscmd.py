"""``reviewer stats`` and ``reviewer score``: the numbers ground truth is for.

``stats [PATH] [--json]`` prints per task and per model the failures, labelled, specification
and capability counts (with shares and bars), the estimated verifier false-negative rate with
its Wilson 95% interval, and each reviewer's progress. ``score PREDICTIONS.toml [PATH] [--json]``
scores a predictor against the final verdicts beside the flag-everything baseline. Both use
final verdicts (adjudicated, else unanimous); stale labels count as unlabelled.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable

from reviewer.model.sanitize import plain


def folder_args(p: argparse.ArgumentParser) -> None:
    """``PATH`` and ``--json``."""
    p.add_argument("path", nargs="?", type=Path, help="sessions folder (default: ./sessions when it exists, else the bundled examples)")
    p.add_argument("--json", action="store_true", help="print one JSON document")


def open_store(path: Path | None):  # noqa: ANN201 - lazy imports keep start-up fast
    """A scanned store of the folder (exits 2 when it is not a folder)."""
    from reviewer.cli import resolve_folder
    from reviewer.store.sessions import SessionStore

    store = SessionStore(resolve_folder(path))
    store.scan()
    return store


def warn(command: str, lines: tuple[str, ...] | list[str]) -> None:
    """Problems worth knowing that do not stop the command, on stderr."""
    for line in lines:
        print(plain(f"reviewer {command}: {line}"), file=sys.stderr)


def cmd_stats(args: argparse.Namespace) -> int:
    """reviewer stats."""
    from reviewer.analysis.facts import collect
    from reviewer.analysis.stats import compute_stats, render_stats, stats_json

    from reviewer.rescore.tally import render_tally, tally, tally_json

    store = open_store(args.path)
    stats = compute_stats(collect(store))
    repaired, unread = tally(store)
    warn("stats", [f"{len(store.errors)} file(s) did not load (see `reviewer check`)"] if store.errors else [])
    warn("stats", [*stats.errors, *unread])
    if args.json:
        print(json.dumps({**stats_json(stats), "repaired_by_notation": tally_json(repaired)}, ensure_ascii=True, indent=2))
    else:
        sys.stdout.write(render_stats(stats, terminal_width()))
        if repaired:
            sys.stdout.write("\n" + render_tally(repaired))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    """reviewer score."""
    from reviewer.analysis.facts import collect
    from reviewer.analysis.score import BadPredictions, read_predictions, render_score, score_json, score_predictions

    try:
        predictions = read_predictions(args.predictions)
    except BadPredictions as exc:
        print(plain(f"reviewer score: {exc}"), file=sys.stderr)
        return 1
    store = open_store(args.path)
    facts = collect(store)
    warn("score", facts.errors)
    score = score_predictions(predictions, facts)
    if score.unknown:
        warn("score", [f"{score.unknown} prediction(s) name no failure in {store.root}"])
    if args.json:
        print(json.dumps(score_json(score), ensure_ascii=True, indent=2))
    else:
        sys.stdout.write(render_score(score))
    return 0


def terminal_width() -> int:
    """The terminal's width (100 when unknown), for the bars."""
    import shutil

    return max(60, min(160, shutil.get_terminal_size((100, 24)).columns))


def register(sub: argparse._SubParsersAction, command_parser: Callable[..., argparse.ArgumentParser]) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add ``stats`` and ``score`` to the command line."""
    p = command_parser(
        sub, "stats",
        "per task and model: failures, labelled, specification and capability shares; the verifier false-negative "
        "rate with a Wilson 95% interval; progress per reviewer (final verdicts; stale labels count as unlabelled)",
        "never (unreadable label files are reported on stderr)",
    )
    folder_args(p)
    p = command_parser(
        sub, "score",
        "score predictions ([[prediction]] session, run, check, flagged) against the labels, beside the "
        "flag-everything baseline; disputed failures are left out and counted",
        "the predictions file is unreadable or invalid",
    )
    p.add_argument("predictions", type=Path, metavar="PREDICTIONS.toml", help="the predictor's [[prediction]] tables")
    folder_args(p)
    return {"stats": cmd_stats, "score": cmd_score}
