"""Command line: ``reviewer [PATH]`` opens the app; subcommands work headless for scripts and CI."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from reviewer import __version__
from reviewer.commands.common import (
    EXIT_CODES,
    FAILURE_HELP,
    REVIEWER_HELP,
    HelpFormatter,
    command_parser,
    failure_arg,
    folder_arg,
    full_failure_id,
    open_labeller,
    open_store,
    resolve_target,
    reviewer_arg,
)

if TYPE_CHECKING:
    from reviewer.store.labels import Labeller


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser for every subcommand; with ``command``, the built-in ones and that one only (the
    other command modules are not imported: all of them took 70-80 ms of every command's start)."""
    parser = argparse.ArgumentParser(
        prog="reviewer",
        description="Triage failures of code-generating models: specification or capability.",
        epilog="Run `reviewer [PATH]` to open the app, or `reviewer COMMAND --help`.\n\n"
        + EXIT_CODES.format(one="the command failed (see its --help)"),
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"reviewer {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = command_parser(sub, "check", "validate a sessions folder (and config.toml), one line per problem",
                       "problems were found")
    folder_arg(p)
    p = command_parser(sub, "list", "list the runs that loaded (errors on stderr)", "never (load errors still exit 0)")
    folder_arg(p)
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p = command_parser(sub, "show", "print what the panes show for one failure, as plain text",
                       "no such failure, or a labels file it read has a problem (named on stderr; the\n"
                       "     failure is still shown)")
    folder_arg(p)
    failure_arg(p, required=True)
    p.add_argument("--json", action="store_true", help="print the failure, its checks and its evidence as one JSON object")
    p.add_argument("--across", action="store_true", help="print the same check across every model of the task")
    reviewer_arg(p)
    p = command_parser(
        sub, "label", "label one failure (the same code path as the app)",
        "no such failure, a tag outside the folder's vocabulary, or the label could not be saved",
    )
    folder_arg(p)
    failure_arg(p, required=True)
    p.add_argument("--verdict", required=True, choices=["specification", "capability", "deferred"])
    notes = p.add_mutually_exclusive_group()
    notes.add_argument("--note", metavar="TEXT",
                       help="the note saved with the label; replaces an earlier note (--note '' removes it)")
    notes.add_argument("--keep-note", action="store_true",
                       help="keep the earlier note as it is (without --note or --keep-note an earlier note is kept and"
                       " the command says so)")
    p.add_argument("--tag", action="append", default=None, metavar="TAG",
                   help="a tag from the folder's vocabulary (repeatable; replaces the earlier tags)")
    p.add_argument("--new-tag", action="append", default=None, metavar="TAG",
                   help="a tag that is not in the vocabulary yet: added to tags.toml, then applied (repeatable)")
    reviewer_arg(p)
    p = command_parser(sub, "export", "export labels as one TOML document (or JSON Lines, CSV, a Scout or Docent label set)",
                       "a labels file or line could not be read, a reviewer has two labels on one failure\n"
                       "     (the newer is exported), or the export could not be written\n"
                       "     (disk full, output closed early: one line on stderr, an -o FILE left as it was)")
    folder_arg(p)
    p.add_argument("-o", "--output", metavar="FILE", type=Path, help="write here instead of stdout")
    p.add_argument("--reviewer", metavar="NAME", help="only this reviewer's labels (default: everyone's)")
    p.add_argument("--format", choices=["toml", "jsonl", "csv", "scout", "docent"], default="toml",
                   help="scout: an Inspect Scout validation set (CSV: id,target,task_id,task_repeat); docent: a Docent "
                   "label set (JSON); both hold one verdict per run, from the final verdicts unless --reviewer names "
                   "one reviewer (README: Labels for Inspect Scout and Docent)")
    p.add_argument("--include-deferred", action="store_true", help="also export deferred failures (verdict \"deferred\")")
    p.add_argument("--final", action="store_true", help="one final label per failure (adjudicated, else unanimous)")
    for module in plugin_modules(None if command is None else [PLUGIN_NAMES[command]] if command in PLUGIN_NAMES else []):
        COMMANDS.update(module.register(sub, command_parser))
    return parser


