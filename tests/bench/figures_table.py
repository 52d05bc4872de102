"""README's performance table, generated from the benchmarks' own JSON so no figure is typed by hand.

Each benchmark's last measurement is kept as ``tests/bench/results/<name>.json``: the command that
made it, when, on what machine, and the one JSON object the benchmark printed. ``--record NAME --
COMMAND...`` runs a benchmark and writes that file; ``--write README.md`` replaces the block between
the markers with the table of every recorded figure; ``--check README.md`` exits 1 when the block
differs (a test runs the same comparison). A ``<name>.before.json`` holds the same benchmark run on
the code before a change, side by side; its figures fill the table's second column.

    python tests/bench/figures_table.py --record bench -- python tests/bench/bench.py --runs 10000 --json
    python tests/bench/figures_table.py --median bench --command "python tests/bench/bench.py --runs 10000 --json" run1.json run2.json run3.json
    python tests/bench/figures_table.py --write README.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
BEGIN = "<!-- figures: generated from tests/bench/results by `python tests/bench/figures_table.py --write README.md` -->"
END = "<!-- /figures -->"

ROWS: tuple[tuple[str, str, str, str], ...] = (
    ("bench", "open_s", "open 10,000 runs until the first failure is on screen (200x50)", "s"),
    ("bench", "open_ratio", "the same, over a standard-library read of every manifest", "x"),
    ("bench", "warm_open_s", "open again, with the index cache", "s"),
    ("bench", "key_p50_ms", "`j` until its frame is composed, median (200 presses)", "ms"),
    ("bench", "key_p95_ms", "`j` until its frame is composed, 95th percentile", "ms"),
    ("bench", "rss_mb", "peak memory with 10,000 runs", "MB"),
    ("bench", "export_s", "export 100,000 labels", "s"),
    ("terminal", "reviewer_open_s", "1,000 trajectories in tmux: reviewer's first screen", "s"),
    ("terminal", "inspector_open_s", "1,000 trajectories in tmux: mini-swe-agent's inspector", "s"),
    ("terminal", "ratio_open", "reviewer's open over the inspector's (below 1: faster)", "x"),
    ("terminal", "reviewer_key_p50_ms", "next run in tmux, median", "ms"),
    ("labels", "sizes.-1.app_ms.p50", "`s` until on disk with 200,000 labels, median", "ms"),
    ("labels", "sizes.-1.app_ms.p95", "`s` until on disk with 200,000 labels, 95th percentile", "ms"),
    ("imports", "inspect_import_s", "import an Inspect log of 5,000 samples", "s"),
    ("imports", "inspect_write_floor_s", "creating as many files on the same disk (the floor)", "s"),
    ("imports", "inspect_read_s", "inspect_ai's own read_eval_log of that log", "s"),
    ("imports", "mini_1000_import_s", "import 1,000 mini-swe-agent trajectories", "s"),
    ("inplace", "eval_open_s", "a 5,000-sample `.eval` read in place, first failure on screen", "s"),
    ("inplace", "inspect_view_s", "`inspect view` showing its first sample in headless chromium", "s"),
    ("rescore_scale", "speedup", "re-scores with `-j` over one at a time", "x"),
    ("corpus", "pointed_at_cause/specification", "bundled corpus: specification failures pointed at their cause", ""),
    ("corpus", "capability_hinted_towards_specification/capability", "bundled corpus: capability failures hinted towards specification", ""),
    ("holdout", "pointed_at_cause/specification", "holdout corpus: specification failures pointed at their cause", ""),
    ("holdout", "near_misses_found/planted_near_misses", "holdout corpus: notation near misses found", ""),
    ("holdout", "capability_hinted_towards_specification/capability", "holdout corpus: capability failures hinted towards specification", ""),
    ("holdout", "rescore.repairable_flipped/rescore.repairable_specification", "holdout corpus: repairable specification failures flipped by `rescore --all-proposed`", ""),
    ("holdout", "rescore.capability_flipped.#", "holdout corpus: capability failures flipped", ""),
    ("validation", "pointed_at_cause/specification", "validation corpus: specification failures pointed at their cause", ""),
    ("validation", "near_misses_found/planted_near_misses", "validation corpus: notation near misses found", ""),
    ("validation", "capability_hinted_towards_specification/capability", "validation corpus: capability failures hinted towards specification", ""),
    ("validation", "rescore.repairable_flipped/rescore.repairable_specification", "validation corpus: repairable specification failures flipped", ""),
    ("validation", "rescore.capability_flipped.#", "validation corpus: capability failures flipped", ""),
)
"""Each row: the result file, the figure's path in its JSON (dots; a number indexes a list), what it
is, and its unit. A row whose figure was not recorded is left out."""


def lookup(document: Any, path: str) -> Any:
    """The value at a dotted path (None when any step is missing): ``a/b`` is the pair "a of b",
    a last step ``#`` the length of a list."""
    if "/" in path:
        part, whole = (lookup(document, side) for side in path.split("/", 1))
        return None if part is None or whole is None else (part, whole)
    for step in path.split("."):
        if step == "#":
            return len(document) if isinstance(document, list) else None
        if isinstance(document, list):
            try:
                document = document[int(step)]
            except (ValueError, IndexError):
                return None
        elif isinstance(document, dict):
            document = document.get(step)
        else:
            return None
    return document


