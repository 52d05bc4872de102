"""``reviewer serve`` as a real process: loopback by default, a token elsewhere, refusals, a taken port."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from browserkit import local_url, serve_argv, serving

from reviewer.commands.serve import app_command, is_loopback
from reviewer.commands.serve_web import host_name

pytest.importorskip("textual_serve", reason="reviewer serve needs textual-serve (pip install '.[test]')")
aiohttp = pytest.importorskip("aiohttp")


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
    assert cmd.endswith(f"-m reviewer.cli '{folder.resolve()}' --reviewer 'Zoë $(id)'")


def test_loopback_serves_without_token_but_refuses_other_hosts_and_sites(folder: Path) -> None:
    with serving(folder) as served:
        assert served.url.startswith("http://127.0.0.1:") and served.token is None
        status, page, headers = get(served.url)
        assert status == 200 and "textual.js" in page and "googleapis" not in page
        assert "default-src 'self'" in page and headers["Cache-Control"] == "no-store"
        assert get(served.url + "static/js/textual.js")[0] == 200
        # DNS rebinding: a name that resolves to 127.0.0.1 but is not a loopback name
        status, body, _ = get(served.url, {"Host": f"attacker.example:{served.port}"})
        assert status == 403 and "loopback" in body
        ws = served.url.replace("http", "ws") + "ws"
        assert ws_status(ws, origin="https://attacker.example") == 403  # another site's page
        assert ws_status(ws, origin=served.url.rstrip("/")) == 101


def test_any_other_bind_requires_the_token(folder: Path) -> None:
    with serving(folder, "--host", "0.0.0.0") as served:
        token = served.token
        deadline = time.monotonic() + 10
        while not any("generated token" in line for line in served.lines) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert token and len(token) >= 24 and any("generated token" in line for line in served.lines), served.lines
        base = local_url(served)
        for path in ("", "?token=wrong", "static/js/textual.js", "download/anything", "ws"):
            status, body, _ = get(base + path)
            assert status == 403 and "needs its token" in body, path
        ws = base.replace("http", "ws") + "ws"
        assert ws_status(ws, origin=base.rstrip("/")) == 403
        assert ws_status(ws, headers={"Authorization": "Bearer nope"}) == 403
        status, _, headers = get(f"{base}?token={token}")
        assert status == 303 and headers["Location"] == "/"
        cookie = headers["Set-Cookie"]
        assert f"={token}" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
        jar = cookie.split(";")[0]
        assert get(base, {"Cookie": jar})[0] == 200
        assert get(base + "static/js/textual.js", {"Authorization": f"Bearer {token}"})[0] == 200
        assert ws_status(ws, origin=base.rstrip("/"), headers={"Cookie": jar}) == 101


def test_a_given_token_is_required_on_loopback_too(folder: Path) -> None:
    with serving(folder, "--token", "s3cret-token-for-this-test") as served:
        assert served.token == "s3cret-token-for-this-test"
        assert get(local_url(served))[0] == 403
        assert get(local_url(served), {"Authorization": "Bearer s3cret-token-for-this-test"})[0] == 200


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
