"""Debian's chromium driven by Playwright, and ``reviewer serve`` run as a real process.

The browser is the system one (``/usr/bin/chromium``, installed by ``.ci/run``); Playwright's own
browser download is never used. The served app draws on a canvas, so the page's websocket is
wrapped before the page runs (:data:`SCREEN_HOOK`) to keep the text it received: the pane titles
are read from what reached the browser's terminal.
"""

from __future__ import annotations

import os
import re
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PANES = ("Brief", "Code", "Grader", "Transcript")
SCREEN_HOOK = """
(() => {
  const Native = window.WebSocket;
  const decoder = new TextDecoder();
  window.__screenText = "";
  const keep = (data) => {
    if (typeof data === "string") window.__screenText += data;
    else if (data instanceof ArrayBuffer) window.__screenText += decoder.decode(data, {stream: true});
    else if (data instanceof Blob) data.arrayBuffer().then((b) => { window.__screenText += decoder.decode(b, {stream: true}); });
  };
  window.WebSocket = function (url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    ws.addEventListener("message", (ev) => keep(ev.data));
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
"""
ESCAPES = re.compile(r"\x1b\[[0-9;?$]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def browser_or_skip() -> Any:
    """Playwright's sync API, or a clean skip saying what is missing."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent: install Debian's chromium (apt-get install chromium) for the browser tests")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install '.[test]')")
    return sync_playwright


def screen_text(page: Any) -> str:
    """What the served app has sent to the page's terminal so far, escape sequences removed."""
    return ESCAPES.sub("", page.evaluate("window.__screenText || ''"))


def wait_for_panes(page: Any, timeout: float = 60.0) -> str:
    """Wait until the four pane titles reached the page; the text received."""
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = screen_text(page)
        if all(p in text for p in PANES):
            return text
        time.sleep(0.2)
    raise AssertionError(f"the pane titles never arrived; got {len(text)} characters: {text[-300:]!r}")


@dataclass
class Served:
    """A running ``reviewer serve``: its process, address and printed lines."""

    process: subprocess.Popen[str]
    url: str
    lines: list[str]

    @property
    def port(self) -> int:
        """The port it listens on."""
        return int(re.search(r":(\d+)/", self.url).group(1))  # type: ignore[union-attr]

    @property
    def token(self) -> str | None:
        """The token in the printed address, if any."""
        m = re.search(r"\?token=(\S+)", self.url)
        return m.group(1) if m else None


def serve_argv(folder: Path, *extra: str) -> list[str]:
    """The command line of ``reviewer serve`` with this Python."""
    return [sys.executable, "-m", "reviewer.cli", "serve", str(folder), "--port", "0", *extra]


@contextmanager
def serving(folder: Path, *extra: str, timeout: float = 30.0) -> Iterator[Served]:
    """Run ``reviewer serve`` until the block ends, then stop it (SIGTERM, then SIGKILL)."""
    proc = subprocess.Popen(serve_argv(folder, *extra), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            stdin=subprocess.DEVNULL, env=os.environ.copy())
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        url = ""
        while not url and time.monotonic() < deadline:
            if not sel.select(timeout=0.5):
                if proc.poll() is not None:
                    break
                continue
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            m = re.search(r"(http://\S+)", line)
            url = m.group(1) if m else ""
        if not url:
            raise AssertionError(f"reviewer serve printed no address: {lines}")
        sel.close()
        threading.Thread(target=drain, args=(proc.stdout, lines), daemon=True).start()
        yield Served(proc, url, lines)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def drain(stream: Any, lines: list[str]) -> None:
    """Keep reading the server's output so it never blocks on a full pipe."""
    for line in stream:
        lines.append(line.rstrip("\n"))


def local_url(served: Served) -> str:
    """The server's address on 127.0.0.1 (a wildcard bind prints the machine's name)."""
    return f"http://127.0.0.1:{served.port}/"
