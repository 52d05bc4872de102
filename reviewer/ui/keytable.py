"""The key tables of the keys guide and the README, generated from the app's binding table so
they never drift.

Two blocks, each between its markers: the full tables (every key, its binding id for a keymap, what
it does) in ``reviewer/docs/keys.md``, and a compact one (a row per group, each key with its short
name) in ``README.md``. ``python -m reviewer.ui.keytable`` prints the full tables; ``--write FILE``
replaces every block FILE holds; ``--check FILE`` exits 1 when one is out of date (a test runs
the same comparison on both files).
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

BEGIN = "<!-- keys: generated from reviewer/ui/bindings.py by `python -m reviewer.ui.keytable --write FILE` -->"
END = "<!-- /keys -->"
COMPACT_BEGIN = "<!-- compact keys: generated from reviewer/ui/bindings.py by `python -m reviewer.ui.keytable --write FILE` -->"
COMPACT_END = "<!-- /compact keys -->"
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


def compact() -> str:
    """The compact block, markers included: one row per group of the main table, each key with its
    short name (the keys of one screen or widget are in the full tables)."""
    from reviewer.ui.bindings import TABLE

    groups: dict[str, list[str]] = {}
    for e in TABLE:
        groups.setdefault(e.section, []).append(f"{keys_cell(e.binding.key)} {cell(e.binding.description).lower()}")
    rows = [f"| {cell(section)} | {' · '.join(keys)} |" for section, keys in groups.items()]
    return "\n".join([COMPACT_BEGIN, "| group | keys |", "|---|---|", *rows, COMPACT_END])


BLOCKS = ((BEGIN, END, generated), (COMPACT_BEGIN, COMPACT_END, compact))
"""Each generated block: its markers and what it holds."""


def block(text: str, begin: str = BEGIN, end: str = END) -> str | None:
    """The block between ``begin`` and ``end`` as ``text`` has it now, or None when the markers are missing."""
    start = text.find(begin)
    stop = text.find(end, start)
    if start < 0 or stop < 0:
        return None
    return text[start:stop + len(end)]


def current(readme: str) -> str | None:
    """The full tables' block as a file has it now, or None when the markers are missing."""
    return block(readme)


def stale(text: str) -> list[str]:
    """The first marker of every block ``text`` holds that differs from what is generated now."""
    return [begin for begin, end, make in BLOCKS if (now := block(text, begin, end)) is not None and now != make()]


def updated(text: str) -> str:
    """``text`` with every block it holds replaced by what is generated now (ValueError when it holds none)."""
    found = False
    for begin, end, make in BLOCKS:
        now = block(text, begin, end)
        if now is not None:
            text, found = text.replace(now, make(), 1), True
    if not found:
        raise ValueError(f"no {BEGIN!r} or {COMPACT_BEGIN!r} block to replace")
    return text


def main(argv: list[str] | None = None) -> int:
    """Print, write or check the key tables; exit 1 when --check finds README out of date."""
    parser = argparse.ArgumentParser(prog="python -m reviewer.ui.keytable", description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", metavar="FILE", type=Path, help="replace the generated blocks of this file")
    group.add_argument("--check", metavar="FILE", type=Path, help="exit 1 when a block of this file is out of date")
    args = parser.parse_args(argv)
    if args.write is None and args.check is None:
        print(generated())
        return 0
    path = args.write or args.check
    text = path.read_text(encoding="utf-8")
    if args.check is not None:
        held = [begin for begin, end, _ in BLOCKS if block(text, begin, end) is not None]
        ok = bool(held) and not stale(text)
        print(f"{path}: key tables {'up to date' if ok else 'out of date: run with --write' if held else 'missing'}",
              file=sys.stderr)
        return 0 if ok else 1
    path.write_text(updated(text), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
