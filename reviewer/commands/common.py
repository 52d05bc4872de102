"""What every command shares: the folder and reviewer arguments, exit codes, opening the folder,
finding a failure from a unique prefix."""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reviewer.store.labels import Labeller
    from reviewer.store.sessions.inplace import LogSource
    from reviewer.store.sessions.store import SessionStore
    from reviewer.store.settings.config import Settings
    from reviewer.store.settings.identity import Identity


EXIT_CODES = """exit status:
  0  success
  1  {one}
  2  bad usage, or PATH is not a folder"""


HELP_WIDTH = 100
"""``--help`` lines are at most this long, or the terminal's width when it is narrower."""
ROW = re.compile(r"^(\s*\S+(?: \S+)?\s{2,})\S")
"""A row of a two-column list (``  stats       per task ...``, ``  1  the command failed``): its
continuation lines start under the second column."""


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the line breaks of descriptions and epilogs (the exit-code and command lists), but wraps
    each line to the terminal, at most :data:`HELP_WIDTH` columns, a list row's continuation under
    its second column."""

    def __init__(self, prog: str) -> None:
        columns = shutil.get_terminal_size((HELP_WIDTH, 24)).columns
        super().__init__(prog, width=max(40, min(HELP_WIDTH, columns) - 2), max_help_position=30)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        """Each line wrapped on its own (a blank line stays a paragraph break)."""
        return "\n".join(wrap_line(line, width, indent) for line in text.splitlines())


def wrap_line(line: str, width: int, indent: str = "") -> str:
    """One line of a description or epilog wrapped to ``width`` (see :class:`HelpFormatter`)."""
    if len(indent + line) <= width:
        return indent + line
    row = ROW.match(line)
    hang = len(row.group(1)) if row and len(row.group(1)) <= width // 2 else len(line) - len(line.lstrip())
    return textwrap.fill(line.strip(), width, initial_indent=indent + line[: len(line) - len(line.lstrip())],
                         subsequent_indent=indent + " " * hang, break_on_hyphens=False)


def folder_arg(p: argparse.ArgumentParser) -> None:
    """The optional sessions folder (or harness log) argument every command takes, and ``--labels``."""
    p.add_argument(
        "path",
        nargs="?",
        type=Path,
        help="sessions folder (default: ./sessions when it exists, else the bundled examples), or a harness "
             "log read in place: an Inspect .eval or .json log, a folder of mini-swe-agent or SWE-agent trajectories",
    )
    p.add_argument(
        "--labels",
        type=Path,
        metavar="PATH",
        help="for a harness log: the sessions folder that keeps its labels (default: sessions/ beside the log)",
    )


def command_parser(sub: argparse._SubParsersAction, name: str, help_text: str, one: str) -> argparse.ArgumentParser:
    """A subcommand parser whose --help documents its exit codes."""
    return sub.add_parser(
        name,
        help=help_text.replace("%", "%%"),
        description=help_text,
        epilog=EXIT_CODES.format(one=one),
        formatter_class=HelpFormatter,
    )


REVIEWER_HELP = "who is labelling (default: `reviewer` in config.toml, else git's user.name, else the login name)"


FAILURE_HELP = "SESSION/RUN#GRADER:CHECK, or any unique start of one (`reviewer failures` lists them)"


def reviewer_arg(p: argparse.ArgumentParser) -> None:
    """--reviewer for commands that act for a reviewer."""
    p.add_argument("--reviewer", metavar="NAME", help=REVIEWER_HELP)


def failure_arg(p: argparse.ArgumentParser, required: bool = False) -> None:
    """--failure: an id or a unique prefix of one."""
    p.add_argument("--failure", metavar="ID", required=required, help=FAILURE_HELP)


def settings_and_identity(explicit: str | None) -> tuple[Settings, Identity]:
    """The settings (their problems printed on stderr) and who is labelling."""
    from reviewer.model.sanitize import plain
    from reviewer.store.settings.config import load_settings
    from reviewer.store.settings.identity import resolve_identity

    settings, warnings = load_settings()
    for w in warnings:
        print(plain(f"reviewer: {w}"), file=sys.stderr)
    return settings, resolve_identity(explicit, settings.reviewer)


def resolve_folder(path: Path | None, labels: Path | None = None) -> Path:
    """The sessions folder to use (for a harness log, the one that keeps its labels); exits 2 when
    it is neither a folder nor a log."""
    return resolve_target(path, labels)[0]


def resolve_target(path: Path | None, labels: Path | None = None) -> tuple[Path, tuple[LogSource, ...]]:
    """The sessions folder to use and the harness log named instead of one, if any; exits 2 when
    ``path`` is neither a folder nor a log a registered format reads."""
    from reviewer.store.fs.paths import default_sessions
    from reviewer.store.sessions.inplace import labels_root, named_log

    folder = path if path is not None else default_sessions()
    log = named_log(folder) if path is not None else None
    if log is not None:
        if labels is not None and not labels.is_dir():
            print(f"reviewer: --labels {labels}: not a folder", file=sys.stderr)
            raise SystemExit(2)
        return labels_root(log, labels), (log,)
    if labels is not None:
        print(f"reviewer: --labels is for a harness log; {folder} is a sessions folder, which keeps its own labels",
              file=sys.stderr)
        raise SystemExit(2)
    if not folder.is_dir():
        print(f"reviewer: {folder}: not a folder (nor a harness log reviewer reads in place)", file=sys.stderr)
        raise SystemExit(2)
    return folder, ()


def open_store(path: Path | None, labels: Path | None = None) -> SessionStore:
    """The store of the folder (or harness log) a command names, not scanned yet."""
    from reviewer.store.sessions.store import SessionStore

    root, logs = resolve_target(path, labels)
    return SessionStore(root, logs=logs)


def open_labeller(path: Path | None, reviewer: str | None, labels: Path | None = None):  # noqa: ANN201 - lazy import keeps start fast
    """A scanned store and a labeller for the reviewer (None: the name from settings, git or login)."""
    from reviewer.store.labels import Labeller, LabelStore

    store = open_store(path, labels)
    name = reviewer if reviewer is not None else settings_and_identity(None)[1].name
    store.scan()
    return Labeller(store, LabelStore(store.root, name))


def full_failure_id(labeller: Labeller, text: str, command: str) -> str | None:
    """The failure id a --failure value names (a unique prefix is enough), or None after saying why."""
    from reviewer.model.sanitize import plain
    from reviewer.store.labels import UnknownFailure
    from reviewer.store.sessions.lookup import resolve_failure

    try:
        return resolve_failure(labeller.sessions, text)[1].id
    except UnknownFailure as exc:
        print(plain(f"reviewer {command}: {exc}"), file=sys.stderr)
        return None
