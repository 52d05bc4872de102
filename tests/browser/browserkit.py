"""Debian's chromium driven by Playwright, and ``reviewer serve`` run as a real process.

The browser is the system one (``/usr/bin/chromium``, installed by ``.ci/run``); Playwright's own
browser download is never used. The served app draws on a canvas, so the page's websocket is
wrapped before the page runs (:data:`SCREEN_HOOK`) to keep the text it received and the messages
it sent: the pane titles are read from what reached the browser's terminal, and where a text is
on the screen (to point the mouse at it) is found by replaying that output on a grid the size the
page told the app (:func:`screen_lines`, :func:`cell_of`).
"""

from __future__ import annotations

import http.server
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import unicodedata
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
STARTED = "Ctrl+C stops the server"
"""The last line ``reviewer serve`` prints when it starts."""
SCREEN_HOOK = """
(() => {
  const Native = window.WebSocket;
  const decoder = new TextDecoder();
  window.__screenText = "";
  window.__sent = [];
  const keep = (data) => {
    if (typeof data === "string") window.__screenText += data;
    else if (data instanceof ArrayBuffer) window.__screenText += decoder.decode(data, {stream: true});
    else if (data instanceof Blob) data.arrayBuffer().then((b) => { window.__screenText += decoder.decode(b, {stream: true}); });
  };
  window.WebSocket = function (url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    ws.addEventListener("message", (ev) => keep(ev.data));
    const send = ws.send.bind(ws);
    ws.send = (data) => { window.__sent.push(String(data)); send(data); };
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
"""
ESCAPES = re.compile(r"\x1b\[[0-9;?$]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
TERMINAL_OUTPUT = re.compile(
    r"\x1b\[([0-9;?<>=$ ]*)([@-~])"  # control sequence: parameters, final byte
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78c]"  # OSC, charset, other escapes
    r"|([\r\n\b])|([^\x1b\r\n\b]+)",
    re.S,
)


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


def terminal_size(page: Any) -> tuple[int, int]:
    """Columns and rows the page last told the app (its ``resize`` message)."""
    for message in reversed(page.evaluate("window.__sent || []")):
        if message.startswith('["resize"'):
            size = json.loads(message)[1]
            return int(size["width"]), int(size["height"])
    raise AssertionError("the page never told the app its size")


def screen_lines(output: str, columns: int, rows: int) -> list[str]:
    """The screen that terminal output draws on a grid (cursor moves, clears and text; styles ignored)."""
    grid = [[" "] * columns for _ in range(rows)]
    y = x = 0
    for m in TERMINAL_OUTPUT.finditer(output):
        params, final, control, text = m.groups()
        if final in ("H", "f"):
            parts = (params or "").split(";")
            y = int(parts[0]) - 1 if parts[0].isdigit() else 0
            x = int(parts[1]) - 1 if len(parts) > 1 and parts[1].isdigit() else 0
        elif final == "J" and params in ("2", "3"):
            grid = [[" "] * columns for _ in range(rows)]
        elif control == "\r":
            x = 0
        elif control == "\n":
            y += 1
        elif control == "\b":
            x = max(0, x - 1)
        elif text:
            for char in text:
                width = 0 if unicodedata.combining(char) else 2 if unicodedata.east_asian_width(char) in "WF" else 1
                if width and 0 <= y < rows and 0 <= x < columns:
                    grid[y][x] = char
                    if width == 2 and x + 1 < columns:
                        grid[y][x + 1] = ""
                x += width
    return ["".join(row) for row in grid]


def cell_of(page: Any, text: str) -> tuple[int, int] | None:
    """(column, row) of the first cell of ``text`` on the page's terminal now, or None."""
    columns, rows = terminal_size(page)
    for row, line in enumerate(screen_lines(page.evaluate("window.__screenText || ''"), columns, rows)):
        if text in line:
            return line.index(text), row
    return None


def point_at(page: Any, column: int, row: int) -> tuple[float, float]:
    """The page coordinates of the middle of a terminal cell."""
    columns, rows = terminal_size(page)
    box = page.locator(".xterm-screen").bounding_box()
    return box["x"] + (column + 0.5) * box["width"] / columns, box["y"] + (row + 0.5) * box["height"] / rows