PLUGINS = (
    "reviewer.commands.failures",
    "reviewer.commands.gitcmds",
    "reviewer.commands.importcmd",
    "reviewer.commands.analysiscmd",
    "reviewer.commands.themecmd",
    "reviewer.commands.sharing.report",
    "reviewer.commands.sharing.serve",
    "reviewer.commands.rescore",
    "reviewer.commands.judge",
    "reviewer.commands.helpcmd",
)
PLUGIN_NAMES = {
    "failures": "reviewer.commands.failures",
    "commit": "reviewer.commands.gitcmds",
    "agreement": "reviewer.commands.gitcmds",
    "adjudicate": "reviewer.commands.gitcmds",
    "import": "reviewer.commands.importcmd",
    "stats": "reviewer.commands.analysiscmd",
    "score": "reviewer.commands.analysiscmd",
    "themes": "reviewer.commands.themecmd",
    "report": "reviewer.commands.sharing.report",
    "serve": "reviewer.commands.sharing.serve",
    "rescore": "reviewer.commands.rescore",
    "judge": "reviewer.commands.judge",
    "help": "reviewer.commands.helpcmd",
}


def plugin_modules(names: Sequence[str] | None = None) -> list:
    """Command modules that exist in this install (of ``names``, default all).

    Each defines ``register(sub, command_parser) -> {name: handler}``; ``command_parser`` makes a
    subparser whose --help documents the exit codes.
    """
    import importlib

    found = []
    for name in PLUGINS if names is None else names:
        try:
            found.append(importlib.import_module(name))
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    return found


def command_lines() -> str:
    """``  check     validate a sessions folder ...`` for every command, for ``reviewer --help``."""
    parser = build_parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    rows = [(c.dest, (c.help or "").replace("%%", "%")) for a in actions for c in a._choices_actions]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"  {name.ljust(width)}  {text}" for name, text in rows)


def app_parser(with_commands: bool = False) -> argparse.ArgumentParser:
    """The parser for ``reviewer [PATH]`` (the app); its help also lists the commands."""
    epilog = "settings: $XDG_CONFIG_HOME/reviewer/config.toml (theme, reviewer, auto_advance, blind, [keys]);\n" \
             "keys: press ? in the app.\n\n"
    if with_commands:
        epilog += f"commands (reviewer COMMAND --help for each):\n{command_lines()}\n\n"
    parser = argparse.ArgumentParser(
        prog="reviewer",
        usage="reviewer [PATH] [--failure ID] [--reviewer NAME]\n"
              "       reviewer COMMAND [PATH] [options]",
        description="Triage failures of code-generating models: specification or capability. "
        "Without a COMMAND, open the review app on a sessions folder.",
        epilog=epilog + EXIT_CODES.format(one="the app could not start, or the command failed (see its --help)"),
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"reviewer {__version__}")
    folder_arg(parser)
    parser.add_argument("--failure", metavar="ID", help="open at this failure: " + FAILURE_HELP)
    parser.add_argument("--reviewer", metavar="NAME", help=REVIEWER_HELP)
    return parser


def cmd_check(args: argparse.Namespace) -> int:
    """reviewer check."""
    from reviewer.commands.listing import check_folder
    from reviewer.store.settings.config import load_settings
    from reviewer.ui.bindings import DEFAULT_KEYS

    settings_problems = load_settings(known_binding_ids=DEFAULT_KEYS)[1]
    return check_folder(open_store(args.path, args.labels), settings_problems=settings_problems)


def cmd_list(args: argparse.Namespace) -> int:
    """reviewer list."""
    from reviewer.commands.listing import list_runs

    return list_runs(open_store(args.path, args.labels), args.json)


def cmd_show(args: argparse.Namespace) -> int:
    """reviewer show."""
    import json

    from reviewer.commands.show import show_across, show_failure, show_json
    from reviewer.model.sanitize import TAB_STOP
    from reviewer.store.labels import UnknownFailure
    from reviewer.store.settings.config import load_settings

    labeller = open_labeller(args.path, args.reviewer, args.labels)
    fid = full_failure_id(labeller, args.failure, "show")
    if fid is None:
        return 1
    blind = load_settings()[0].blind
    try:
        if args.json:
            print(json.dumps(show_json(labeller, fid, blind), indent=1, ensure_ascii=True))
        elif args.across:
            print(show_across(labeller, fid), end="")
        else:  # tabs expanded as the app's panes show them on a terminal, kept in a pipe or a file
            print(show_failure(labeller, fid, blind, TAB_STOP if sys.stdout.isatty() else 0), end="")
    except UnknownFailure as exc:
        print(f"reviewer show: {exc}", file=sys.stderr)
        return 1
    return report_label_problems(labeller, fid, "show")


