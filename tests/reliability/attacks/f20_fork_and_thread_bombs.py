"""Finding 20: the bounded fork bomb and thread bomb the issue of the 'promises under attack' pass
asked for: a grader that forks without end, and one that starts threads without end, are held at
the sandbox's process limit (tasks: processes and threads together), stopped at the time limit,
and leave no process behind; the host keeps forking meanwhile.

The fixture is a sessions folder with two runs whose grader is the bomb (``python check.py
MARKER``: every process forks in a loop, retrying when refused; or one process starts threads in a
loop, retrying when refused), re-scored by the real ``reviewer rescore`` with ``--processes``
:data:`PROCESSES` and ``--time-limit`` :data:`TIME_LIMIT`. While it runs, this check counts from the
host, every 0.05 s, the bomb's processes and threads (the Python processes whose command line holds
the marker), and times the host starting a process at the bomb's peak.

Live: the bombs really grow past the limit when the limit alone holds them as the user running
reviewer: run as root (as here and in CI) under ``prlimit --nproc=PROCESSES`` and nothing else, each
bounded bomb (it stops at :data:`LIVE_CAP` tasks) reaches its cap, since the kernel does not hold root's
processes to that limit (the sandbox drops to ``nobody`` for this reason). Not root: ``live`` is None
(the limit already holds the user's processes).

Contained: in the sandbox neither bomb ever has more than :data:`PROCESSES` tasks, each re-score ends
within its two runs' time limits and a margin, no process of either is left once it returns, and the
host starts a process in under :data:`HOST_SPAWN_SECONDS` s while the bomb is at its peak.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from attacks import Outcome

FINDING = 20
TITLE = "a grader forking without end, and one starting threads without end (the bounded bombs the issue asked for)"
PROCESSES = 64
TIME_LIMIT = 4.0
LIVE_CAP = 2 * PROCESSES
MARGIN_SECONDS = 15.0
"""Beyond the two runs' time limits (control and repaired), for the sandbox to start and be reaped
on a loaded machine."""
HOST_SPAWN_SECONDS = 2.0
REPAIR = "map-value:ok:true:yes"

BOMBS = {
    "fork": """import os, sys, time
while True:
    try:
        os.fork()
    except OSError:
        time.sleep(0.01)
""",
    "thread": """import sys, threading, time
while True:
    try:
        threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
    except RuntimeError:
        time.sleep(0.01)
""",
}

BOUNDED = {
    "fork": """import os, sys, time
made = 0
for _ in range(int(sys.argv[2])):
    try:
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        made += 1
    except OSError:
        break
print(made, flush=True)
os.killpg(0, 9)
""",
    "thread": """import sys, threading, time
made = 0
for _ in range(int(sys.argv[2])):
    try:
        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
        made += 1
    except RuntimeError:
        break
