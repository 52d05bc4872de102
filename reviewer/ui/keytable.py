"""The README's key tables, generated from the app's binding table so they never drift.

``python -m reviewer.ui.keytable`` prints them; ``--write README.md`` replaces the part of
README between the markers; ``--check README.md`` exits 1 when that part is out of date (a test
runs the same comparison).
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

BEGIN = "<!-- keys: generated from reviewer/ui/bindings.py by `python -m reviewer.ui.keytable --write README.md` -->"
END = "<!-- /keys -->"
NAMES = {"slash": "/", "backslash": "\\", "minus": "-", "plus": "+", "underscore": "_", "at": "@"}


def key_text(key: str) -> str:
    """One key as a person types it: ``right_square_bracket`` → ``]``, ``ctrl+f`` stays."""
    *mods, name = key.strip().split("+")
    if name in NAMES:
        name = NAMES[name]
    elif len(name) > 1 and "_" in name:
        try:
            name = unicodedata.lookup(name.replace("_", " ").upper())
        except KeyError:
            pass
    return "+".join([*mods, name])


def keys_cell(keys: str) -> str:
    """``u,ctrl+z`` → ```u`, `ctrl+z```; a literal backtick or bar is written so Markdown keeps it."""
    out = []
    for k in keys.split(","):
        text = key_text(k).replace("|", "\\|")
        out.append(f"`` {text} ``" if "`" in text else f"`{text}`")
    return ", ".join(out)


def cell(text: str) -> str:
    """A table cell: one line, bars escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def global_rows(table: Iterable[Any]) -> list[str]:
    """Rows of the main table: keys, binding id, section, what it does."""
    return [f"| {keys_cell(e.binding.key)} | {e.binding.id} | {cell(e.section)} | {cell(e.binding.tooltip)} |"
            for e in table]


def local_rows(tables: Iterable[tuple[str, list[Any]]]) -> list[str]:
    """Rows of the table of keys that belong to one screen or widget."""
    return [f"| {cell(where)} | {keys_cell(b.key)} | {b.id} | {cell(b.tooltip)} |"
            for where, bindings in tables for b in bindings]


def generated() -> str:
    """The whole generated block, markers included."""
    from reviewer.ui.bindings import LOCAL_TABLES, TABLE

    lines = [
        BEGIN,
        "| keys | binding id | group | what it does |",
        "|---|---|---|---|",
        *global_rows(TABLE),
        "",
        "Keys of one screen or widget, while it has focus:",
        "",
        "| where | keys | binding id | what it does |",
        "|---|---|---|---|",
        *local_rows(LOCAL_TABLES),
        END,
    ]
    return "\n".join(lines)


def current(readme: str) -> str | None:
    """The generated block as README has it now, or None when the markers are missing."""
    start = readme.find(BEGIN)
    end = readme.find(END, start)
    if start < 0 or end < 0:
        return None
    return readme[start:end + len(END)]


def updated(readme: str) -> str:
    """README with its block replaced by :func:`generated` (ValueError without the markers)."""
    block = current(readme)
    if block is None:
        raise ValueError(f"README has no {BEGIN!r} ... {END!r} block")
    return readme.replace(block, generated(), 1)


def main(argv: list[str] | None = None) -> int:
    """Print, write or check the key tables; exit 1 when --check finds README out of date."""
    parser = argparse.ArgumentParser(prog="python -m reviewer.ui.keytable", description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", metavar="README", type=Path, help="replace the generated block of this file")
    group.add_argument("--check", metavar="README", type=Path, help="exit 1 when this file's block is out of date")
    args = parser.parse_args(argv)
    if args.write is None and args.check is None:
        print(generated())
        return 0
    path = args.write or args.check
    text = path.read_text(encoding="utf-8")
    if args.check is not None:
        ok = current(text) == generated()
        print(f"{path}: key tables {'up to date' if ok else 'out of date: run with --write'}", file=sys.stderr)
        return 0 if ok else 1
    path.write_text(updated(text), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
