"""How long ``q`` takes while a worker is reading, timed from outside: the app in a real terminal.

    python tests/bench/quit.py [--rounds 8] [--json]

Writes a small synthetic folder with the benchmark's big runs (``synth.py``: a 20,000-line file and
a 10 MB single-line grader output), opens reviewer in tmux at 200x50 on the big file's failure,
and once the screen has settled presses ``j`` (to the 10 MB output, which a worker reads and
renders) and at once ``q``:

- ``quit_s``: from ``q`` until the program has exited (its tmux session is gone), median over rounds;
- ``quit_idle_s``: the same with nothing being read (``q`` alone), the floor of Textual's own exit.

The app's workers run in daemon threads (``reviewer/ui/worker_threads.py``), so the exit never waits
for a read in progress: with the event loop's own executor it waited for the read to finish
(3.6 s against 0.96 s in 8 interleaved rounds on the 2-core development machine under load).
One JSON line with ``--json``.
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

from synth import add_big_runs, generate  # noqa: E402
from terminal import Term, compiled  # noqa: E402

SETTLE = 1.5
"""Seconds for what the first screen started (counting, the other reviewers) to finish."""


def running(term: Term) -> bool:
    """The program in the terminal has not exited (its tmux session is there)."""
    return subprocess.run(["tmux", "-L", term.socket, "has-session", "-t", "b"], capture_output=True, env=term.env,
                          timeout=30).returncode == 0


def quit_seconds(root: Path, home: Path, failure: str, read_first: bool) -> float:
    """Open at ``failure``, press ``j`` first when ``read_first``, then ``q``: seconds to exit."""
    env = {f"XDG_{k}_HOME": str(home / k.lower()) for k in ("DATA", "CONFIG", "CACHE")}
    term = Term([sys.executable, "-m", "reviewer.cli", str(root), "--reviewer", "bench", "--failure", failure], env)
    try:
        term.until(lambda screen: "big.go" in screen and "Grader" in screen)
        time.sleep(SETTLE)
        if read_first:
            term.key("j")
            time.sleep(0.02)  # the key is taken; its worker reads the 10 MB output
        sent = term.key("q")
        while running(term):
            if time.perf_counter() - sent > 120:
                raise TimeoutError("the app did not exit within 120 s of q")
            time.sleep(0.005)
        return time.perf_counter() - sent
    finally:
        term.close()


def run(rounds: int) -> dict[str, object]:
    """Every round, interleaved; medians."""
    compiled()
    with tempfile.TemporaryDirectory(prefix="quit-bench-") as tmp:
        root = Path(tmp) / "sessions"
        generate(root, 200)
        big = add_big_runs(root)
        home = Path(tmp) / "home"
        quit_seconds(root, home, big["bigfile"], False)  # writes the index cache: the rounds open warm
        during, idle = [], []
        for _ in range(rounds):
            during.append(quit_seconds(root, home, big["bigfile"], True))
            idle.append(quit_seconds(root, home, big["bigfile"], False))
    return {"rounds": rounds, "quit_s": round(statistics.median(during), 3), "quit_idle_s": round(statistics.median(idle), 3),
            "quit_s_rounds": [round(x, 3) for x in during], "quit_idle_s_rounds": [round(x, 3) for x in idle]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    out = run(args.rounds)
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        for key, value in out.items():
            print(f"{key:22} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
