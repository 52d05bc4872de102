"""The web side of ``reviewer serve``: textual-serve's app processes behind a guard.

Each websocket (each browser tab) gets its own app process, started with the same command line
as the terminal app (textual-serve's ``AppService``). In front of every route a guard refuses:

- without the token: every request, page, static file, download, websocket and unknown path
  alike, on loopback too (any local user can reach a loopback port; the app writes labels,
  makes commits and re-runs recorded code as the user who started the server). The token comes
  as ``?token=`` once (it is then kept in an HttpOnly, SameSite=Strict cookie and the address
  bar is cleaned by a redirect), as that cookie, or as ``Authorization: Bearer``. Compared in
  constant time.
- on a loopback bind, a ``Host`` that is not a loopback name (DNS rebinding: a web page whose
  name resolves to 127.0.0.1 would otherwise be same-origin with the app).
- a websocket whose ``Origin`` is another site (any page the reviewer visits may open a
  websocket to 127.0.0.1; browsers send no CORS check for websockets).

Links are never followed from the page. Recorded text is hostile and URLs in it are shown as
plain text: textual-serve's page script loads xterm.js's web-links addon, which turns any
``http(s)://`` text on the screen into a link that a click opens in a new tab; the script is
served here without that addon (:func:`inert_links_script`; the server does not start when the
script is not the one this was written for). Behind that, ``window.open`` is replaced by a
function that opens nothing before the script runs (xterm.js's OSC 8 links and textual-serve's
``open_url`` and download messages all go through it), the page is sent with a CSP ``sandbox``
that allows no popup and no dialog, and an app's ``open_url`` request is dropped here (the app
has no link of its own to open).

Each app process is the app itself (the shell execs it). Its output is read to the end even
after its tab is gone (an app blocked writing to a full pipe never sees the request to quit);
when its tab closes or the server stops it is asked to quit, killed after :data:`QUIT_GRACE`,
and reaped with its pipes closed before the event loop ends (a pipe left to the garbage
collector after that raised "Event loop is closed" on the way out). Its error output goes to a
file of its own, named in one line of the server's error output.

The page is our own: textual-serve's template fetches a web font from the network; this one
uses the fonts textual-serve ships, and a Content-Security-Policy that allows only this server.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import html
import json
import logging
import re
import secrets
import shlex
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from reviewer.model.sanitize import plain_line
from reviewer.model.wording import count

log = logging.getLogger("reviewer.serve")
MAX_SESSIONS = 16
QUIT_GRACE = 5.0
"""Seconds an app process has to quit when its tab closes or the server stops, before it is killed
(its labels are saved the moment they are made: nothing is lost by the kill)."""
CLOSE_WAIT = 2.0
"""Seconds a closing websocket waits for the browser's answer."""
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})
LINKS_ADDON = re.compile(r"this\.weblinksAddon=new [\w$]+\.WebLinksAddon,this\.terminal\.loadAddon\(this\.weblinksAddon\),")
"""Where textual-serve's page script (``static/js/textual.js``) loads xterm.js's web-links addon."""
POLICY = ("default-src 'self'; connect-src 'self' ws: wss:; script-src 'self' 'unsafe-inline'; "
          "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; base-uri 'none'; "
          "form-action 'none'; frame-ancestors 'none'")
