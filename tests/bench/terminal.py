"""What the user sees, timed from outside: the app in a real terminal beside the peers' TUI.

    python tests/bench/terminal.py [--runs 1000] [--rounds 3] [--presses 30] [--json]

Generates N mini-swe-agent trajectories of ~20 messages (``importgen.py``) and imports them with
``reviewer import mini-swe-agent``. Each program then runs in tmux at 200x50 and its screen is
read with ``capture-pane`` every 10 ms (:data:`POLL`):

- ``open_s``: from starting the program until the screen shows the first run: for reviewer its
  Brief (the run's brief path), Code (the run's patch) and Grader panes; for the mini inspector
  the first trajectory's title and its first step;
- ``key_p50_ms`` / ``key_p95_ms``: the next-run key (``J``; the inspector's ``L``) until the
  screen shows the next run in every pane (reviewer: brief path, patch, transcript; inspector:
  title and content), over ``--presses`` presses per round, 0.2 s apart.

Besides reviewer (first use: no index cache; and ``warm``: with it) and mini-swe-agent's
``mini-extra inspector`` (when installed: ``pip install '.[bench]'``), the same is measured for a
minimal Textual app (one label, a key changes it) as the floor of this harness. Rounds are
interleaved (reviewer, inspector, floor, ...); the figures are medians over rounds, the ratios
medians of per-round ratios (below 1: reviewer is faster; each round's are listed too, as
``ratio_*_rounds``). One JSON line with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from importgen import write_trajectories  # noqa: E402

SIZE = (200, 50)
PINNED = ("COLUMNS", "LINES")
POLL = 0.01
PRESS_GAP = 0.2
FLOOR_APP = '''
from textual.app import App
from textual.widgets import Label

class Floor(App):
    BINDINGS = [("J", "next", "next")]
    n = 0
    def compose(self):
        yield Label("floor 0", id="n")
    def action_next(self):
        self.n += 1
        self.query_one("#n", Label).update(f"floor {self.n}")

Floor().run()
'''


class Term:
    """One program in a private tmux server, its screen read by capture-pane."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.socket = f"bench-{uuid.uuid4().hex[:10]}"
        # the size is the terminal's: COLUMNS and LINES (a test runner's worker sets 80x24) would pin it
        self.env = {k: v for k, v in {**os.environ, **env, "TERM": "xterm-256color"}.items() if k not in PINNED}
        self.started = time.perf_counter()
        self.tmux("-f", os.devnull, "new-session", "-d", "-s", "b", "-x", str(SIZE[0]), "-y", str(SIZE[1]), *command)

    def tmux(self, *args: str) -> str:
        """A tmux command on this server; its output."""
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, env=self.env,
                              timeout=30).stdout

    def screen(self) -> str:
        """The screen now."""
        return self.tmux("capture-pane", "-p", "-t", "b")

    def until(self, shown: Callable[[str], bool], limit: float = 120.0) -> float:
        """Poll the screen until ``shown`` holds; the moment it did (perf_counter)."""
        deadline = time.perf_counter() + limit
        while time.perf_counter() < deadline:
            if shown(self.screen()):
                return time.perf_counter()
            time.sleep(POLL)
        raise TimeoutError(f"never shown; last screen:\n{self.screen()}")

    def key(self, key: str) -> float:
        """Send a key; when it was sent."""
        sent = time.perf_counter()
        self.tmux("send-keys", "-t", "b", key)
        return sent

    def close(self) -> None:
        """End the program and the server."""
        self.tmux("kill-server")


def reviewer_shows(i: int) -> Callable[[str], bool]:
    """Every pane shows run ``i``: its brief path, its patch and its transcript, and the Grader pane."""
    name = f"bench__task-{i:05d}"
    patch = re.compile(rf"# task {i}\b")
    return lambda s: f"{name}/brief.md" in s and bool(patch.search(s)) and "Grader" in s and "turn " in s


def inspector_shows(i: int, total: int) -> Callable[[str], bool]:
    """The inspector shows trajectory ``i`` (its title, and its first step's content)."""
    title = f"Trajectory {i + 1}/{total} "
    return lambda s: title in s and "SYSTEM" in s


def floor_shows(i: int) -> Callable[[str], bool]:
    """The floor app shows its counter at ``i``."""
    return lambda s: f"floor {i}" in s


