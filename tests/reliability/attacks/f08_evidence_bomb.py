"""Finding 8: grader output of 3,000 crafted lines (``'x = ' * 240 + 'wantx'``) made one evidence
pattern cost ~18 ms a line, ``reviewer show`` took 70 s, and the evidence worker could not be
stopped, and ``q`` left a blank screen while the process ran on for minutes.

Live: the backtracking pattern the evidence used to read ``got X, want Y`` lines (kept here,
verbatim, as the attack's reference) is timed on a few crafted lines. Contained: the real
``reviewer show`` on the crafted run finishes within :data:`SHOW_SECONDS`, the evidence of the
crafted failure is computed within :data:`EVIDENCE_SECONDS`, and ``evidence_for`` stops within
:data:`CANCEL_SECONDS` of its cancel check saying so; in a real terminal (tmux), the app on
the crafted failure quits within :data:`QUIT_SECONDS` of ``q`` while the evidence is still
being computed (a heavier bomb of :data:`APP_LINES` lines keeps the worker busy).
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path

import tomli_w

from attacks import Outcome

FINDING = 8
TITLE = "3,000 crafted grader-output lines made the evidence take minutes and ignore q"
LINE = "x = " * 240 + "wantx"
LINES = 3000
SHOW_SECONDS = 10.0
EVIDENCE_SECONDS = 3.0
CANCEL_SECONDS = 0.1
LIVE_MS_A_LINE = 1000 * SHOW_SECONDS / LINES
"""Live: the old pattern alone, over the crafted lines, would take longer than the bound the real
``reviewer show`` is held to (3.3 ms a line). A fixed 5 ms failed a clean-clone CI run: the old
pattern measures 4.9-6.9 ms a line on this machine (about 18 on the one of the finding)."""
QUIT_SECONDS = 3.0
"""The issue's bound is 2 s, and alone the script measures 0.58 s; in CI this test runs beside
another xdist worker on a 2-core machine, where 2.04 s was seen once. The unfixed app takes 45 s."""
APP_LINES = 30_000
FAILURE = "bomb/r1#heldout:test_bomb.py::test_bomb"

# The pattern of reviewer/analysis/reading/pairs.py before the fix (nested lazy repetition).
OLD_QUOTED = r"""(?:"(?:[^"\\]|\\.){0,2000}"|'(?:[^'\\]|\\.){0,2000}'|`[^`]{0,2000}`)"""
OLD_GROUP = r"(?:\{[^{}\n]{0,2000}\}|\[[^\[\]\n]{0,2000}\]|map\[[^\[\]\n]{0,2000}\])"
OLD_VALUE = rf"(?:{OLD_QUOTED}|{OLD_GROUP}|[^,;]{{1,2000}}?)"
OLD_GOT_WANT = re.compile(
    rf"^(?P<call>.*?)(?:\s=|\breturned|\breturns|\bgave|\bgot:?)\s+(?P<got>{OLD_VALUE}),?;?\s+"
    rf"(?:want(?:ed)?|expected|expect|should be|wants?):?\s+(?P<want>{OLD_QUOTED}|.+?)\s*$",
    re.IGNORECASE,
)


def pytest_output(body: str) -> str:
    """A pytest -rA output with one failing test whose section is ``body``."""
    return (
        "============================= test session starts ==============================\n"
        "collected 1 item\n\ntest_bomb.py F\n\n"
        "=================================== FAILURES ===================================\n"
        "__________________________________ test_bomb ___________________________________\n"
        + body
        + "\n=========================== short test summary info ============================\n"
        "FAILED test_bomb.py::test_bomb - assert False\n"
        "============================== 1 failed in 0.01s ===============================\n"
    )


def build(root: Path, lines: int = LINES) -> Path:
    """A sessions folder with one run whose grader output is the crafted one."""
    run = root / "bomb" / "runs" / "r1"
    (run / "attempts" / "1").mkdir(parents=True)
    (run / "grader").mkdir()
    (root / "bomb" / "session.toml").write_text('format = 1\n[session]\nharness = "h"\nmodels = ["m"]\n')
    (run / "brief.md").write_text("# bomb\n\nWrite bomb.py.\n")
    (run / "attempts" / "1" / "bomb.py").write_text("print('x')\n")
    (run / "grader" / "heldout.out").write_text(pytest_output("\n".join([LINE] * lines)))
    (run / "transcript.toml").write_text('format = 1\n[[turn]]\nrole = "user"\ntext = "go"\n')
    manifest = {
        "format": 1,
        "run": {"task": "bomb", "model": "m", "access": "local", "outcome": "fail", "brief": "brief.md", "transcript": "transcript.toml"},
        "attempt": [{"files": ["bomb.py"]}],
        "grader": [{"name": "heldout", "attempt": 1, "command": "python -m pytest -rA test_bomb.py", "exit_status": 1,
                    "output": "grader/heldout.out", "format": "pytest"}],
    }
    (run / "run.toml").write_text(tomli_w.dumps(manifest))
    tomllib.loads((run / "run.toml").read_text())
    return root