SANDBOX = "sandbox allow-scripts allow-same-origin"
"""No ``allow-popups`` (nothing opens a new window or tab), no ``allow-modals`` (no dialog asks to
follow a link), no ``allow-top-navigation-*``, no ``allow-downloads``."""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="POLICY">
<title>reviewer · FOLDER</title>
<link rel="stylesheet" href="/static/css/xterm.css">
<style>
@font-face { font-family: "Roboto Mono"; src: url("/static/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype"); font-style: normal; }
@font-face { font-family: "Roboto Mono"; src: url("/static/fonts/RobotoMono-Italic-VariableFont_wght.ttf") format("truetype"); font-style: italic; }
html, body { margin: 0; height: 100%; background: #101010; color: #ececec; font-family: "Roboto Mono", monospace; }
#terminal { position: absolute; inset: 0; }
#closed { display: none; position: absolute; inset: 0; align-items: center; justify-content: center; flex-direction: column; background: #101010; z-index: 5; }
body.-closed #closed { display: flex; }
button { font: inherit; padding: .6rem 1.4rem; margin: 1rem; background: #0072b2; color: #fff; border: 0; cursor: pointer; }
</style>
<script>
// Nothing in this page opens a window or leaves it: links in recorded text stay text.
Object.defineProperty(window, "open", {value: function () { return null; }, writable: false, configurable: false});
document.addEventListener("DOMContentLoaded", () => {
  const t = document.getElementById("terminal");
  t.dataset.sessionWebsocketUrl = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
});
</script>
<script src="/static/js/textual.js"></script>
</head><body>
<div id="terminal" class="textual-terminal" data-font-size="FONTSIZE"></div>
<div id="closed"><div>The review session ended. Every label was saved as it was made.</div>
<button type="button" onclick="location.reload()">Start again</button></div>
</body></html>
""".replace("POLICY", POLICY)


class PageScriptChanged(Exception):
    """textual-serve's page script is not the one :func:`inert_links_script` knows how to make link-free."""


def inert_links_script(statics: Path) -> bytes:
    """textual-serve's page script without xterm.js's web-links addon (URLs on screen stay text).

    Raises:
        PageScriptChanged: the script does not load the addon exactly once the known way (another
            textual-serve): serving it unchanged would make recorded URLs clickable again.
    """
    script = (statics / "js" / "textual.js").read_text(encoding="utf-8")
    inert, found = LINKS_ADDON.subn("", script)
    if found != 1 or "WebLinksAddon,this.terminal.loadAddon" in inert:
        raise PageScriptChanged(
            "textual-serve's page script is not the one reviewer serve knows (it loads xterm.js's web-links addon "
            f"{count(found, 'time')} the known way): links in recorded text could be clicked open; install 'textual-serve>=1.1.3,<1.2'"
        )
    return inert.encode("utf-8")


def host_name(host_header: str) -> str:
    """The host of a ``Host`` header, without the port (``[::1]:8000`` → ``::1``)."""
    h = host_header.strip().lower()
    if h.startswith("["):
        return h[1:h.find("]")] if "]" in h else h
    return h.rsplit(":", 1)[0] if h.count(":") == 1 else h


class ReviewService(AppService):
    """One tab's app process: no ``open_url`` reaches the browser; its output is read to the end
    even once its tab is gone; it ends within a grace, always reaped."""

    _ending: asyncio.Task[None] | None = None
    _detached = False
    error_log: Path | None = None
    """Where the app's error output goes (the shell command redirects it), or None: relayed to the
    server's output as textual-serve does."""

    async def on_data(self, payload: bytes) -> None:
        """Forward the app's output to its tab while the tab is there, then drop it: an app whose
        output is no longer read blocks writing it and never sees the request to quit."""
        if self._detached:
            return
        try:
            await super().on_data(payload)
        except Exception:  # noqa: BLE001 - the websocket is closing or closed (aiohttp says so in several ways)
            self._detached = True

    async def on_meta(self, data: bytes) -> None:
        """Forward what textual-serve forwards, except a request to open a link (dropped, said once)."""
        try:
            kind = json.loads(data).get("type")
        except (ValueError, AttributeError):
            kind = None
        if kind == "open_url":
            log.warning("reviewer serve: a review session asked the browser to open a link; not opened")
            return
        await super().on_meta(data)

    async def end(self) -> None:
        """Tell the app to quit; kill it when it has not within :data:`QUIT_GRACE` seconds; return
        once its process is reaped and its output read to the end (nothing of it outlives the event
        loop). Both the tab's handler and the server's stop call it: the app is ended once."""
        if self._ending is None:
            self._ending = asyncio.ensure_future(self._end(QUIT_GRACE))
        await asyncio.shield(self._ending)

    async def _end(self, grace: float) -> None:
        process = self._process
        if process is None:
            return
        await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        if process.returncode is None:
            await self.send_meta({"type": "quit"})
            try:
                await asyncio.wait_for(asyncio.shield(process.wait()), grace)
            except TimeoutError:
                log.warning("reviewer serve: a review session did not quit within %.0f s; stopped it", grace)
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
        task, self._task = self._task, None
        if task is not None:
            done, _ = await asyncio.wait({task}, timeout=grace)
            if not done:  # a child of the app still holds its output open
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        transport = getattr(process, "_transport", None)  # its pipes, closed while the loop still runs
        if transport is not None and not transport.is_closing():
            transport.close()
            await asyncio.sleep(0)
        self.report_errors()

    def report_errors(self) -> None:
        """One line for an app that wrote error output (its last line, and where the rest is);
        an empty error log is removed."""
        log_file = self.error_log
        if log_file is None or not log_file.exists():
            return
        lines = [line for line in log_file.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()]
        if not lines:
            log_file.unlink(missing_ok=True)
            return
        last = plain_line(lines[-1].strip(" │╰╯─")).strip()[:200]
        log.warning("reviewer serve: a review session's app wrote error output (%s); all of it is in %s", last, log_file)


class ReviewerServer(Server):
    """textual-serve's server with the guard, our page, and a cap on app processes.

    Args:
        command: the shell command of one app process (quoted by the caller).
        folder: the sessions folder's name, for the page title.
        token: the token every request must carry.
        loopback: bound to a loopback address: then only loopback ``Host`` names are served.
        bind_host: the address bound to (also accepted as a ``Host``).
        errors: a folder for each app's error output (a file a tab, removed when empty; one line
            on the server's output says when there is some), or None to relay it as textual-serve does.

    Raises:
        PageScriptChanged: see :func:`inert_links_script`.
    """

    def __init__(self, command: str, folder: str, token: str, loopback: bool, bind_host: str, port: int,
                 errors: Path | None = None) -> None:
        super().__init__(command, host=bind_host, port=port, title=f"reviewer · {folder}")
        if not token:
            raise ValueError("reviewer serve always needs a token")
        self.folder = folder
        self.token = token
        self.loopback = loopback
        self.allowed_hosts = LOOPBACK_HOSTS | {bind_host.lower()}
        self.cookie = f"reviewer_token_{port}"
        self.script = inert_links_script(Path(self.statics_path))
        self.sessions: dict[web.WebSocketResponse, ReviewService | None] = {}
        self.errors = errors

    def refused(self, why: str, status: int = 403) -> web.Response:
        """A plain refusal that says what to do."""
        return web.Response(status=status, text=f"reviewer serve: refused: {why}\n", content_type="text/plain")

    def has_token(self, request: web.Request) -> bool:
        """The request carries the token (cookie, bearer header or query)."""
        auth = request.headers.get("Authorization", "")
        offered = [request.cookies.get(self.cookie, ""), request.query.get("token", ""),
                   auth[7:] if auth.lower().startswith("bearer ") else ""]
        return any(o and hmac.compare_digest(o.encode(), self.token.encode()) for o in offered)

    @web.middleware
    async def guard(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """Refuse what the module docstring lists; trade a ``?token=`` for the cookie."""
        if self.loopback and host_name(request.host) not in self.allowed_hosts:
            return self.refused("this server answers only to a loopback address such as 127.0.0.1")
        if not self.has_token(request):
            return self.refused("this server needs its token: open the address `reviewer serve` printed when it started")
        origin = request.headers.get("Origin")
        if request.path == "/ws" and origin is not None and origin not in (f"http://{request.host}", f"https://{request.host}"):
            return self.refused("a websocket from another site")
        if "token" in request.query and request.method == "GET" and request.path == "/":
            rest = request.url.query.copy()
            rest.popall("token")
            moved = web.HTTPSeeOther(str(request.url.relative().with_query(rest)))
            moved.set_cookie(self.cookie, self.token, httponly=True, samesite="Strict", path="/")
            return moved
        response = await handler(request)
        response.headers.setdefault("Cache-Control", "no-store")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    async def _make_app(self) -> web.Application:
        """The routes of textual-serve (page, websocket, downloads, static) behind the guard."""
        app = web.Application(middlewares=[self.guard])
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.get("/download/{key}", self.handle_download, name="download"),
            web.get("/favicon.ico", no_content),
            web.get("/static/js/textual.js", self.handle_script),
            web.static("/static", self.statics_path, show_index=False, name="static"),
        ])
        app.on_shutdown.append(self.close_sockets)
        return app

    async def handle_index(self, request: web.Request) -> web.Response:
        """Our page (no font or script from elsewhere; no popup, dialog or download allowed)."""
        size = request.query.get("fontsize", "16")
        page = PAGE.replace("FOLDER", html.escape(self.folder)).replace("FONTSIZE", size if size.isdigit() and len(size) < 3 else "16")
        response = web.Response(text=page, content_type="text/html")
        response.headers["Content-Security-Policy"] = f"{POLICY}; {SANDBOX}"
        return response

    async def handle_script(self, request: web.Request) -> web.Response:
        """textual-serve's page script without the web-links addon."""
        return web.Response(body=self.script, content_type="text/javascript", charset="utf-8")

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        """One app process per websocket, at most :data:`MAX_SESSIONS` at once."""
        if len(self.sessions) >= MAX_SESSIONS:
            return self.refused(f"{MAX_SESSIONS} review sessions are open already; close a tab", 503)
        websocket = web.WebSocketResponse(heartbeat=15, timeout=CLOSE_WAIT)
        service: ReviewService | None = None
        self.sessions[websocket] = None
        try:
            await websocket.prepare(request)
            async def close() -> None:
                await websocket.close()

            command, error_log = self.command, None
            if self.errors is not None:
                self.errors.mkdir(parents=True, exist_ok=True, mode=0o700)
                error_log = self.errors / f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(4)}.txt"
                command = f"{command} 2>{shlex.quote(str(error_log))}"
            service = ReviewService(command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                    close=close, download_manager=self.download_manager, debug=False)
            service.error_log = error_log
            self.sessions[websocket] = service
            await service.start(dimension(request, "width", 80), dimension(request, "height", 24))
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as exc:  # noqa: BLE001 - one tab's failure must not stop the server
            log.warning("reviewer serve: a review session ended with an error: %s", exc)
        finally:
            try:
                if service is not None:
                    await service.end()
            finally:
                self.sessions.pop(websocket, None)
        return websocket

    async def end_sessions(self) -> int:
        """Close every tab and end its app process (quit, or killed after :data:`QUIT_GRACE`);
        return how many there were, once every process is reaped."""
        open_now = list(self.sessions.items())
        # a websocket still in its handshake cannot be closed yet: its handler ends its app
        await asyncio.gather(*(websocket.close(code=1001, message=b"server shutting down") for websocket, _ in open_now),
                             return_exceptions=True)
        await asyncio.gather(*(service.end() for _, service in open_now if service is not None), return_exceptions=True)
        return len(open_now)

    async def close_sockets(self, app: web.Application) -> None:
        """On shutdown: close any tab still open, so each app process is told to quit."""
        await asyncio.gather(*(ws.close(code=1001, message=b"server shutting down") for ws in list(self.sessions)),
                             return_exceptions=True)


async def no_content(request: web.Request) -> web.Response:
    """Nothing (the page has no icon; answering spares the browser a 404)."""
    return web.Response(status=204)


def dimension(request: web.Request, name: str, default: int) -> int:
    """A terminal size from the query, within 10..1000 cells."""
    value: Any = request.query.get(name, "")
    return min(1000, max(10, int(value))) if str(value).isdigit() else default
