"""``reviewer help [TOPIC]``: the guides shipped with the package (:mod:`reviewer.docs`)."""

from __future__ import annotations

import argparse
import difflib
import sys
from typing import Callable


def register(sub: argparse._SubParsersAction, command_parser: Callable[..., argparse.ArgumentParser]) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add ``help`` to the command line."""
    p = command_parser(sub, "help", "list the guides, or print one (reviewer help TOPIC)", "never")
    p.add_argument("topic", nargs="?", metavar="TOPIC", help="a guide's name, or the start of one (none: list them)")
    p.add_argument("--path", action="store_true", help="print where the guide's Markdown file is instead of its text")
    return {"help": cmd_help}


def listing() -> str:
    """One line per guide: its name, title and what it covers."""
    from reviewer.docs import topics

    every = topics()
    width = max(len(t.name) for t in every)
    lines = ["Guides (reviewer help TOPIC prints one; the app's help, ?, opens them too):", ""]
    import shutil
    import textwrap

    columns = max(60, min(120, shutil.get_terminal_size((100, 24)).columns))
    for t in every:
        lines += textwrap.wrap(f"{t.title}. {t.summary}", columns, initial_indent=f"  {t.name.ljust(width)}  ",
                               subsequent_indent=" " * (width + 4))
    return "\n".join(lines) + "\n"


def cmd_help(args: argparse.Namespace) -> int:
    """List the guides or print one: Markdown as written on a pipe, drawn by Rich on a terminal."""
    from reviewer.docs import find, topics

    if not args.topic:
        sys.stdout.write(listing())
        return 0
    topic = find(args.topic)
    if topic is None:
        names = [t.name for t in topics()]
        close = difflib.get_close_matches(args.topic.lower(), names, n=3, cutoff=0.5)
        hint = f", did you mean {' or '.join(close)}?" if close else f"; the guides are: {', '.join(names)}"
        print(f"reviewer help: no guide {args.topic!r}{hint}", file=sys.stderr)
        return 2
    if args.path:
        print(topic.path)
        return 0
    text = topic.path.read_text(encoding="utf-8")
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text, hyperlinks=False))
    else:
        sys.stdout.write(text)
    return 0
