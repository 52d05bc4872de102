"""How long ``q`` takes while the app is busy, timed from outside: the app in a real terminal.

    python tests/bench/quit.py [--runs 10000] [--rounds 8] [--json]

Generates a synthetic folder of N runs (``synth.py``, a fifth of their failures labelled), opens it
once to write its index cache, then in each round opens reviewer in tmux at 200x50 and, a second
after the first failure is on screen (while the work the first screen started runs: counting every
run's failures, checking this reviewer's labels for staleness, the other reviewers' labels, the
live look at the folder), presses ``q``:

- ``quit_s``: from ``q`` until the program has exited (its tmux session is gone), median over rounds
  (each round's in ``quit_s_rounds``).

The app's workers run in daemon threads (``reviewer/ui/worker_threads.py``), so the exit never waits
for a worker that cannot be cut short (a staleness check, a look at the folder): with the event
loop's own executor it waited for them (a median of 1.8 s against 0.49 s at 10,000 runs, 8
interleaved rounds on the 2-core development machine under load). One JSON line with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from synth import generate  # noqa: E402
from terminal import Term, compiled  # noqa: E402

SETTLE = 1.0
"""Seconds after the first failure is on screen before ``q``."""


def running(term: Term) -> bool:
    """The program in the terminal has not exited (its tmux session is there)."""
    return subprocess.run(["tmux", "-L", term.socket, "has-session", "-t", "b"], capture_output=True, env=term.env,
                          timeout=30).returncode == 0


def quit_seconds(root: Path, home: Path, settle: float) -> float:
    """Open the folder, press ``q`` ``settle`` seconds after the first failure shows: seconds to exit."""
    env = {f"XDG_{k}_HOME": str(home / k.lower()) for k in ("DATA", "CONFIG", "CACHE")}
    term = Term([sys.executable, "-m", "reviewer.cli", str(root), "--reviewer", "bench"], env)
    try:
        term.until(lambda screen: "Grader" in screen and "failure " in screen)
        time.sleep(settle)
        sent = term.key("q")
        while running(term):
            if time.perf_counter() - sent > 120:
                raise TimeoutError("the app did not exit within 120 s of q")
            time.sleep(0.005)
        return time.perf_counter() - sent
    finally:
        term.close()


def run(runs: int, rounds: int) -> dict[str, object]:
    """Every round; the median."""
    compiled()
    with tempfile.TemporaryDirectory(prefix="quit-bench-") as tmp:
        root = Path(tmp) / "sessions"
        generate(root, runs)
        home = Path(tmp) / "home"
        quit_seconds(root, home, 5.0)  # writes the index cache: the rounds open warm
        took = [quit_seconds(root, home, SETTLE) for _ in range(rounds)]
    return {"runs": runs, "rounds": rounds, "quit_s": round(statistics.median(took), 3),
            "quit_s_rounds": [round(x, 3) for x in took]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    out = run(args.runs, args.rounds)
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        for key, value in out.items():
            print(f"{key:22} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
