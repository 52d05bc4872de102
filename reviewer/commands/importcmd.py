"""``reviewer import FORMAT SOURCE...``: runs of other harnesses into a sessions folder."""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reviewer.importers import FOLDER_FORMATS, FORMATS
from reviewer.model.rerun import workspace_path_problem
from reviewer.model.wording import count

ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,199}$")
DESCRIPTION = """\
Import recorded runs into the sessions folder --into (default ./sessions), as one session
(--session NAME, default derived from the first source; `runs` and `labels` are reserved by
the format and refused). Runs are read and written one at a time, by one worker process per
core for large imports; a progress bar is drawn on a terminal (never on a pipe). Nothing
behind a symbolic link is read: a source that is a link is refused, a link inside a
SWE-bench or code folder is skipped and named in a warning. The session is built in a hidden
folder and renamed into place, so a failed import leaves nothing half-written. Importing the
same source again replaces its runs in place with identical files and ids; the session's
labels/ are kept, so labels stay attached. Runs an earlier import of the session took from
other sources are kept. A folder reviewer import did not write is never replaced.

formats:
  inspect         Inspect AI logs (.eval, deflate or zstd entries, or .json). One run per
                  sample epoch (<id>-epoch-<n>), task = sample id. Brief = system message +
                  input; code = files written by tool calls, else the last reply (answer.md),
                  plus each scorer's answer; one grader per scorer, its checks from the score
                  value: C passes; I, N and P (partial) fail; true passes, false fails;
                  numbers >= 1 pass, lower fail; yes/correct/pass... pass, no/incorrect/fail...
                  fail; anything else is a skipped check. A dict value gives one check per key.
                  Sandbox commands inside a scorer go to its grader output; the rest, and
                  everything else unmapped, to run metadata.
  swe-agent       SWE-agent .traj files, one run each; retry agent attempts[] are attempts
                  (patch.diff each). With --swebench DIR (report.json, test_output.txt) the
                  FAIL_TO_PASS / PASS_TO_PASS tests are checks; without it the run has no
                  grader and outcome unknown.
  mini-swe-agent  mini-swe-agent *.traj.json files, one run each, submission as patch.diff,
                  no grader.
  atif            ATIF trajectories (Harbor's Agent Trajectory Interchange Format, v1.0-1.8):
                  files, or folders searched for them (a Harbor job folder). One run per
                  trajectory (id: the Harbor trial's name, else the path), its continuations
                  and subagents included. Brief = the first user message; code = files the
                  tool calls wrote (edits of others as edits.diff), apply_patch inputs, a
                  patch in the root extra, else the last agent message; steps as turns, tool
                  calls with their observations. In a Harbor trial folder the verifier's
                  rewards (result.json, verifier/reward.*) are checks of a harbor-verifier
                  grader (1 passes, less fails) with verifier/test-stdout.txt as its output;
                  elsewhere outcome unknown.
  go-test         SOURCE is the folder of files the model wrote; --grader-output FILE holds
  junit           `go test -json` / `go test -v` output, JUnit XML, or `pytest -rA` output.
  pytest          Checks are derived from that output by the parsers.

A source that is not the claimed format gets one line:
  reviewer import: FILE: not a FORMAT file (why)"""



