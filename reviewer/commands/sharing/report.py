"""``reviewer report [PATH] [-o report.html] [--final | --reviewer NAME] [--predictions FILE]...``

One self-contained HTML file to hand to a colleague or print: pass rates as graded and
corrected with their intervals and plots, the ranking both ways, verdict shares per task and
tag, reviewer agreement, the verifier false-negative rate, predictor scorecards, what the saved
re-scores did (checks flipped once only the notation was repaired, and the pass rates that count
them) and the list of specification failures. It opens offline (no script, nothing fetched). Blind mode, as for
``reviewer stats``: without ``--final`` or ``--reviewer`` only your own labels are used and the
agreement section says how to see it. Plots need matplotlib: ``pip install 'reviewer[report]'``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path

from reviewer.commands.analysiscmd import open_store, resolve_scope, scope_args, warn
from reviewer.commands.common import folder_arg
from reviewer.model.sanitize import plain
from reviewer.model.wording import count


def generated_at() -> str:
    """Now in UTC (or ``SOURCE_DATE_EPOCH``, for reproducible reports)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    seconds = int(epoch) if epoch.isdigit() else time.time()
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))


def command_line(args: argparse.Namespace) -> str:
    """The command that made the report, for its header (the folder by name only)."""
    words = ["reviewer", "report"]
    if args.path is not None:
        words.append(args.path.name or str(args.path))
    if args.final:
        words.append("--final")
    elif args.reviewer:
        words += ["--reviewer", args.reviewer]
    for path in args.predictions or ():
        words += ["--predictions", path.name]
    return " ".join(shlex.quote(w) for w in words)


def cmd_report(args: argparse.Namespace) -> int:
    """reviewer report."""
    from reviewer.analysis.stats.report_data import build_report
    from reviewer.analysis.stats.rescored import rescored
    from reviewer.analysis.stats.score import BadPredictions, read_predictions
    from reviewer.commands.sharing import report_plots
    from reviewer.commands.sharing.report_html import render
    from reviewer.store.fs.atomic import atomic_write

    try:
        report_plots.require()
    except report_plots.PlotsMissing as exc:
        print(f"reviewer report: {exc}", file=sys.stderr)
        return 1
    predictions = []
    for path in args.predictions or ():
        try:
            predictions.append((path.name, read_predictions(path)))
        except BadPredictions as exc:
            print(plain(f"reviewer report: {exc}"), file=sys.stderr)
            return 1
    scope = resolve_scope("report", args)
    store = open_store(args.path, args.labels)
    only = args.rescores_of
    if only == "me":
        from reviewer.store.settings.identity import resolve_reviewer

        only = resolve_reviewer(getattr(args, "reviewer", None))
    rescores = rescored(store, only)
    data = build_report(store, scope, predictions, rescores)
    warn("report", [f"{count(len(store.errors), 'file')} did not load (see `reviewer check`)"] if store.errors else [])
    warn("report", [*data.stats.errors, *rescores.errors])
    page = render(data, generated_at(), command_line(args)).encode("utf-8")
    out: Path = args.output
    try:
        atomic_write(out, page)
    except OSError as exc:
        print(plain(f"reviewer report: {out}: not written: {exc.strerror or exc}"), file=sys.stderr)
        return 1
    print(plain(f"{out}: {len(page) // 1024} KB, {count(data.stats.total.failures, 'failure')}, "
                f"{data.stats.total.labelled} labelled ({data.scope.describe()})"))
    return 0


def register(sub: argparse._SubParsersAction, command_parser: Callable[..., argparse.ArgumentParser]) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add ``report`` to the command line."""
    p = command_parser(
        sub, "report",
        "write one self-contained HTML report (opens offline, prints well): pass rates as graded and corrected with "
        "plots and intervals, the ranking both ways, verdicts per task and tag, reviewer agreement, the verifier "
        "false-negative rate, predictor scorecards, the specification failures. Blind mode (the default) uses only "
        "your own labels: --final for everyone's. Needs matplotlib: pip install 'reviewer[report]'",
        "matplotlib is missing, a predictions file is unreadable, or the file could not be written",
    )
    folder_arg(p)
    p.add_argument("-o", "--output", type=Path, default=Path("report.html"), metavar="FILE", help="where to write (default: report.html)")
    p.add_argument("--rescores-of", metavar="NAME", default="",
                   help="count only NAME's re-score records in the re-scored figures (default: every record, each reviewer named); "
                        "`--rescores-of me` counts your own")
    p.add_argument("--predictions", type=Path, action="append", metavar="FILE",
                   help="a predictor's [[prediction]] tables (as for `reviewer score`), scored beside the flag-everything baseline; repeatable")
    scope_args(p)
    return {"report": cmd_report}