def old_pattern_ms_a_line(lines: int = 5) -> float:
    """Milliseconds a line the pre-fix pattern spends on the crafted line."""
    started = time.perf_counter()
    for _ in range(lines):
        OLD_GOT_WANT.match(LINE)
    return 1000 * (time.perf_counter() - started) / lines


def show_seconds(root: Path) -> tuple[float, int, str]:
    """Run the real ``reviewer show`` on the crafted failure: (seconds, exit status, its Evidence)."""
    code = "import sys; from reviewer.cli import main; sys.exit(main(sys.argv[1:]))"
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", code, "show", str(root), "--failure", FAILURE, "--reviewer", "red"],
        capture_output=True, text=True, timeout=600, check=False,
    )
    seconds = time.monotonic() - started
    out = proc.stdout
    evidence = out[out.find("── Evidence"): out.find("── Transcript")] if "── Evidence" in out else proc.stderr[-500:]
    return seconds, proc.returncode, evidence


def evidence_figures(root: Path) -> dict[str, float]:
    """Seconds to compute the crafted failure's evidence, and how long a cancel takes to land."""
    from reviewer.analysis.evidence.engine import evidence_for
    from reviewer.analysis.reading.scan import Cancelled
    from reviewer.store.sessions.store import SessionStore

    store = SessionStore(root, use_index=False)
    store.scan()
    run = store.run("bomb/r1")
    assert run is not None
    [failure] = store.failures(run)
    started = time.monotonic()
    evidence_for(store, run, failure)
    full = time.monotonic() - started
    flag = threading.Event()
    stopped: list[float] = []

    def work() -> None:
        try:
            while True:  # keep it busy until the cancel lands
                evidence_for(store, run, failure, cancel=flag.is_set)
        except Cancelled:
            stopped.append(time.monotonic())

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    time.sleep(min(0.05, full / 2))
    asked = time.monotonic()
    flag.set()
    worker.join(5.0)
    latency = (stopped[0] - asked) if stopped else float("inf")
    return {"evidence_seconds": round(full, 3), "cancel_seconds": round(latency, 4)}


def quit_seconds(root: Path, home: Path) -> float | None:
    """The app on the crafted failure in tmux: seconds from ``q`` to the process's end (None: no tmux)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "e2e"))
    from tmux_driver import Tmux, tmux_available

    if not tmux_available():
        return None
    env = {f"XDG_{k}_HOME": str(home / k.lower()) for k in ("DATA", "CONFIG", "CACHE")}
    command = [sys.executable, "-m", "reviewer.cli", str(root), "--reviewer", "red"]
    with Tmux(command, (160, 48), env={**env, "TERM": "xterm-256color"}) as term:
        term.wait_for(r"Evidence", 60)
        time.sleep(0.5)  # the evidence worker is at the crafted lines now
        started = time.monotonic()
        term.send("q")
        status = term.exit_status(30)
        return time.monotonic() - started if status is not None else float("inf")


def check(work: Path) -> Outcome:
    """Build the crafted run, show the old pattern is slow on it, then time the real code."""
    root = build(work / "sessions")
    ms = old_pattern_ms_a_line()
    live = ms > LIVE_MS_A_LINE
    seconds, status, evidence = show_seconds(root)
    figures = evidence_figures(root)
    quit = quit_seconds(build(work / "heavier", APP_LINES), work / "home")
    figures.update({"old_pattern_ms_a_line": round(ms, 1), "show_seconds": round(seconds, 2), "lines": LINES,
                    "quit_seconds": None if quit is None else round(quit, 2)})
    contained = (
        status == 0 and seconds < SHOW_SECONDS and "took longer" not in evidence
        and figures["evidence_seconds"] < EVIDENCE_SECONDS and figures["cancel_seconds"] < CANCEL_SECONDS
        and (quit is None or quit < QUIT_SECONDS)
    )
    detail = (
        f"old pattern {ms:.1f} ms a line (x {LINES} lines); reviewer show {seconds:.2f} s (exit {status}); "
        f"evidence {figures['evidence_seconds']} s; cancel landed in {figures['cancel_seconds']} s; "
        f"q quit the app in {'(no tmux)' if quit is None else f'{quit:.2f} s'}"
    )
    return Outcome(contained, live, detail, figures)