def click_text(page: Any, text: str, timeout: float = 60.0, hover: float = 3.0) -> bool:
    """Wait for ``text`` on the terminal, move the mouse onto its middle and click there, as a
    person does; whether the terminal showed a link there first (xterm.js marks a hovered link
    with ``xterm-cursor-pointer``; waited for up to ``hover`` seconds, which only a link ends early)."""
    deadline = time.monotonic() + timeout
    while (cell := cell_of(page, text)) is None:
        if time.monotonic() > deadline:
            raise AssertionError(f"{text!r} never appeared on the screen")
        time.sleep(0.2)
    x, y = point_at(page, cell[0] + len(text) // 2, cell[1])
    page.mouse.move(x - 4, y)
    page.mouse.move(x, y, steps=4)
    try:
        page.wait_for_selector(".xterm-cursor-pointer", timeout=hover * 1000)
        link = True
    except Exception:  # noqa: BLE001 - playwright's TimeoutError: no link under the pointer
        link = False
    page.mouse.click(x, y)
    return link


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
    reader: threading.Thread

    def printed(self, timeout: float = 60.0) -> list[str]:
        """Every line it printed, once it has exited (waits for the end of its output)."""
        self.process.wait(timeout)
        self.reader.join(timeout)
        return self.lines

    @property
    def port(self) -> int:
        """The port it listens on."""
        return int(re.search(r":(\d+)/", self.url).group(1))  # type: ignore[union-attr]

    @property
    def token(self) -> str | None:
        """The token in the printed address, if any."""
        m = re.search(r"\?token=(\S+)", self.url)
        return m.group(1) if m else None

    @property
    def base(self) -> str:
        """The printed address without its token."""
        return self.url.split("?", 1)[0]


def serve_argv(folder: Path, *extra: str) -> list[str]:
    """The command line of ``reviewer serve`` with this Python."""
    return [sys.executable, "-m", "reviewer.cli", "serve", str(folder), "--port", "0", *extra]


@contextmanager
def serving(folder: Path, *extra: str, timeout: float = 30.0, env: dict[str, str] | None = None) -> Iterator[Served]:
    """Run ``reviewer serve`` until the block ends, then stop it (SIGTERM, then SIGKILL). The block
    starts once it has printed its start (its address, then the line saying how to stop it)."""
    with running(serve_argv(folder, *extra), timeout, env) as served:
        yield served


@contextmanager
def running(argv: list[str], timeout: float = 30.0, env: dict[str, str] | None = None, cwd: Path | None = None) -> Iterator[Served]:
    """:func:`serving` for any command that prints an address and then :data:`STARTED`."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})}, cwd=cwd)
    lines: list[str] = []
    started = threading.Event()
    reader = threading.Thread(target=drain, args=(proc.stdout, lines, started), daemon=True)
    reader.start()
    try:
        started.wait(timeout)
        url = next((m.group(1) for line in lines if (m := re.search(r"(http://\S+)", line))), "")
        if not url or not any(STARTED in line for line in lines):
            raise AssertionError(f"{argv[1:4]} printed no address: {lines}")
        yield Served(proc, url, lines, reader)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def drain(stream: Any, lines: list[str], started: threading.Event) -> None:
    """Keep reading the server's output so it never blocks on a full pipe; ``started`` is set once
    the last line of its start is read (or its output ends)."""
    for line in stream:
        lines.append(line.rstrip("\n"))
        if STARTED in line:
            started.set()
    started.set()


def local_url(served: Served) -> str:
    """The server's address on 127.0.0.1 (a wildcard bind prints the machine's name)."""
    return f"http://127.0.0.1:{served.port}/"


class Canary:
    """An HTTP server on 127.0.0.1 that records every request: a link that is followed reaches it."""

    def __init__(self) -> None:
        hits: list[str] = []
        self.hits = hits
        self.hit = threading.Event()
        hit = self.hit

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the http.server name
                hits.append(self.path)
                hit.set()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"a recorded link was followed\n")

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        """This canary's address for ``path``."""
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def __enter__(self) -> Canary:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def linked_folder(root: Path, url: str) -> Path:
    """A sessions folder whose one failing run names ``url`` as plain text in its brief, check
    message, grader output and transcript (a recorded run is hostile: its links must stay text)."""
    from sessionkit import RunSpec, write_session

    spec = RunSpec(
        "r1",
        brief=f"# Roman numerals\n\nWrite roman.go; the rules are at {url} (read them).\n",
        checks=[{"key": "TestToRoman", "status": "fail", "message": f"see {url}"}],
        output=f"--- FAIL: TestToRoman (0.00s)\n    details: {url}\nFAIL\n",
        turns=[{"role": "user", "text": f"Write roman.go, see {url}"}, {"role": "assistant", "text": "done", "attempt": 1}],
    )
    write_session(root, "links", [spec])
    return root


def followed(context: Any, page: Any, canary: Canary, url_before: str, pages_before: int, wait: float = 3.0) -> dict[str, Any]:
    """What a click just did: pages opened in the context since there were ``pages_before``,
    requests the canary saw, and whether the page left ``url_before``. A followed link is
    signalled (a canary request) and ends the wait early; that nothing was opened can only be
    seen by waiting ``wait`` seconds for it."""
    page.evaluate("0")  # the click's handlers have run in the page by the time this answers
    canary.hit.wait(wait)
    return {"new_pages": len(context.pages) - pages_before, "canary_requests": list(canary.hits), "left_page": page.url != url_before}


BEFORE_FIX = "REVIEWER_BEFORE_FIX_PYTHON"
"""Names a Python whose ``reviewer`` is the code before a fix: the attacks on ``serve``
(tests/reliability/attacks/f16, f17) then show the attack live on it."""
REFERENCE_SERVER = """
import asyncio, sys
from pathlib import Path
from textual_serve.server import Server
from reviewer.commands.sharing.serve import app_command, listen, run
sock = listen("127.0.0.1", 0)
port = sock.getsockname()[1]
server = Server(app_command(Path(sys.argv[1]), sys.argv[2]), host="127.0.0.1", port=port)
print(f"reference server at http://127.0.0.1:{port}/", flush=True)
print("Ctrl+C stops the server", flush=True)
asyncio.run(run(server, sock))
"""


def server_before_fix(root: Path, reviewer: str) -> tuple[list[str], str]:
    """The command of ``reviewer serve`` as it was before the serve fixes, on loopback with no
    token, and which one it is: the code :data:`BEFORE_FIX` names, or else the reference,
    textual-serve's own server and page on the same app command (the old guard checked, on
    loopback, only the ``Host`` name and an ``Origin`` when one was sent, and loaded the same
    page script)."""
    before = os.environ.get(BEFORE_FIX)
    if before:
        return [before, "-m", "reviewer.cli", "serve", str(root), "--port", "0", "--reviewer", reviewer], f"the code before the fix ({BEFORE_FIX})"
    return [sys.executable, "-c", REFERENCE_SERVER, str(root), reviewer], "the reference (textual-serve's own server and page)"


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return found