print(made, flush=True)
""",
}


def tasks_of(marker: str) -> tuple[int, int]:
    """(processes, threads in all) of the Python processes whose command line holds ``marker``."""
    processes = threads = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                argv = fh.read().split(b"\0")
            with open(f"/proc/{name}/comm", "rb") as fh:
                comm = fh.read()
            if marker.encode() not in argv or not comm.startswith(b"python"):
                continue
            count = len(os.listdir(f"/proc/{name}/task"))
        except OSError:
            continue
        processes += 1
        threads += count
    return processes, threads


def live_reach(kind: str) -> int | None:
    """Tasks the bounded bomb reaches as root under ``prlimit --nproc`` alone (None: not root)."""
    if os.geteuid() != 0:
        return None
    proc = subprocess.run(["prlimit", f"--nproc={PROCESSES}", "--", sys.executable, "-c", BOUNDED[kind], kind, str(LIVE_CAP)],
                          capture_output=True, text=True, timeout=60, check=False, start_new_session=True)
    lines = proc.stdout.split()
    return int(lines[-1]) if lines and lines[-1].isdigit() else 0


def build(root: Path, kind: str, marker: str) -> Path:
    """A sessions folder with one run whose grader is the bomb, ``python check.py MARKER``."""
    from rescorekit import synthetic

    return synthetic(root, {"prog.py": "print('ok=true')\n"}, BOMBS[kind],
                     {"program": "prog.py", "command": f"python check.py {marker}"})


def bomb(root: Path, run: str, marker: str, home: Path) -> dict[str, Any]:
    """``reviewer rescore`` of the bomb's run, watched from the host."""
    env = {**os.environ, **{f"XDG_{k}_HOME": str(home / k.lower()) for k in ("CONFIG", "DATA", "CACHE")}}
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "reviewer.cli", "rescore", str(root), "--failure", f"s1/{run}#check:run",
                             "--repair", REPAIR, "--processes", str(PROCESSES), "--time-limit", f"{TIME_LIMIT:g}",
                             "--reviewer", "red", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=home)
    out: dict[str, str] = {}
    done = threading.Event()

    def collect() -> None:
        out["stdout"], out["stderr"] = proc.communicate(timeout=2 * TIME_LIMIT + 120)
        done.set()

    reader = threading.Thread(target=collect, daemon=True)
    reader.start()
    peak_processes = peak_threads = 0
    spawn: float | None = None
    while not done.wait(0.05):
        processes, threads = tasks_of(marker)
        peak_processes, peak_threads = max(peak_processes, processes), max(peak_threads, threads)
        if spawn is None and threads >= PROCESSES // 2:
            at = time.monotonic()
            subprocess.run(["true"], check=True, timeout=30)
            spawn = time.monotonic() - at
    reader.join()
    seconds = time.monotonic() - started
    time.sleep(0.3)
    left = tasks_of(marker)
    try:
        stopped = json.loads(out.get("stdout", "").strip().splitlines()[-1]).get("stopped", {})
    except (IndexError, ValueError, AttributeError):
        stopped = {"error": (out.get("stdout", "") + out.get("stderr", ""))[-600:]}
    return {"peak_processes": peak_processes, "peak_tasks": peak_threads, "seconds": round(seconds, 2),
            "host_spawn_seconds": None if spawn is None else round(spawn, 3), "left_behind": left[0],
            "exit": proc.returncode, "stopped": stopped}


def check(work: Path) -> Outcome:
    """The bounded bombs past the limit as root, then each held in the sandbox."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "rescore"))
    home = work / "home"
    home.mkdir()
    reached = {kind: live_reach(kind) for kind in BOMBS}
    live = None if any(r is None for r in reached.values()) else all(r == LIVE_CAP for r in reached.values())
    tag = f"{os.getpid()}-{time.monotonic_ns()}"
    markers = {kind: f"bomb-{kind}-{tag}" for kind in BOMBS}
    seen = {kind: bomb(build(work / kind / "sessions", kind, markers[kind]), "r1", markers[kind], home) for kind in BOMBS}

    def held(s: dict[str, Any]) -> bool:
        return (0 < s["peak_tasks"] <= PROCESSES and s["seconds"] < 2 * TIME_LIMIT + MARGIN_SECONDS
                and all("time limit" in s["stopped"].get(run, "") for run in ("before", "after"))
                and s["left_behind"] == 0 and s["host_spawn_seconds"] is not None
                and s["host_spawn_seconds"] < HOST_SPAWN_SECONDS)

    contained = all(held(s) for s in seen.values()) and seen["fork"]["peak_processes"] > PROCESSES // 2 \
        and seen["thread"]["peak_tasks"] > PROCESSES // 2
    lines = [f"as root under prlimit --nproc={PROCESSES} alone, the bounded {kind} bomb reached "
             f"{'(not root: not shown)' if r is None else r} of {LIVE_CAP} tasks" for kind, r in reached.items()]
    for kind, s in seen.items():
        lines.append(f"{kind} bomb in the sandbox (limit {PROCESSES} tasks, time limit {TIME_LIMIT:g} s): at most "
                     f"{s['peak_processes']} processes, {s['peak_tasks']} tasks; re-score took {s['seconds']} s (exit {s['exit']}), its runs "
                     f"stopped: {s['stopped']}; "
                     f"host started a process in {s['host_spawn_seconds']} s at its peak; left behind: {s['left_behind']}")
    figures: dict[str, Any] = {"limit": PROCESSES, "time_limit": TIME_LIMIT}
    for kind in BOMBS:
        figures[f"{kind}_live_reached"] = reached[kind]
        figures.update({f"{kind}_{k}": v for k, v in seen[kind].items()})
    return Outcome(contained, live, "\n".join(lines), figures)
