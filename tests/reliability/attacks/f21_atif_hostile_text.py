"""Finding 21: an ATIF trajectory whose every text field is hostile (markup, escapes, bidi, NUL).

A Harbor job folder holds one trial whose trajectory carries every payload of the hostile-text
census (:mod:`censuskit`: ``[@click=app.quit]`` markup for every app action, ``[/b]``, OSC 0 /
8 / 52, CSI 2J, C1 bytes, NUL, bidi overrides, zero-width characters) in every field a
trajectory can hold text: the agent's name, version and model, the notes, each step's message
(a string and content parts), reasoning, tool names, tool arguments (a command, a file path, a
file's content), observations, an embedded subagent, and the trial's ``result.json``
exception, reward names and ``verifier/test-stdout.txt``.

Live: the payloads are not inert. Printed the way trajectory viewers print a step (Rich
``console.print(message)`` to a terminal, as SWE-agent's inspector did, SWE-agent#962), the
message either raises ``MarkupError`` or writes an OSC 0 title change and raw C1 bytes to the
terminal. (No version of reviewer's ATIF importer ever lacked its guard: the guard is the
store's and the app's sanitising, which this shows hold for text that arrives by ``import atif``.)

Contained: ``reviewer import atif`` exits 0 and keeps every payload (each marker is in the
imported files: nothing is dropped silently); ``reviewer show`` of the failure writes no
escape sequence or raw control character; the real app in a pseudo-terminal, touring every
pane, writes none either, runs no action, writes no labels and does not crash.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from censuskit import Figures, joined, marker, one_line, payloads, terminal_leaks
from censusterm import terminal_pass

from attacks import Outcome

FINDING = 21
TITLE = "an ATIF trajectory (and its Harbor trial) carries markup, escapes and bidi text in every field"
SESSION = "atif-hostile"
TRIAL = "hostile__Aa1Bb2"
TOUR = ["l", "right_square_bracket", "f", "d", "tab", "e", "tab", "e", "tab", "e", "y", "E", "escape",
        "n", "escape", "ctrl+f", "P", "escape", "escape", "J", "e"]

NAIVE = """
import json, sys
from rich.console import Console
from rich.errors import MarkupError
console = Console(file=sys.stdout, force_terminal=True, color_system="truecolor", width=200)
for step in json.load(open(sys.argv[1], encoding="utf-8"))["steps"]:
    if isinstance(step["message"], str):
        try:
            console.print(step["message"])
        except MarkupError as exc:
            sys.stdout.write("MARKUP-ERROR " + str(exc)[:80])
            break