def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``reviewer import``."""
    p.add_argument("format", choices=FORMATS, metavar="FORMAT", help=f"one of: {', '.join(FORMATS)}")
    p.add_argument("sources", nargs="+", type=Path, metavar="SOURCE", help="log or trajectory files (atif: folders too); for go-test/junit/pytest the code folder")
    p.add_argument("--into", type=Path, default=Path("sessions"), metavar="PATH", help="sessions folder to write into (default: ./sessions, created if missing)")
    p.add_argument("--session", metavar="NAME", help="session name (letters, digits, '.', '_', '-')")
    p.add_argument("--grader-output", type=Path, metavar="FILE", help="go-test/junit/pytest: the grader's raw output")
    p.add_argument("--brief", type=Path, metavar="FILE", help="go-test/junit/pytest: the brief the model was given (Markdown)")
    p.add_argument("--task", metavar="ID", help="go-test/junit/pytest: task id (default: the folder name)")
    p.add_argument("--model", metavar="NAME", help="model name (go-test/junit/pytest default: unknown; trajectories: from the file)")
    p.add_argument("--exit-status", type=int, metavar="N", help="go-test/junit/pytest: the grader's exit status")
    p.add_argument("--grader-command", default="", metavar="CMD", help="go-test/junit/pytest: the command that produced the output")
    p.add_argument("--grader-file", type=Path, action="append", default=[], metavar="FILE",
                   help="go-test/junit/pytest: a file of the grader (test file, oracle), kept with it; repeatable")
    p.add_argument("--rerun-command", default="", metavar="CMD",
                   help="go-test/junit/pytest: how to run the grader again in the code folder with the --grader-file "
                        "files beside it; recorded as [grader.rerun] so `reviewer rescore` can re-score it. It must "
                        "print output of the same format as --grader-output (JUnit XML on stdout, or in --rerun-report)")
    p.add_argument("--program", default="", metavar="FILE",
                   help="go-test/junit/pytest: the file of the code folder the checker runs as a program (a property "
                        "oracle that runs `python fast_expt.py`): a notation repair puts its shim there, and a re-score "
                        "observes its runs. Without it only an interpreter limit can be lifted")
    p.add_argument("--rerun-report", default="", metavar="FILE",
                   help="go-test/junit/pytest: the file, relative to the code folder, the re-run writes its results to "
                        "(`pytest --junitxml=report.xml`: report.xml), read instead of what it prints")
    p.add_argument("--swebench", type=Path, metavar="DIR", help="swe-agent: SWE-bench evaluation folder (report.json, test_output.txt)")
    p.add_argument("--workers", type=int, metavar="N", help="worker processes for large imports (default: one per core from 200 runs on; 0: none)")


def usage_error(message: str) -> int:
    """Print a usage problem; exit status 2."""
    print(f"reviewer import: {message}", file=sys.stderr)
    return 2


def check_usage(args: argparse.Namespace) -> str:
    """What is wrong with the arguments, or ""."""
    if args.session is not None and not ID.match(args.session):
        return f"--session {args.session!r}: use letters, digits, '.', '_' and '-' (not starting with '.' or '-')"
    if args.session is not None:
        from reviewer.importers.writer import reserved

        if reserved(args.session):
            return f"--session {args.session!r} is reserved: {reserved(args.session).partition(': ')[2]}"
    if args.format in FOLDER_FORMATS:
        if args.grader_output is None:
            return f"{args.format} needs --grader-output FILE"
        if len(args.sources) != 1:
            return f"{args.format} takes one code folder"
        if (args.program or args.rerun_report) and not args.rerun_command:
            return "--program and --rerun-report describe the re-run: give --rerun-command CMD too"
        for flag, value in (("--program", args.program), ("--rerun-report", args.rerun_report)):
            problem = workspace_path_problem(value, flag) if value else ""
            if problem:
                return problem
    elif (args.grader_output or args.brief or args.task or args.exit_status is not None or args.grader_command
          or args.grader_file or args.rerun_command or args.program or args.rerun_report):
        return (f"--grader-output, --brief, --task, --exit-status, --grader-command, --grader-file, --rerun-command, "
                f"--program and --rerun-report are for go-test, junit and pytest, not {args.format}")
    if args.swebench is not None and args.format != "swe-agent":
        return "--swebench is for the swe-agent format"
    return ""


def unique_paths(paths: list[Path]) -> list[Path]:
    """The sources without repeats, in the order given."""
    seen: set[str] = set()
    out = []
    for p in paths:
        key = os.path.abspath(p)  # no system call per source (links are refused when read)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def build_session(args: argparse.Namespace):
    """Run the importer the format names."""
    sources = unique_paths(args.sources)
    if args.format == "inspect":
        from reviewer.store.logs.inspect_ai import import_inspect

        return import_inspect(sources, args.session, args.model)
    if args.format == "swe-agent":
        from reviewer.store.logs.swe_agent import import_swe_agent

        return import_swe_agent(sources, args.session, args.swebench, args.model)
    if args.format == "mini-swe-agent":
        from reviewer.store.logs.mini_swe import import_mini_swe

        return import_mini_swe(sources, args.session, args.model)
    if args.format == "atif":
        from reviewer.store.logs.atif import import_atif

        return import_atif(sources, args.session, args.model)
    from reviewer.importers.testoutput import import_test_output

    return import_test_output(
        args.format,
        sources[0],
        args.grader_output,
        name=args.session,
        brief=args.brief,
        task=args.task,
        model=args.model,
        exit_status=args.exit_status,
        command=args.grader_command,
        rerun_command=args.rerun_command,
        grader_files=unique_paths(args.grader_file),
        program=args.program,
        rerun_report=args.rerun_report,
    )


class ProgressBar:
    """A one-line progress bar on a terminal's stderr, redrawn at most ten times a second; nothing on a pipe."""

    def __init__(self, stream: Any, total: int) -> None:
        self.stream = stream
        self.total = total
        self.started = time.monotonic()
        self.drawn = 0.0

    @classmethod
    def on(cls, stream: Any, total: int) -> ProgressBar | None:
        """A bar when ``stream`` is a terminal and the import is big enough to wait for."""
        try:
            tty = stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        return cls(stream, total) if tty and total >= 50 else None

    def update(self, done: int, total: int) -> None:
        """Redraw (throttled)."""
        now = time.monotonic()
        if now - self.drawn < 0.1 and done < total:
            return
        self.drawn = now
        width = 30
        filled = width * done // max(total, 1)
        rate = done / max(now - self.started, 1e-6)
        self.stream.write(f"\r\x1b[2Kimporting [{'#' * filled}{'.' * (width - filled)}] {done:,}/{count(total, 'run')}, {rate:,.0f}/s")
        self.stream.flush()

    def close(self) -> None:
        """Clear the bar's line."""
        self.stream.write("\r\x1b[2K")
        self.stream.flush()