def load(name: str, suffix: str = "") -> dict[str, Any] | None:
    """A recorded result (None when absent)."""
    path = RESULTS / f"{name}{suffix}.json"
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def shown(value: Any, unit: str) -> str:
    """A figure as the table prints it."""
    if isinstance(value, tuple):
        return f"{shown(value[0], '')} of {shown(value[1], '')}".replace(" .", ".").strip()
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "-"
    if isinstance(value, int):
        number = f"{value:,}"
    else:
        number = f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}" if abs(value) < 1 else f"{value:.1f}"
    return number if not unit else f"{number}x" if unit == "x" else f"{number} {unit}"


def table() -> str:
    """The whole block, markers included."""
    lines = [BEGIN, "| figure | this version | the code before | measured by |", "|---|---|---|---|"]
    commands: dict[str, str] = {}
    for name, path, what, unit in ROWS:
        now = load(name)
        value = lookup(now["figures"], path) if now else None
        if value is None or now is None:
            continue
        before = load(name, ".before")
        was = lookup(before["figures"], path) if before else None
        lines.append(f"| {what} | {shown(value, unit)} | {shown(was, unit) if was is not None else ''} | `{name}` |")
        commands[name] = now["command"]
    lines.append("")
    for name, command in commands.items():
        now = load(name) or {}
        lines.append(f"- `{name}`: `{command}` ({now.get('measured', '')}, {now.get('machine', '')})")
    lines.append(END)
    return "\n".join(lines)


def current(text: str) -> str | None:
    """The block as a file holds it now (None without markers)."""
    start = text.find(BEGIN)
    stop = text.find(END, start)
    return None if start < 0 or stop < 0 else text[start:stop + len(END)]


def machine() -> str:
    """What the figures were measured on, without naming the machine."""
    return f"{os.cpu_count()} cores, Python {platform.python_version()}"


def record(name: str, command: list[str]) -> int:
    """Run a benchmark and keep its last JSON line as ``results/<name>.json``."""
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    sys.stderr.write(done.stderr[-4000:])
    if done.returncode != 0:
        print(f"{name}: the benchmark exited {done.returncode}; nothing recorded", file=sys.stderr)
        return 1
    try:
        printed = json.loads(done.stdout)  # one document, perhaps over several lines
    except ValueError:
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        if not lines:
            print(f"{name}: the benchmark printed no JSON line; nothing recorded", file=sys.stderr)
            return 1
        printed = json.loads(lines[-1])
    shown_command = " ".join(shlex.quote("python" if word == sys.executable else word) for word in command)
    keep(name, shown_command, printed)
    return 0


def keep(name: str, command: str, figures: dict[str, Any]) -> None:
    """Write ``results/<name>.json``."""
    RESULTS.mkdir(exist_ok=True)
    result = {"command": command, "measured": time.strftime("%Y-%m-%d"), "machine": machine(), "figures": figures}
    (RESULTS / f"{name}.json").write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"recorded {RESULTS.name}/{name}.json")


def medians(name: str, command: str, files: list[Path]) -> int:
    """Keep the median of each numeric figure over several runs' JSON output (interleaved rounds
    of a benchmark run by hand or by a script, e.g. beside the code before)."""
    import statistics

    runs = [json.loads(path.read_text(encoding="utf-8").strip().splitlines()[-1]) for path in files]
    if not runs:
        print(f"{name}: no runs given", file=sys.stderr)
        return 1
    figures: dict[str, Any] = {}
    for key in runs[0]:
        values = [run.get(key) for run in runs]
        numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
        figures[key] = round(statistics.median(numbers), 4) if len(numbers) == len(values) else values[0]
    figures["rounds"] = len(runs)
    keep(name, f"{command} (median of {len(runs)} interleaved runs)", figures)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Record a benchmark, or print, write or check the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--record", metavar="NAME", help="run the command after -- and keep its JSON as NAME")
    group.add_argument("--median", metavar="NAME", help="keep the medians of the JSON files given as NAME")
    parser.add_argument("--command", help="with --median: the command that printed the files")
    group.add_argument("--write", metavar="FILE", type=Path, help="replace the table's block in FILE")
    group.add_argument("--check", metavar="FILE", type=Path, help="exit 1 when FILE's table is out of date")
    args, rest = parser.parse_known_args(argv)
    if args.record:
        command = rest[1:] if rest[:1] == ["--"] else rest
        if not command:
            parser.error("--record NAME -- COMMAND...")
        return record(args.record, command)
    if args.median:
        if not args.command or not rest:
            parser.error("--median NAME --command CMD FILE...")
        return medians(args.median, args.command, [Path(f) for f in rest])
    if args.write is None and args.check is None:
        print(table())
        return 0
    path = args.write or args.check
    text = path.read_text(encoding="utf-8")
    block = current(text)
    if block is None:
        print(f"{path}: no {BEGIN!r} block", file=sys.stderr)
        return 1
    if args.check is not None:
        ok = block == table()
        print(f"{path}: performance table {'up to date' if ok else 'out of date: run with --write'}", file=sys.stderr)
        return 0 if ok else 1
    path.write_text(text.replace(block, table(), 1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