"""


def hostile_trajectory(text: str, line: str) -> dict[str, Any]:
    """A v1.7 trajectory with ``text`` (every payload) in every field that holds text."""
    sub = {"schema_version": "ATIF-v1.7", "trajectory_id": "sub-1", "agent": {"name": line[:300], "version": line[:50]},
           "steps": [{"step_id": 1, "source": "user", "message": text}, {"step_id": 2, "source": "agent", "message": text}]}
    return {
        "schema_version": "ATIF-v1.7", "session_id": line[:200], "trajectory_id": line[:200], "notes": text,
        "agent": {"name": line[:300], "version": line[:80], "model_name": line[:300], "extra": {line[:100]: text}},
        "steps": [
            {"step_id": 1, "source": "system", "message": text},
            {"step_id": 2, "source": "user", "message": [{"type": "text", "text": text},
                                                         {"type": "image", "source": {"media_type": "image/png", "path": line[:200]}}]},
            {"step_id": 3, "source": "agent", "message": text, "reasoning_content": text, "model_name": line[:200],
             "tool_calls": [{"tool_call_id": "c1", "function_name": line[:200], "arguments": {"command": text}},
                            {"tool_call_id": "c2", "function_name": "Write", "arguments": {"file_path": "/app/" + line[:150] + ".py", "content": text}},
                            {"tool_call_id": "c3", "function_name": "Task", "arguments": {"prompt": text}, "extra": {"x": text}}],
             "observation": {"results": [{"source_call_id": "c1", "content": text},
                                         {"source_call_id": "c3", "content": text, "subagent_trajectory_ref": [{"trajectory_id": "sub-1", "extra": {"summary": text}}]},
                                         {"content": [{"type": "text", "text": text}]}]},
             "metrics": {"prompt_tokens": 1, "extra": {line[:50]: text}}, "extra": {"context_management": {"type": line[:40], "boundary": line[:40]}}},
            {"step_id": 4, "source": "agent", "message": text},
        ],
        "final_metrics": {"extra": {line[:50]: text}}, "extra": {line[:50]: text, "git_patch": text},
        "subagent_trajectories": [sub],
    }


def fixture(work: Path) -> tuple[Path, int]:
    """(the job folder, how many payloads) with the hostile trial in it."""
    items = payloads(0)
    text, line = joined(items), one_line(items)
    trial = work / "job" / TRIAL
    (trial / "agent").mkdir(parents=True)
    (trial / "verifier").mkdir()
    (trial / "agent" / "trajectory.json").write_text(json.dumps(hostile_trajectory(text, line)), encoding="utf-8")
    result = {"task_name": line[:200], "trial_name": line[:200], "verifier_result": {"rewards": {line[:200]: 0.0, "reward": 0.5}},
              "exception_info": {"exception_type": line[:100], "exception_message": text, "exception_traceback": text}}
    (trial / "result.json").write_text(json.dumps(result), encoding="utf-8")
    (trial / "verifier" / "test-stdout.txt").write_text(text + "\n", encoding="utf-8")
    return work / "job", len(items)


def reviewer(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    """The real command line in a child process (bytes out: what a terminal would get)."""
    code = "import sys; from reviewer.cli import main; sys.exit(main(sys.argv[1:]))"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    return subprocess.run([sys.executable, "-c", code, *argv], check=False, capture_output=True, timeout=300, cwd=cwd, env=env)


def plain_leaks(data: bytes) -> list[tuple[int, str]]:
    """What a plain-text command wrote that a terminal would obey: every escape sequence and raw
    control character but tab (grader output keeps its tabs; a tab moves the cursor, nothing more)."""
    return [(at, leak) for at, leak in terminal_leaks(data) if not leak.startswith("raw 0x9 ")]


def check(work: Path) -> Outcome:
    """Show a naive print is hostile, then import and show the trial through reviewer."""
    job, count = fixture(work)
    naive = subprocess.run([sys.executable, "-c", NAIVE, str(job / TRIAL / "agent" / "trajectory.json")],
                           capture_output=True, timeout=60, check=False)
    naive_leaks = terminal_leaks(naive.stdout)
    live = naive.returncode == 0 and (b"MARKUP-ERROR" in naive.stdout or bool(naive_leaks))
    figures: dict[str, Any] = {"payloads": count, "naive_markup_error": b"MARKUP-ERROR" in naive.stdout,
                               "naive_leaks": len(naive_leaks)}
    into = work / "sessions"
    done = reviewer("import", "atif", str(job), "--into", str(into), "--session", SESSION)
    figures["import_exit"] = done.returncode
    if done.returncode != 0:
        return Outcome(False, live, f"import failed: {done.stderr.decode('utf-8', 'replace')[-500:]}", figures)
    import_leaks = plain_leaks(done.stdout + done.stderr)
    stored = "".join(p.read_bytes().decode("utf-8", "replace") for p in (into / SESSION).rglob("*") if p.is_file())
    kept = sum(1 for i in range(count) if marker(i) in stored)
    figures["payloads_kept"] = kept
    show = reviewer("show", str(into), "--failure", f"{SESSION}/{TRIAL}#harbor-verifier:reward", cwd=work)
    show_leaks = plain_leaks(show.stdout + show.stderr)
    figures["show_exit"] = show.returncode
    figures["import_and_show_leaks"] = len(import_leaks) + len(show_leaks)
    census = Figures(payloads=count)
    terminal_pass(into, f"{SESSION}/{TRIAL}#harbor-verifier:reward", TOUR, census, 0.35)
    figures.update({f"app_{k}": v for k, v in census.public().items() if k in ("leaks", "crashes", "hangs", "actions_fired", "shown_in_terminal")})
    contained = (kept == count and show.returncode == 0 and not import_leaks and not show_leaks
                 and census.leaks == 0 and census.crashes == 0 and census.hangs == 0 and census.actions_fired == 0)
    detail = (f"naive Rich print: {'MarkupError' if figures['naive_markup_error'] else f'{len(naive_leaks)} leaks'}; "
              f"import kept {kept}/{count} payloads; show exit {show.returncode}, {len(show_leaks)} leaks; "
              f"app in a pty: {census.leaks} leaks, {census.crashes} crashes, {census.hangs} hangs, {census.actions_fired} actions"
              + ("\n" + "\n".join(census.details[:8]) if census.details else "")
              + ("\n" + "\n".join(f"show: {leak}" for _, leak in show_leaks[:5]) if show_leaks else ""))
    return Outcome(contained, live, detail, figures)