def one_line(text: str) -> str:
    """Sanitised text on a single line."""
    from reviewer.model.sanitize import plain

    return " ".join(plain(text).split())


def cmd_import(args: argparse.Namespace) -> int:
    """reviewer import."""
    from reviewer.importers.writer import write_session
    from reviewer.store.logs.spec import ImportFailed, NotFormat

    problem = check_usage(args)
    if problem:
        return usage_error(problem)
    try:
        session = build_session(args)
        if not session.total():
            print(f"reviewer import: {one_line(str(args.sources[0]))}: holds no runs to import", file=sys.stderr)
            return 1
        bar = ProgressBar.on(sys.stderr, session.total())
        try:
            result = write_session(session, args.into, bar.update if bar else None, args.workers)
        finally:
            if bar:
                bar.close()
    except NotFormat as exc:
        source = exc.source if exc.source is not None else args.sources[0]
        article = "an" if args.format[0] in "aeiou" else "a"
        print(f"reviewer import: {one_line(str(source))}: not {article} {args.format} file ({one_line(exc.reason)})", file=sys.stderr)
        return 1
    except ImportFailed as exc:
        print(f"reviewer import: {one_line(str(exc))}", file=sys.stderr)
        return 1
    except (RecursionError, MemoryError):
        print(f"reviewer import: {one_line(str(args.sources[0]))}: too deeply nested or too large to import", file=sys.stderr)
        return 1
    for w in [*session.warnings, *result.warnings]:
        print(f"reviewer import: {one_line(w)}", file=sys.stderr)
    kept = f", {len(result.carried)} kept from other sources" if result.carried else ""
    print(
        one_line(
            f"imported {count(len(result.runs), 'run')} into {result.path} ({len(result.updated)} updated in place{kept})"
        )
    )
    return 0


def register(sub: argparse._SubParsersAction, command_parser: Callable[..., argparse.ArgumentParser]) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add ``import`` to the command line."""
    p = command_parser(
        sub,
        "import",
        "import runs of other harnesses (Inspect, SWE-agent, mini-swe-agent, ATIF, go test, JUnit, pytest)",
        "a source is not the claimed format or cannot be read, or the session could not be written (nothing is written then)",
    )
    p.description = DESCRIPTION
    add_arguments(p)
    return {"import": cmd_import}
