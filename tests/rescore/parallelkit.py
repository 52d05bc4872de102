"""Helpers for the parallel and cluster re-score tests: two gradings, one quick and one that waits,
``reviewer rescore`` as a subprocess, and waiting on what the processes do (never on a clock alone)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from rescorekit import synthetic

from reviewer.store.sessions.store import SessionStore

CHECKER = ("import sys, time\n"
           "if sys.argv[1].startswith('slow'):\n"
           "    time.sleep(600)\n"
           "print('FAIL: recorded')\n"
           "sys.exit(1)\n")


def quick_and_slow(root: Path) -> tuple[Path, list[str], str]:
    """A sessions folder with run r1 (its grader ends at once, still failing) and r2 (its grader
    sleeps ten minutes, its command holding a unique marker); their failure ids and the marker."""
    marker = f"slow-{uuid.uuid4().hex}"
    synthetic(root, {"prog.py": "print(1)\n"}, CHECKER, {"command": "python check.py quick"}, run_id="r1")
    synthetic(root, {"prog.py": "print(1)\n"}, CHECKER, {"command": f"python check.py {marker}", "time_limit": 900},
              run_id="r2")
    store = SessionStore(root)
    store.scan()
    ids = []
    for key in ("s1/r1", "s1/r2"):
        run = store.run(key)
        assert run is not None
        ids += [f.id for f in store.failures(run)]
    assert len(ids) == 2, ids
    return root, ids, marker


def start_reviewer(*args: str) -> subprocess.Popen[str]:
    """``reviewer ARGS`` running, its output piped."""
    return subprocess.Popen([sys.executable, "-m", "reviewer.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def reviewer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "reviewer.cli", *args], check=False, capture_output=True,
                          text=True, timeout=900)


def until(condition: Callable[[], bool], what: str, limit: float = 180.0) -> None:
    """Wait for ``condition`` (something the processes do); fail after ``limit`` seconds of nothing."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        threading.Event().wait(0.05)
