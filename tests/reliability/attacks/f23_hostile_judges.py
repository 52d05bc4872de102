"""Finding 23 (item 5 of the '5/5' issue, judges scored against the humans): a judge is a program the
user names, and its answers are as untrusted as a model's. A hostile or broken judge answers with a
huge document, malformed JSON or terminal escape sequences, hangs, dies, writes to stderr forever,
nests brackets a hundred thousand deep, or answers and leaves a helper holding its stdout open.

Live, without the guard: a naive runner, the obvious first version of ``reviewer judge`` (kept
here verbatim as :data:`NAIVE`: ``subprocess.run(argv, input=doc, capture_output=True)``, then
``json.loads`` of stdout, then printing the rationale), run as its own process on the same judge:
it reads the whole huge answer into memory, crashes with a traceback on the malformed, deep and
empty answers, writes the escape sequences to its output, and never returns from the hanging
judge, the stderr flood or the lingering helper (stopped here after :data:`NAIVE_SECONDS`).

Contained: the real ``reviewer judge`` (the command line of the ``reviewer`` package this process
imports) on the same judge, ``--timeout`` :data:`TIMEOUT`: each case ends within its bound, names
the failure and the reason in one line on stderr and exits 1 (or, for the escapes and the
lingering helper, saves the prediction and exits 0), holds its memory under :data:`RSS_LIMIT_MB`
while the judge writes 128 MiB, never prints a traceback, and leaves no process of the judge
behind; the escapes are stored escaped and ``reviewer show`` prints none of them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from attacks import Outcome

FINDING = 23
TITLE = "a hostile judge (huge, malformed or escaping answers, a hang, a death, a stderr flood, a lingering helper)"
JUDGE = Path(__file__).resolve().parents[2] / "judges" / "script_judge.py"
TIMEOUT = 3
NAIVE_SECONDS = 6.0
RSS_LIMIT_MB = 200
HUGE = 128 << 20
PEAK = "import re; print('maxrss_kb', re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1), file=sys.stderr)"
"""Print the process's own peak resident memory (``VmHWM``: its own address space's, where ``ru_maxrss``
carries over the peak of the process that started it)."""
NAIVE = r'''
import json, subprocess, sys
argv = json.loads(sys.argv[1])
done = subprocess.run(argv, input=sys.stdin.buffer.read(), capture_output=True)
answer = json.loads(done.stdout)
print("verdict:", answer.get("verdict"), "rationale:", answer.get("rationale", ""))
''' + PEAK
"""The naive runner: what ``reviewer judge`` would be without its guard."""
MEASURED = r'''
import sys
from reviewer.cli import main
code = main(sys.argv[1:])
''' + PEAK + "\nsys.exit(code)"
"""The real command line, its peak memory printed after it (the judge's own is not counted: it is another process)."""
CASES: dict[str, dict[str, Any]] = {
    "huge": {"args": ["--size", str(HUGE)], "says": "answer passed 1024 KiB", "exit": 1},
    "malformed": {"says": "the answer is not one JSON object", "exit": 1},
    "deep": {"says": "nests brackets deeper", "exit": 1},
    "escapes": {"says": "", "exit": 0},
    "hang": {"says": f"did not answer within {TIMEOUT} s", "exit": 1},
    "die": {"says": "signal 9 (SIGKILL)", "exit": 1},
    "stderr": {"says": f"did not answer within {TIMEOUT} s", "exit": 1},
    "linger": {"says": "", "exit": 0},
}
ESCAPES = ("\x1b", "\x9b", "\x07", "\u202e")
FAILURE = "s1/r1#heldout:TestToRoman"


def env(work: Path) -> dict[str, str]:
    """The environment of every command: this tree first on the path, the user's folders in ``work``."""
    import reviewer

    code = Path(reviewer.__file__).resolve().parents[1]
    return {**os.environ, "PYTHONPATH": str(code), "XDG_CONFIG_HOME": str(work / "xdg-config"),
            "XDG_DATA_HOME": str(work / "xdg-data"), "XDG_CACHE_HOME": str(work / "xdg-cache")}


def judge_argv(mode: str, tag: str, *more: str) -> list[str]:
    """The hostile judge (tests/judges/script_judge.py) in one of its modes, tagged to be found."""
    return [sys.executable, str(JUDGE), "--mode", mode, "--tag", tag, *more]


def leftovers(tag: str) -> list[int]:
    """Processes of the judge still running (their command line holds ``tag``); killed after counting."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if tag.encode() in cmdline and int(pid) != os.getpid():
            found.append(int(pid))
    for pid in found:
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    return found


def maxrss_mb(stderr: str) -> float | None:
    """The peak memory a wrapped command printed last on stderr."""
    for line in reversed(stderr.splitlines()):
        if line.startswith("maxrss_kb "):
            return int(line.split()[1]) / 1024
    return None


def naive(work: Path, mode: str, more: list[str]) -> dict[str, Any]:
    """The naive runner on the judge, stopped after NAIVE_SECONDS: what it did."""
    tag = f"naive-{mode}-{os.getpid()}"
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", NAIVE, json.dumps(judge_argv(mode, tag, *more))],
                              input=b'{"failure": {"id": "x"}, "evidence": null}\n', capture_output=True,
                              timeout=NAIVE_SECONDS, env=env(work))
    except subprocess.TimeoutExpired:
        leftovers(tag)
        return {"returned": False, "seconds": round(time.monotonic() - started, 1)}
    leftovers(tag)
    err = done.stderr.decode("utf-8", "replace")
    out = done.stdout.decode("utf-8", "replace")
    return {"returned": True, "exit": done.returncode, "traceback": "Traceback" in err, "rss_mb": maxrss_mb(err),
            "escapes": any(e in out for e in ESCAPES), "seconds": round(time.monotonic() - started, 1)}


def naive_live(mode: str, seen: dict[str, Any]) -> bool:
    """The naive runner fell to this case."""
    if mode == "huge":
        return seen["returned"] and (seen["rss_mb"] or 0) > HUGE >> 20
    if mode in ("malformed", "deep", "die"):
        return seen["returned"] and seen["traceback"]
    if mode == "escapes":
        return seen["returned"] and seen["escapes"]
    return not seen["returned"]  # hang, stderr, linger: it never returned


def contained(work: Path, root: Path, mode: str, case: dict[str, Any]) -> dict[str, Any]:
    """The real ``reviewer judge`` on the judge: what it did."""
    tag = f"real-{mode}-{os.getpid()}"
    command = " ".join(judge_argv(mode, tag, *case.get("args", [])))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", MEASURED, "judge", str(root), "--name", f"hostile-{mode}",
                           "--command", command, "--timeout", str(TIMEOUT), "--failure", FAILURE],
                          capture_output=True, timeout=300, env=env(work), cwd=work)
    seconds = time.monotonic() - started
    err = done.stderr.decode("utf-8", "replace")
    out = done.stdout.decode("utf-8", "replace")
    lines = [ln for ln in err.splitlines() if ln.startswith(f"reviewer judge: {FAILURE}: ")]
    said = case["says"] in lines[0] if lines and case["says"] else not lines
    saved = (root / "s1" / "predictions" / f"hostile-{mode}.toml")
    raw = saved.read_bytes() if saved.is_file() else b""
    shown = ""
    if mode == "escapes":
        label = subprocess.run([sys.executable, "-m", "reviewer.cli", "label", str(root), "--failure", FAILURE,
                                "--verdict", "specification", "--reviewer", "alice"], capture_output=True, env=env(work))
        show = subprocess.run([sys.executable, "-m", "reviewer.cli", "show", str(root), "--failure", FAILURE,
                               "--reviewer", "alice"], capture_output=True, env=env(work))
        shown = show.stdout.decode("utf-8", "replace") if label.returncode == 0 else ""
    return {
        "exit": done.returncode, "seconds": round(seconds, 1), "said": said, "traceback": "Traceback" in err,
        "rss_mb": maxrss_mb(err), "left": len(leftovers(tag)),
        "escapes_printed": any(e in out + err for e in ESCAPES),
        "saved": b"[[prediction]]" in raw, "raw_control_bytes": any(b in raw for b in (b"\x1b", b"\x07")),
        "shown_escapes": any(e in shown for e in ESCAPES) if mode == "escapes" else False,
        "shown_rationale": "pwned-title" in shown if mode == "escapes" else True,
    }


def held(mode: str, case: dict[str, Any], got: dict[str, Any]) -> bool:
    """The real command held this case."""
    ok = (got["exit"] == case["exit"] and got["said"] and not got["traceback"] and got["left"] == 0
          and not got["escapes_printed"] and got["rss_mb"] is not None and got["rss_mb"] < RSS_LIMIT_MB
          and got["seconds"] < 60)
    if case["exit"] == 0:
        ok = ok and got["saved"] and not got["raw_control_bytes"]
    if mode == "escapes":
        ok = ok and not got["shown_escapes"] and got["shown_rationale"]
    return ok


def check(work: Path) -> Outcome:
    """Every case: live in the naive runner, then contained by ``reviewer judge``."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from sessionkit import small_folder

    root = small_folder(work / "sessions")
    figures: dict[str, Any] = {}
    lines = []
    live_all = contained_all = True
    for mode, case in CASES.items():
        before = naive(work, mode, case.get("args", []))
        live = naive_live(mode, before)
        got = contained(work, root, mode, case)
        ok = held(mode, case, got)
        live_all, contained_all = live_all and live, contained_all and ok
        figures[mode] = {"naive": before, "reviewer": got, "live": live, "contained": ok}
        lines.append(f"{mode}: naive {json.dumps(before)} -> live {live}; reviewer judge {json.dumps(got)} -> contained {ok}")
    return Outcome(contained_all, live_all, "\n".join(lines), {"cases": len(CASES), **figures})
