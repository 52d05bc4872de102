"""The hostile-text census's terminal passes: the real app in a pseudo-terminal, and in tmux.

The pty pass captures every byte the app writes while a tour of keys runs, then quits with ``q``;
:func:`censuskit.terminal_leaks` judges the bytes. The tmux pass compares the pane title before
and after a shorter tour (what an OSC 0/2 in recorded text would change).
"""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

from censuskit import MARKER, REVIEWER, Figures, label_digest, terminal_leaks

HERE = Path(__file__).resolve().parent
SIZE = (200, 50)
PTY_KEYS = {
    "tab": "\t", "enter": "\r", "escape": "\x1b", "ctrl+f": "\x06", "ctrl+p": "\x10", "slash": "/",
    "question_mark": "?", "space": " ", "left_square_bracket": "[", "right_square_bracket": "]",
}


# ---- pass 1: the real app in a pseudo-terminal ---------------------------------------------


def pump(master: int, out: bytearray, seconds: float) -> None:
    """Read what the app writes for a while."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:
                return
            if not chunk:
                return
            out.extend(chunk)


def wait_for(master: int, out: bytearray, needle: bytes, timeout: float) -> bool:
    """Read until ``needle`` appears in the output (or the timeout)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if needle in out:
            return True
        pump(master, out, 0.2)
    return needle in out


def terminal_pass(root: Path, start: str, keys: list[str], figures: Figures, step: float) -> None:
    """Run the app in a pty, tour it, quit; count leaks, crashes, hangs and early exits."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(SIZE[0]), "LINES": str(SIZE[1]),
           "TEXTUAL_ANIMATIONS": "none", "PYTHONPATH": str(HERE.parents[1])}
    env.pop("TEXTUAL", None)
    cwd = Path(tempfile.mkdtemp(prefix="census-cwd-"))
    before = label_digest(root)
    proc = subprocess.Popen([sys.executable, "-m", "reviewer.cli", str(root), "--reviewer", REVIEWER, "--failure", start],
                            stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd, start_new_session=True)
    os.close(slave)
    out = bytearray()
    marks: list[tuple[int, str]] = [(0, "start")]
    try:
        if not wait_for(master, out, b"labelled", 60):
            figures.hangs += 1
            figures.details.append("terminal: the status line never appeared")
        pump(master, out, 1.0)
        for key in keys:
            if proc.poll() is not None:
                break
            marks.append((len(out), key))
            os.write(master, PTY_KEYS.get(key, key).encode())
            pump(master, out, step)
        pump(master, out, 1.0)
        if proc.poll() is not None:
            figures.actions_fired += 1
            figures.details.append(f"terminal: the app ended before q (status {proc.returncode})")
        else:
            os.write(master, b"q")
            end = time.monotonic() + 15
            while proc.poll() is None and time.monotonic() < end:
                pump(master, out, 0.2)
            if proc.poll() is None:
                figures.hangs += 1
                figures.details.append("terminal: the app did not end within 15 s of q")
            elif proc.returncode != 0:
                figures.crashes += 1
                figures.details.append(f"terminal: exit status {proc.returncode}")
        pump(master, out, 0.3)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    data = bytes(out)
    if os.environ.get("CENSUS_SAVE"):
        Path(os.environ["CENSUS_SAVE"]).write_bytes(data)
    figures.shown_in_terminal = len(set(MARKER.findall(data.decode("utf-8", "replace"))))
    if b"Traceback" in data:
        figures.crashes += 1
        figures.details.append("terminal: a traceback was printed")
    for offset, leak in terminal_leaks(data, copied=True):
        figures.leaks += 1
        after = [f"{i}:{k}" for i, (at, k) in enumerate(marks) if at <= offset][-1:] if offset >= 0 else []
        figures.details.append(f"terminal: {leak}" + (f" (after key {after[0]}, byte {offset})" if after else ""))
    if label_digest(root) != before:
        figures.actions_fired += 1
        figures.details.append("terminal: a labels file was written")
    left = [p.name for p in cwd.iterdir()]
    if left:
        figures.actions_fired += 1
        figures.details.append(f"terminal: files appeared in the working folder: {left}")


# ---- pass 3: the window title in tmux -------------------------------------------------------

TMUX_KEYS = ["j", "l", "Tab", "e", "y", "n", "Escape", "t", "Escape", "E", "Escape", "r", "A", "Escape", "C", "Escape", "J"]


def title_pass(root: Path, start: str, figures: Figures) -> None:
    """In tmux, the pane title after touring the payloads is the one it started with."""
    sys.path.insert(0, str(HERE.parent / "e2e"))
    from tmux_driver import Tmux, tmux_available

    if not tmux_available():
        figures.details.append("title: tmux is not installed; pass skipped")
        return
    env = {"TERM": "xterm-256color", "TEXTUAL_ANIMATIONS": "none", "PYTHONPATH": str(HERE.parents[1])}
    command = [sys.executable, "-m", "reviewer.cli", str(root), "--reviewer", REVIEWER, "--failure", start]
    with Tmux(command, size=SIZE, env=env) as term:
        try:
            term.wait_for(r"labelled", timeout=60)
        except TimeoutError:
            figures.hangs += 1
            figures.details.append("title: the status line never appeared")
            return
        before = term.title()
        term.send(*TMUX_KEYS)
        time.sleep(1.0)
        after = term.title()
        if not term.alive():
            figures.actions_fired += 1
            figures.details.append("title: the app ended during the tour")
    if after != before or "PWNED" in after:
        figures.title_changes += 1
        figures.details.append(f"title: {before!r} became {after!r}")
