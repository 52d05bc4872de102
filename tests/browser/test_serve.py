"""``reviewer serve`` as a real process: a token always (loopback too), refusals, links never opened, a taken port, SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from browserkit import children, local_url, serve_argv, serving

textual_serve = pytest.importorskip("textual_serve", reason="reviewer serve needs textual-serve (pip install '.[test]')")
aiohttp = pytest.importorskip("aiohttp")

from reviewer.commands.sharing.serve import app_command, is_loopback  # noqa: E402
from reviewer.commands.sharing.serve_web import PageScriptChanged, host_name, inert_links_script  # noqa: E402


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str, dict[str, str]]:
    """Status, body and headers of a GET (redirects not followed)."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, headers=headers or {}), timeout=10) as r:
            return r.status, r.read().decode(), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), dict(e.headers)


def ws_status(url: str, origin: str | None = None, headers: dict[str, str] | None = None) -> int:
    """101 when the websocket opened (it is closed at once), else the refusal's status."""

    async def attempt() -> int:
        async with aiohttp.ClientSession() as s:
            try:
                async with s.ws_connect(url, origin=origin, headers=headers or {}):
                    return 101
            except aiohttp.WSServerHandshakeError as e:
                return e.status

    return asyncio.run(attempt())


def test_loopback_names_and_the_app_command(tmp_path: Path) -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "127.8.9.1", "::1", "[::1]", "localhost", "LOCALHOST"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "::", "10.0.0.1", "example.org", ""))
    assert [host_name(h) for h in ("127.0.0.1:8000", "[::1]:8000", "Localhost", "::1")] == ["127.0.0.1", "::1", "localhost", "::1"]
    folder = tmp_path / "a folder; rm -rf ~"
    cmd = app_command(folder, "Zoë $(id)")
    assert cmd.startswith("exec ")  # the process the server waits for (and kills) is the app itself
    assert cmd.endswith(f"-m reviewer.cli '{folder.resolve()}' --reviewer 'Zoë $(id)'")


def test_loopback_needs_the_token_and_refuses_other_hosts_and_sites(folder: Path) -> None:
    with serving(folder) as served:
        token = served.token
        assert served.base.startswith("http://127.0.0.1:") and token and len(token) >= 24
        assert any("every request needs the token in this address, on loopback too" in line for line in served.lines)
        base = served.base
        for path in ("", "?token=wrong", "static/js/textual.js", "static/css/xterm.css", "download/anything", "ws",
                     "favicon.ico", "no/such/path"):
            status, body, _ = get(base + path)
            assert status == 403 and "needs its token" in body, path
        ws = base.replace("http", "ws") + "ws"
        assert ws_status(ws) == 403  # a local client with no Origin (another user of this machine)
        assert ws_status(ws, origin=base.rstrip("/")) == 403
        assert ws_status(ws, headers={"Authorization": "Bearer nope-nope-nope-nope"}) == 403
        bearer = {"Authorization": f"Bearer {token}"}
        status, page, headers = get(base, bearer)
        assert status == 200 and "textual.js" in page and "googleapis" not in page
        assert "default-src 'self'" in page and headers["Cache-Control"] == "no-store"
        assert "sandbox allow-scripts allow-same-origin" in headers["Content-Security-Policy"]
        assert "allow-popups" not in headers["Content-Security-Policy"] and "allow-modals" not in headers["Content-Security-Policy"]
        status, script, _ = get(base + "static/js/textual.js", bearer)
        assert status == 200 and "Terminal" in script and "this.terminal.loadAddon(this.weblinksAddon)" not in script
        # DNS rebinding: a name that resolves to 127.0.0.1 but is not a loopback name (token or not)
        status, body, _ = get(base, {"Host": f"attacker.example:{served.port}", **bearer})
        assert status == 403 and "loopback" in body
        assert ws_status(ws + f"?token={token}", origin="https://attacker.example") == 403  # another site's page
        assert ws_status(ws + f"?token={token}") == 101
        status, _, headers = get(served.url)
        assert status == 303 and headers["Location"] == "/"
        cookie = headers["Set-Cookie"]
        assert f"={token}" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
        jar = {"Cookie": cookie.split(";")[0]}
        assert get(base, jar)[0] == 200
        assert ws_status(ws, origin=base.rstrip("/"), headers=jar) == 101
        status, _, headers = get(f"{base}?fontsize=20&token={token}")
        assert status == 303 and headers["Location"] == "/?fontsize=20"  # only the token leaves the address


def test_any_other_bind_requires_the_token(folder: Path) -> None:
    with serving(folder, "--host", "0.0.0.0") as served:
        token = served.token
        assert token and len(token) >= 24
        base = local_url(served)
        for path in ("", "?token=wrong", "static/js/textual.js", "download/anything", "ws"):
            status, body, _ = get(base + path)
            assert status == 403 and "needs its token" in body, path
        ws = base.replace("http", "ws") + "ws"
        assert ws_status(ws, origin=base.rstrip("/")) == 403
        status, _, headers = get(f"{base}?token={token}")
        assert status == 303 and headers["Location"] == "/"
        jar = headers["Set-Cookie"].split(";")[0]
        assert get(base, {"Cookie": jar})[0] == 200
        assert get(base + "static/js/textual.js", {"Authorization": f"Bearer {token}"})[0] == 200
        assert ws_status(ws, origin=base.rstrip("/"), headers={"Cookie": jar}) == 101