def report_label_problems(labeller: Labeller, failure_id: str, command: str) -> int:
    """Name on stderr the problems of the labels files read for a failure (the reviewer's own, the
    others' of its session); 1 when there are any."""
    from reviewer.model.sanitize import plain
    from reviewer.store.labels import read_all_labels

    session = failure_id.split("/", 1)[0]
    problems = [f"{e.path}: {e.reason}" for e in labeller.labels.problems()]
    problems += [text for g in read_all_labels(labeller.sessions.root, [session]) if g.stem != labeller.labels.stem
                 for text in g.problems]
    for text in problems:
        print(plain(f"reviewer {command}: {text}"), file=sys.stderr)
    return 1 if problems else 0


def cmd_label(args: argparse.Namespace) -> int:
    """reviewer label."""
    from reviewer.commands.labelcmd import label_failure

    return label_failure(args)


def cmd_export(args: argparse.Namespace) -> int:
    """reviewer export."""
    from reviewer.commands.export import collect, render
    from reviewer.commands.output import write_result

    tool = args.format in ("scout", "docent")
    if tool and args.include_deferred:
        print(f"reviewer export: --format {args.format} exports verdicts; a deferred failure has none (leave out "
              "--include-deferred)", file=sys.stderr)
        return 2
    labeller = open_labeller(args.path, "(export)", args.labels)
    if args.final or tool and args.reviewer is None:
        from reviewer.commands.export import collect_final
        from reviewer.model.wording import count

        records, errors, left_out = collect_final(labeller)
        print(f"reviewer export: {count(left_out, 'failure')} left out: reviewers disagree, not adjudicated", file=sys.stderr)
    else:
        records, errors = collect(labeller, args.reviewer, args.include_deferred)
    from reviewer.model.sanitize import plain

    for e in errors:
        print(plain(f"reviewer export: {e}"), file=sys.stderr)
    if tool:
        from reviewer.commands.labelsets import render_tool

        text, notes = render_tool(labeller, records, args.format)
        for note in notes:
            print(plain(f"reviewer export: {note}"), file=sys.stderr)
    else:
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
    """Open the Textual app (a --failure prefix is resolved first, with suggestions on a miss; the
    scan leaves the index warm, so the app's own open is quick)."""
    args = app_parser().parse_args(argv)
    folder, logs = resolve_target(args.path, args.labels)
    failure = args.failure
    if failure is not None:
        from reviewer.store.labels import Labeller, LabelStore
        from reviewer.store.sessions.store import SessionStore

        store = SessionStore(folder, logs=logs)
        store.scan()
        failure = full_failure_id(Labeller(store, LabelStore(folder, "")), failure, "--failure")
        store.save_index()
        if failure is None:
            return 1
    from reviewer.ui.launch import launch

    return launch(folder, failure=failure, reviewer=args.reviewer, logs=logs)


def command_names() -> list[str]:
    """Every command's name (built in and in the command modules), without importing a module."""
    return list(dict.fromkeys([*COMMANDS, *PLUGIN_NAMES]))


def unknown_command(word: str) -> str | None:
    """What to say when the first argument is neither a command nor an existing path but reads like a
    mistyped command (``faliures``: did you mean failures?); None when it may be a folder to open."""
    import difflib

    if word.startswith("-") or Path(word).exists() or any(sep in word for sep in ("/", "\\", ".")):
        return None
    close = difflib.get_close_matches(word, command_names(), n=3, cutoff=0.6)
    if close:
        return f"reviewer: unknown command {word!r}, did you mean {' or '.join(close)}?"
    return f"reviewer: {word!r} is not a command and there is no folder of that name (reviewer --help lists the commands)"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``reviewer`` console script.

    Its first act, before any thread or child process exists, is to make the process environment
    safe for git (:func:`reviewer.store.git.scrub_environment`): the caller's ``GIT_DIR``,
    ``GIT_INDEX_FILE``... are dropped and git's safe settings are set, for every git process and
    for GitPython, which reads ``os.environ``.
    """
    from reviewer.store.git import scrub_environment

    scrub_environment()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in ("-h", "--help"):
            app_parser(with_commands=True).parse_args(["--help"])  # prints the help, exits 0
        mistyped = unknown_command(argv[0]) if argv and argv[0] not in COMMANDS and argv[0] not in PLUGIN_NAMES else None
        if mistyped is not None:
            from reviewer.model.sanitize import plain_line

            print(plain_line(mistyped), file=sys.stderr)
            return 2
        if argv and (argv[0] in COMMANDS or argv[0] in PLUGIN_NAMES or argv[0] == "--version"):
            args = build_parser(argv[0]).parse_args(argv)
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
