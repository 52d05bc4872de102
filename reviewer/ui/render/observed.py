"""An observation drawn for the Grader pane: what the program did when the grader ran it.

Every string comes from the sandbox and is untrusted: arguments go through ``one_line`` and the
streams through :func:`~reviewer.ui.render.lines.ansi_lines` (the one sanitiser, SGR colours kept).
"""

from __future__ import annotations

import signal

from textual.content import Content

from reviewer.model.observation import Invocation
from reviewer.model.sanitize import one_line
from reviewer.review.rescoring import Observed
from reviewer.ui.render.lines import LINE_CAP, ansi_lines

STREAM_LINES = 60
"""Lines of one stream of one run shown at most (the record keeps head and tail of longer ones)."""


def observed_title(observed: Observed) -> Content:
    """``◉ observed: 5 runs of roman.py observed, 2 ended with an error  (bo, 2026-…)``."""
    who = ", ".join(x for x in (one_line(observed.reviewer, 40), one_line(observed.at, 24)) if x)
    mine = len(observed.runs)
    scope = f"  {mine} of them by this check" if mine != observed.of_all else ""
    stopped = f"  stopped: {one_line(observed.stopped, 80)}" if observed.stopped else ""
    return Content.assemble(("\u25c9 observed: ", "bold $text-accent"), (one_line(observed.summary, 160), "bold"),
                            (scope, "$text-muted"), (stopped, "$text-warning"), (f"  ({who})" if who else "", "$text-muted"))


def ending(run: Invocation) -> tuple[str, str]:
    """How a run ended, styled: ``exit 0``, ``exit 1``, ``killed by SIGKILL``, ``still running``."""
    status = run.exit_status
    if status is None:
        return "still running when the grader ended", "$text-warning"
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return f"killed by {name}", "$text-error"
    return f"exit {status}", "$text-success" if status == 0 else "$text-error"


def stream(name: str, text: str, cut: bool, cap: int) -> list[Content]:
    """One stream of one run under its name (nothing when it is empty)."""
    if not text:
        return []
    prepared = ansi_lines(text, cap)
    lines = list(prepared.lines)
    more = len(lines) - STREAM_LINES
    out = [Content.styled(f"  {name}{' (head and tail kept)' if cut else ''}:", "$text-muted")]
    out += [Content.assemble("    ", line) for line in lines[:STREAM_LINES]]
    if more > 0:
        out.append(Content.styled(f"    [... {more} more lines]", "$text-muted"))
    return out


def observed_lines(observed: Observed, cap: int = LINE_CAP) -> tuple[list[Content], int]:
    """The section's lines (each run: its command line, how it ended, its streams) and their width."""
    lines: list[Content] = []
    if not observed.runs:
        lines.append(Content.styled("the program never ran for this check", "$text-warning"))
    for n, run in enumerate(observed.runs, 1):
        argv = " ".join(one_line(a, 200) for a in run.argv) or "(no arguments recorded)"
        text, style = ending(run)
        lines.append(Content.assemble((f"run {n}: ", "bold"), ("$ ", "$text-muted"), (one_line(argv, 400), "$text-accent"),
                                      "  ", (text, style), (f" after {run.seconds:.2f} s", "$text-muted")))
        if run.test:
            lines.append(Content.styled(f"  made by {one_line(run.test, 200)}", "$text-muted"))
        lines += stream("stdin", run.stdin, "stdin" in run.cut, cap)
        lines += stream("stdout", run.stdout, "stdout" in run.cut, cap)
        lines += stream("stderr", run.stderr, "stderr" in run.cut, cap)
    width = max((line.cell_length for line in lines), default=0)
    return lines, width