def test_a_given_token_is_required_and_a_short_one_refused(folder: Path) -> None:
    with serving(folder, "--token", "s3cret-token-for-this-test") as served:
        assert served.token == "s3cret-token-for-this-test"
        assert any("readable by every local user in the process list" in line for line in served.lines)
        assert get(local_url(served))[0] == 403
        assert get(local_url(served), {"Authorization": "Bearer s3cret-token-for-this-test"})[0] == 200
    argv = serve_argv(folder, "--token", "short")
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 2 and "at least 16" in done.stderr and "http://" not in done.stdout


def alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def open_tabs(url: str, count: int) -> tuple[aiohttp.ClientSession, list[aiohttp.ClientWebSocketResponse]]:
    """``count`` websockets (tabs) that have each received the app's first screen."""
    session = aiohttp.ClientSession()
    tabs = [await session.ws_connect(url) for _ in range(count)]
    for tab in tabs:
        seen = b""
        while b"Brief" not in seen:
            message = await asyncio.wait_for(tab.receive(), 60)
            assert message.type == aiohttp.WSMsgType.BINARY, message
            seen += message.data
    return session, tabs


def stop_with_tabs(folder: Path, tabs: int, stop_an_app: bool) -> tuple[int, list[str], list[int]]:
    """Serve, open ``tabs`` tabs (SIGSTOP one app process when asked), SIGTERM the server; its exit
    status, the lines it printed after the three of its start, and its app processes."""
    with serving(folder, "--reviewer", "carol") as served:
        url = served.base.replace("http", "ws") + f"ws?token={served.token}"

        async def scenario() -> list[int]:
            session, sockets = await open_tabs(url, tabs)
            apps = children(served.process.pid)
            assert len(apps) == tabs, apps
            if stop_an_app:
                os.kill(apps[0], signal.SIGSTOP)
            served.process.send_signal(signal.SIGTERM)
            await asyncio.to_thread(served.printed)
            for socket_ in sockets:
                await socket_.close()
            await session.close()
            return apps

        apps = asyncio.run(scenario())
    return served.process.returncode, served.lines[3:], apps


def test_sigterm_closes_every_tab_and_exits_with_one_line(folder: Path) -> None:
    status, lines, apps = stop_with_tabs(folder, 2, stop_an_app=False)
    assert status == 0
    assert lines == ["reviewer serve: stopped by SIGTERM; 2 review sessions closed (every label was saved as it was made)"]
    assert not any(alive(pid) for pid in apps)


def test_sigterm_kills_an_app_that_does_not_quit(folder: Path) -> None:
    status, lines, apps = stop_with_tabs(folder, 2, stop_an_app=True)
    assert status == 0, lines
    assert "reviewer serve: stopped by SIGTERM; 2 review sessions closed (every label was saved as it was made)" in lines
    assert all(line.startswith("reviewer serve: ") and "Traceback" not in line and "Error" not in line for line in lines), lines
    assert not any(alive(pid) for pid in apps)


def test_the_token_is_in_no_command_line_nor_an_app_environment(folder: Path) -> None:
    token = "from-the-environment-0123456789"
    with serving(folder, env={"REVIEWER_SERVE_TOKEN": token}) as served:
        assert served.token == token
        url = served.base.replace("http", "ws") + f"ws?token={token}"

        async def scenario() -> list[bytes]:
            session, sockets = await open_tabs(url, 1)
            # every local user can read a command line; an environment only its owner (the server's
            # own is the one it was started with, where the token was put)
            apps = children(served.process.pid)
            seen = [Path(f"/proc/{pid}/cmdline").read_bytes() for pid in [served.process.pid, *apps]]
            seen += [Path(f"/proc/{pid}/environ").read_bytes() for pid in apps]
            for socket_ in sockets:
                await socket_.close()
            await session.close()
            return seen

        seen = asyncio.run(scenario())
    assert len(seen) == 3 and not any(token.encode() in part for part in seen)


ASKS_TO_OPEN = """
from textual.app import App
from textual.widgets import Static

class Asks(App):
    def compose(self):
        yield Static("starting", id="said")

    def on_mount(self):
        self.open_url("http://127.0.0.1:9/asked")
        self.query_one("#said").update("ASKED-TO-OPEN")

Asks().run()
"""

CHATTY = """
from textual.app import App
from textual.widgets import Static

class Chatty(App):
    def compose(self):
        yield Static("CHATTY-STARTED", id="said")

    def on_mount(self):
        self.count = 0
        self.set_interval(0.01, self.tick)

    def tick(self):  # the whole screen again every 10 ms: output never stops
        self.count += 1
        self.query_one("#said").update(f"{self.count} " * 3000)

Chatty().run()
"""

