"""Command line: ``reviewer [PATH]`` opens the app; subcommands work headless for scripts and CI."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable, Sequence

from reviewer import __version__

EXIT_CODES = """exit status:
  0  success
  1  {one}
  2  bad usage, or PATH is not a folder"""


def folder_arg(p: argparse.ArgumentParser) -> None:
    """The optional sessions folder argument every command takes."""
    p.add_argument(
        "path",
        nargs="?",
        type=Path,
        help="sessions folder (default: ./sessions when it exists, else the bundled examples)",
    )


def command_parser(sub: argparse._SubParsersAction, name: str, help_text: str, one: str) -> argparse.ArgumentParser:
    """A subcommand parser whose --help documents its exit codes."""
    return sub.add_parser(
        name,
        help=help_text.replace("%", "%%"),
        description=help_text,
        epilog=EXIT_CODES.format(one=one),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def build_parser() -> argparse.ArgumentParser:
    """The parser for every subcommand."""
    parser = argparse.ArgumentParser(
        prog="reviewer",
        description="Triage failures of code-generating models: specification or capability.",
        epilog="Run `reviewer [PATH]` to open the app, or `reviewer COMMAND --help`.\n\n"
        + EXIT_CODES.format(one="the command failed (see its --help)"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"reviewer {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = command_parser(sub, "check", "validate a sessions folder, one line per problem", "problems were found")
    folder_arg(p)
    p = command_parser(sub, "list", "list the runs that loaded (errors on stderr)", "never (load errors still exit 0)")
    folder_arg(p)
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p = command_parser(sub, "show", "print what the panes show for one failure, as plain text", "no such failure")
    folder_arg(p)
    p.add_argument("--failure", metavar="ID", required=True, help="SESSION/RUN#GRADER:CHECK")
    reviewer_arg(p)
    p = command_parser(
        sub, "label", "label one failure (the same code path as the app)", "no such failure, or the label could not be saved"
    )
    folder_arg(p)
    p.add_argument("--failure", metavar="ID", required=True, help="SESSION/RUN#GRADER:CHECK")
    p.add_argument("--verdict", required=True, choices=["specification", "capability", "deferred"])
    p.add_argument("--note", help="a note saved with the label")
    p.add_argument("--tag", action="append", default=None, help="a tag (repeatable)")
    reviewer_arg(p)
    p = command_parser(sub, "export", "export labels as one TOML document (or JSON Lines / CSV)",
                       "a labels file could not be read, or the export could not be written\n"
                       "     (disk full, output closed early: one line on stderr, an -o FILE left as it was)")
    folder_arg(p)
    p.add_argument("-o", "--output", metavar="FILE", type=Path, help="write here instead of stdout")
    p.add_argument("--reviewer", metavar="NAME", help="only this reviewer's labels (default: everyone's)")
    p.add_argument("--format", choices=["toml", "jsonl", "csv"], default="toml")
    p.add_argument("--include-deferred", action="store_true", help="also export deferred failures (verdict \"deferred\")")
    p.add_argument("--final", action="store_true", help="one final label per failure (adjudicated, else unanimous)")
    for module in plugin_modules():
        COMMANDS.update(module.register(sub, command_parser))
    return parser


PLUGINS = (
    "reviewer.commands.gitcmds",
    "reviewer.commands.importcmd",
    "reviewer.commands.analysiscmd",
    "reviewer.commands.themecmd",
)
PLUGIN_NAMES = {
    "commit": "reviewer.commands.gitcmds",
    "agreement": "reviewer.commands.gitcmds",
    "adjudicate": "reviewer.commands.gitcmds",
    "import": "reviewer.commands.importcmd",
    "stats": "reviewer.commands.analysiscmd",
    "score": "reviewer.commands.analysiscmd",
    "themes": "reviewer.commands.themecmd",
}


def plugin_modules() -> list:
    """Command modules that exist in this install.

    Each defines ``register(sub, command_parser) -> {name: handler}``; ``command_parser`` makes a
    subparser whose --help documents the exit codes.
    """
    import importlib

    found = []
    for name in PLUGINS:
        try:
            found.append(importlib.import_module(name))
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    return found


def reviewer_arg(p: argparse.ArgumentParser) -> None:
    """--reviewer for commands that act for a reviewer."""
    p.add_argument("--reviewer", metavar="NAME", help="who is labelling (default: git user.name, else login)")


def app_parser() -> argparse.ArgumentParser:
    """The parser for ``reviewer [PATH]`` (the app)."""
    parser = argparse.ArgumentParser(
        prog="reviewer",
        description="Open the review app on a sessions folder. Commands: "
        + ", ".join(sorted(set(COMMANDS) | set(PLUGIN_NAMES)))
        + " (see `reviewer COMMAND --help`).",
        epilog=EXIT_CODES.format(one="the app could not start"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"reviewer {__version__}")
    folder_arg(parser)
    parser.add_argument("--failure", metavar="ID", help="open at this failure (SESSION/RUN#GRADER:CHECK)")
    parser.add_argument("--reviewer", metavar="NAME", help="who is labelling (default: git user.name, else login)")
    return parser


def resolve_folder(path: Path | None) -> Path:
    """The sessions folder to use; exits 2 when it is not a folder."""
    from reviewer.store.paths import default_sessions

    folder = path if path is not None else default_sessions()
    if not folder.is_dir():
        print(f"reviewer: {folder}: not a folder", file=sys.stderr)
        raise SystemExit(2)
    return folder


def cmd_check(args: argparse.Namespace) -> int:
    """reviewer check."""
    from reviewer.commands.listing import check_folder
    from reviewer.store.sessions import SessionStore

    return check_folder(SessionStore(resolve_folder(args.path)))


def cmd_list(args: argparse.Namespace) -> int:
    """reviewer list."""
    from reviewer.commands.listing import list_runs
    from reviewer.store.sessions import SessionStore

    return list_runs(SessionStore(resolve_folder(args.path)), args.json)


def open_labeller(path: Path | None, reviewer: str | None):  # noqa: ANN201 - lazy import keeps start fast
    """A scanned store and a labeller for the reviewer."""
    from reviewer.store.identity import resolve_reviewer
    from reviewer.store.labeller import Labeller
    from reviewer.store.labels import LabelStore
    from reviewer.store.sessions import SessionStore

    folder = resolve_folder(path)
    store = SessionStore(folder)
    store.scan()
    return Labeller(store, LabelStore(folder, resolve_reviewer(reviewer)))


def cmd_show(args: argparse.Namespace) -> int:
    """reviewer show."""
    from reviewer.commands.show import show_failure
    from reviewer.store.labeller import UnknownFailure

    labeller = open_labeller(args.path, args.reviewer)
    try:
        print(show_failure(labeller, args.failure), end="")
    except UnknownFailure as exc:
        print(f"reviewer show: {exc}", file=sys.stderr)
        return 1
    return 0


def cmd_label(args: argparse.Namespace) -> int:
    """reviewer label."""
    from reviewer.model.label import Verdict
    from reviewer.store.labeller import SaveFailed, UnknownFailure

    labeller = open_labeller(args.path, args.reviewer)
    try:
        lab = labeller.decide(args.failure, Verdict(args.verdict), args.note, tuple(args.tag) if args.tag else None)
    except UnknownFailure as exc:
        print(f"reviewer label: {exc}", file=sys.stderr)
        return 1
    except SaveFailed as exc:
        print(f"reviewer label: not saved: {exc}", file=sys.stderr)
        return 1
    from reviewer.model.sanitize import plain

    where = labeller.labels.file(lab.session).path
    print(plain(f"{lab.failure_id}: {lab.verdict.value} by {lab.reviewer} (saved in {where})"))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """reviewer export."""
    from reviewer.commands.export import collect, render
    from reviewer.commands.output import write_result

    labeller = open_labeller(args.path, "(export)")
    if args.final:
        from reviewer.commands.export import collect_final

        records, errors, left_out = collect_final(labeller)
        print(f"reviewer export: {left_out} failure(s) left out: reviewers disagree, not adjudicated", file=sys.stderr)
    else:
        records, errors = collect(labeller, args.reviewer, args.include_deferred)
    for e in errors:
        print(f"reviewer export: {e}", file=sys.stderr)
    text = render(records, args.format)
    if write_result(text.encode("utf-8"), args.output, "reviewer export"):
        return 1
    return 1 if errors else 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "check": cmd_check,
    "list": cmd_list,
    "show": cmd_show,
    "label": cmd_label,
    "export": cmd_export,
}


def run_app(argv: Sequence[str]) -> int:
    """Open the Textual app."""
    args = app_parser().parse_args(argv)
    folder = resolve_folder(args.path)
    from reviewer.ui.launch import launch

    return launch(folder, failure=args.failure, reviewer=args.reviewer)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``reviewer`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and (argv[0] in COMMANDS or argv[0] in PLUGIN_NAMES or argv[0] in ("-h", "--help", "--version")):
            args = build_parser().parse_args(argv)
            if args.command is None:
                build_parser().print_help()
                return 0
            return COMMANDS[args.command](args)
        return run_app(argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
