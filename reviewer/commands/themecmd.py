"""``reviewer themes``: the available themes and where each comes from."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, TextIO

from reviewer.model.sanitize import plain
from reviewer.model.wording import count
from reviewer.store.settings.config import load_settings
from reviewer.store.settings.themes import BUILT_IN, ThemeLoad, choose_theme, load_themes


def theme_rows(load: ThemeLoad, current: str) -> list[dict[str, Any]]:
    """One row per theme, sorted by name."""
    rows = []
    for name in sorted(load.themes):
        spec = load.themes[name]
        rows.append({
            "name": name,
            "dark": spec.dark,
            "origin": load.origins[name],
            "replaces": load.replaced.get(name),
            "code_style": spec.code_style,
            "description": spec.description,
            "current": name == current,
        })
    return rows


def list_themes(as_json: bool, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Print the themes (stdout) and every broken theme file or setting (stderr); exit 0."""
    out = out or sys.stdout
    err = err or sys.stderr
    load = load_themes()
    settings, warnings = load_settings()
    current, missing = choose_theme(settings.theme, load.themes)
    for problem in load.problems:
        print(f"reviewer themes: {plain(str(problem))}", file=err)
    for warning in warnings + ([missing] if missing else []):
        print(f"reviewer themes: {plain(warning)}", file=err)
    rows = theme_rows(load, current)
    if as_json:
        json.dump(rows, out, indent=1, ensure_ascii=True)
        out.write("\n")
        return 0
    width = max([len("THEME")] + [len(r["name"]) for r in rows])
    print(f"  {'THEME'.ljust(width)}  KIND   FROM", file=out)
    for r in rows:
        origin = r["origin"] if r["origin"] == BUILT_IN else plain(r["origin"])
        if r["replaces"]:
            origin += f" (replaces the {r['replaces']} one)"
        mark = "*" if r["current"] else " "
        print(f"{mark} {r['name'].ljust(width)}  {'dark ' if r['dark'] else 'light'}  {origin}", file=out)
    skipped = sum(1 for p in load.problems if p.skipped)
    left_out = f", {count(skipped, 'file')} skipped (reasons on stderr)" if skipped else ""
    print(f"{count(len(rows), 'theme')} (* in use){left_out}", file=out)
    return 0


def cmd_themes(args: argparse.Namespace) -> int:
    """reviewer themes."""
    return list_themes(args.json)


def register(sub: argparse._SubParsersAction, command_parser: Callable[..., argparse.ArgumentParser]) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add ``themes`` to the command line."""
    p = command_parser(
        sub,
        "themes",
        "list the available themes and where each comes from (broken theme files on stderr)",
        "never (broken theme files are reported on stderr, exit status 0)",
    )
    p.add_argument("--json", action="store_true", help="print a JSON array")
    return {"themes": cmd_themes}
