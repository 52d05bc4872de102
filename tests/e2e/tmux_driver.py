"""A small driver for a program running in a real terminal (tmux): start, type, read, stop.

Each driver runs its own tmux server on a private socket, so the program gets this process's
environment and nothing is shared with other tmux sessions.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import uuid
from pathlib import Path
from types import TracebackType
from typing import Sequence


def tmux_available() -> bool:
    """True when a tmux binary is on PATH."""
    return shutil.which("tmux") is not None


class Tmux:
    """One program in one detached tmux session of a fixed size."""

    def __init__(self, command: Sequence[str], size: tuple[int, int] = (200, 50), cwd: Path | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.command = list(command)
        self.size = size
        self.cwd = cwd
        self.env = {**os.environ, **(env or {})}
        self.socket = f"reviewer-e2e-{uuid.uuid4().hex[:12]}"
        self.session = f"e2e-{uuid.uuid4().hex[:8]}"

    def tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run a tmux command against this driver's server."""
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              check=check, env=self.env, cwd=self.cwd, timeout=30)

    def start(self) -> "Tmux":
        """Start the program."""
        width, height = self.size
        self.tmux("-f", os.devnull, "new-session", "-d", "-s", self.session, "-x", str(width), "-y", str(height),
                  *self.command, ";", "set-option", "-t", self.session, "remain-on-exit", "on")
        return self

    def exit_status(self, timeout: float = 10.0) -> int | None:
        """The program's exit status once it has ended (None if it is still running at the timeout)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            result = self.tmux("display-message", "-p", "-t", self.session, "#{pane_dead} #{pane_dead_status}",
                               check=False)
            dead, _, status = result.stdout.strip().partition(" ")
            if dead == "1":
                return int(status or 0)
            time.sleep(0.2)
        return None

    def send(self, *keys: str) -> None:
        """Send tmux key names (``j``, ``Enter``, ``Tab``, ``C-q``) one at a time."""
        for key in keys:
            self.tmux("send-keys", "-t", self.session, key)
            time.sleep(0.15)

    def screen(self) -> str:
        """The visible screen as text."""
        return self.tmux("capture-pane", "-p", "-t", self.session).stdout

    def title(self) -> str:
        """The pane title (what escape sequences in the output could have set)."""
        return self.tmux("display-message", "-p", "-t", self.session, "#{pane_title}").stdout.strip()

    def alive(self) -> bool:
        """True while the program is still running in the pane."""
        result = self.tmux("display-message", "-p", "-t", self.session, "#{pane_dead}", check=False)
        return result.returncode == 0 and result.stdout.strip() != "1"

    def wait_for(self, pattern: str, timeout: float = 20.0) -> str:
        """Poll the screen until the regular expression matches; the last screen either way."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            result = self.tmux("capture-pane", "-p", "-t", self.session, check=False)
            screen = result.stdout
            if result.returncode == 0 and re.search(pattern, screen):
                return screen
            time.sleep(0.2)
        raise TimeoutError(f"{pattern!r} never appeared; last screen:\n{screen}")

    def wait_still(self, pattern: str, timeout: float = 20.0) -> str:
        """Like ``wait_for``, but only a screen that matches twice, unchanged, 0.1 s apart.

        A capture can land while the app is writing a big frame (a modal over the whole
        screen): the box's title is drawn, the rows below are still the old ones.
        """
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.wait_for(pattern, max(0.1, deadline - time.monotonic()))
            time.sleep(0.1)
            if self.screen() == screen:
                return screen
        raise TimeoutError(f"{pattern!r} never held still; last screen:\n{screen}")

    def stop(self) -> None:
        """End the session and the private server."""
        self.tmux("kill-server", check=False)

    def __enter__(self) -> "Tmux":
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