def measure(command: list[str], env: dict[str, str], shows: Callable[[int], Callable[[str], bool]],
            key: str, presses: int) -> tuple[float, list[float]]:
    """Open until the first run is shown, then ``presses`` keys; (open seconds, key latencies)."""
    term = Term(command, env)
    try:
        opened = term.until(shows(0)) - term.started
        time.sleep(1.0)  # what the first screen started in the background settles
        latencies = []
        for i in range(1, presses + 1):
            sent = term.key(key)
            latencies.append(term.until(shows(i), 30) - sent)
            time.sleep(PRESS_GAP)
        term.key("q")
        return opened, latencies
    finally:
        term.close()


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, int(round(0.95 * len(ordered))) - 1)]


def compiled() -> None:
    """Byte-compile reviewer's modules, as ``pip install`` does: from a source checkout with
    ``PYTHONDONTWRITEBYTECODE`` set, every start would otherwise compile them again (the peers'
    modules, installed by pip, are compiled already)."""
    import compileall

    import reviewer

    # the bundled example sessions hold recorded model code, some of it deliberately broken
    compileall.compile_dir(str(Path(reviewer.__file__).parent), quiet=2, rx=re.compile(r"[/\\]examples[/\\]"))


def prepare(work: Path, runs: int) -> tuple[Path, Path]:
    """Trajectories and the sessions folder they import into."""
    compiled()
    trajectories = work / "trajectories"
    write_trajectories(trajectories, runs)
    sessions = work / "sessions"
    files = sorted(str(p) for p in trajectories.glob("*.traj.json"))
    subprocess.run([sys.executable, "-m", "reviewer.cli", "import", "mini-swe-agent", *files, "--into", str(sessions),
                    "--session", "mini"], check=True, capture_output=True)
    return trajectories, sessions


def run(runs: int, rounds: int, presses: int) -> dict[str, object]:
    """Every round of every program; medians and ratios."""
    inspector = shutil.which("mini-extra") or str(Path(sys.executable).with_name("mini-extra"))
    has_inspector = Path(inspector).exists()
    figures: dict[str, list[float]] = {}
    ratios: dict[str, list[float]] = {"open": [], "key_p50": [], "key_p95": []}
    with tempfile.TemporaryDirectory(prefix="terminal-bench-") as tmp:
        work = Path(tmp)
        trajectories, sessions = prepare(work, runs)
        for r in range(rounds):
            home = work / f"home-{r}"
            env = {f"XDG_{k}_HOME": str(home / k.lower()) for k in ("DATA", "CONFIG", "CACHE")}
            reviewer = [sys.executable, "-m", "reviewer.cli", str(sessions), "--reviewer", "bench"]
            got: dict[str, tuple[float, list[float]]] = {
                "reviewer": measure(reviewer, env, reviewer_shows, "J", presses),
            }
            got["reviewer_warm"] = measure(reviewer, env, reviewer_shows, "J", presses)
            if has_inspector:
                got["inspector"] = measure([inspector, "inspector", str(trajectories)], env,
                                           lambda i: inspector_shows(i, runs), "L", presses)
            got["floor"] = measure([sys.executable, "-c", FLOOR_APP], env, floor_shows, "J", presses)
            for name, (opened, keys) in got.items():
                figures.setdefault(f"{name}_open_s", []).append(opened)
                figures.setdefault(f"{name}_key_p50_ms", []).append(statistics.median(keys) * 1000)
                figures.setdefault(f"{name}_key_p95_ms", []).append(p95(keys) * 1000)
            if has_inspector:
                ratios["open"].append(got["reviewer"][0] / got["inspector"][0])
                ratios["key_p50"].append(statistics.median(got["reviewer"][1]) / statistics.median(got["inspector"][1]))
                ratios["key_p95"].append(p95(got["reviewer"][1]) / p95(got["inspector"][1]))
    out: dict[str, object] = {"runs": runs, "rounds": rounds, "presses": presses, "inspector": has_inspector}
    out.update({k: round(statistics.median(v), 3) for k, v in figures.items()})
    out.update({f"ratio_{k}": round(statistics.median(v), 3) for k, v in ratios.items() if v})
    out.update({f"ratio_{k}_rounds": [round(x, 3) for x in v] for k, v in ratios.items() if v})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--presses", type=int, default=30)
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    out = run(args.runs, args.rounds, args.presses)
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        for key, value in out.items():
            print(f"{key:28} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