FAILS = """
from textual.app import App

class Fails(App):
    def on_mount(self):
        self.call_after_refresh(self.fail)

    def fail(self):
        raise RuntimeError("the app failed \x1b[31mred\x1b[0m on purpose")

Fails().run()
"""

SERVER = """
import asyncio, sys
from pathlib import Path
from reviewer.commands.sharing.serve import listen, run
from reviewer.commands.sharing.serve_web import ReviewerServer
sock = listen("127.0.0.1", 0)
port = sock.getsockname()[1]
server = ReviewerServer(sys.argv[1], "t", sys.argv[2], True, "127.0.0.1", port, errors=Path(sys.argv[3]))
print(port, flush=True)
name, tabs = asyncio.run(run(server, sock))
print(f"stopped by {name}; {tabs} tab(s)", flush=True)
"""
TOKEN = "t" * 24


def serve_app(tmp_path: Path, source: str, until: bytes | None) -> tuple[list[str], str, str, Path]:
    """Serve a small Textual app of ``source`` (one tab) until the tab received ``until`` (None:
    until the server closed the tab), then SIGTERM the server: the tab's text messages, the
    server's output and error output, and its folder of error logs."""
    app = tmp_path / "app.py"
    app.write_text(source)
    errors = tmp_path / "errors"
    proc = subprocess.Popen([sys.executable, "-c", SERVER, f"exec {sys.executable} {app}", TOKEN, str(errors)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    texts: list[str] = []
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())

        async def tab() -> None:
            seen = b""
            async with aiohttp.ClientSession() as session:
                async with session.ws_connect(f"ws://127.0.0.1:{port}/ws?token={TOKEN}") as ws:
                    while until is None or until not in seen:
                        message = await asyncio.wait_for(ws.receive(), 60)
                        if until is None and message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                            break
                        if message.type == aiohttp.WSMsgType.TEXT:
                            texts.append(message.data)
                        elif message.type == aiohttp.WSMsgType.BINARY:
                            seen += message.data
                        else:
                            raise AssertionError(message)
                    proc.send_signal(signal.SIGTERM)  # with the tab open, its app busy
                    await asyncio.to_thread(proc.wait, 60)

        asyncio.run(tab())
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return texts, out, err, errors


def test_an_app_asking_to_open_a_link_reaches_no_browser(tmp_path: Path) -> None:
    # drawn after the app asked: an open_url would have reached the tab first
    texts, _, err, _ = serve_app(tmp_path, ASKS_TO_OPEN, b"ASKED-TO-OPEN")
    assert not any("open_url" in text or "asked" in text for text in texts), texts
    assert "asked the browser to open a link; not opened" in err


def test_an_app_whose_tab_is_gone_still_quits_by_itself(tmp_path: Path) -> None:
    # its output is still read once its websocket is closed: it is not blocked writing and sees the quit
    _, out, err, _ = serve_app(tmp_path, CHATTY, b"CHATTY-STARTED")
    assert out.splitlines()[-1] == "stopped by SIGTERM; 1 tab(s)"
    assert "did not quit" not in err and "Traceback" not in err + out, err


def test_an_app_error_output_is_kept_in_a_file_and_named_in_one_line(tmp_path: Path) -> None:
    _, out, err, errors = serve_app(tmp_path, FAILS, None)
    logs = list(errors.iterdir())
    assert len(logs) == 1 and "RuntimeError" in logs[0].read_text() and errors.stat().st_mode & 0o077 == 0
    [line] = [line for line in err.splitlines() if line.strip()]
    assert line.startswith("reviewer serve: a review session's app wrote error output (RuntimeError: the app failed ")
    assert line.endswith(f" on purpose); all of it is in {logs[0]}")
    assert "\x1b" not in err + out


def test_the_page_script_is_served_without_its_links_addon(tmp_path: Path) -> None:
    statics = Path(textual_serve.__file__).parent / "static"
    script = inert_links_script(statics).decode()
    assert "WebLinksAddon" in script  # the addon's code is there, never loaded
    assert "loadAddon(this.weblinksAddon)" not in script and "loadAddon(this.fitAddon)" in script
    changed = tmp_path / "static" / "js"
    changed.mkdir(parents=True)
    original = (statics / "js" / "textual.js").read_text()
    (changed / "textual.js").write_text(original.replace("this.weblinksAddon=new S.WebLinksAddon,", "this.weblinksAddon=new T.WebLinksAddon;"))
    with pytest.raises(PageScriptChanged, match="links in recorded text could be clicked open"):
        inert_links_script(tmp_path / "static")


def test_a_taken_port_is_a_clear_error(folder: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        argv = serve_argv(folder)[:-2] + ["--port", str(port)]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 1
    assert f"port {port} on 127.0.0.1 is already in use" in done.stderr and "--port 0" in done.stderr
    assert "Traceback" not in done.stderr


def test_missing_textual_serve_says_how_to_install(folder: Path) -> None:
    code = ("import sys; sys.modules['textual_serve'] = None; from reviewer.cli import main; "
            f"sys.exit(main(['serve', {str(folder)!r}, '--port', '0']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and "pip install 'reviewer[serve]'" in done.stderr
