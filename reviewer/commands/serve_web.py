"""The web side of ``reviewer serve``: textual-serve's app processes behind a guard.

Each websocket (each browser tab) gets its own app process, started with the same command line
as the terminal app (textual-serve's ``AppService``). In front of every route a guard refuses:

- without the token (when there is one): every request, page, static file, download and
  websocket alike. The token comes as ``?token=`` once (it is then kept in an HttpOnly,
  SameSite=Strict cookie and the address bar is cleaned by a redirect), as that cookie, or as
  ``Authorization: Bearer``. Compared in constant time.
- on a loopback bind, a ``Host`` that is not a loopback name (DNS rebinding: a web page whose
  name resolves to 127.0.0.1 would otherwise be same-origin with the app).
- a websocket whose ``Origin`` is another site (any page the reviewer visits may open a
  websocket to 127.0.0.1; browsers send no CORS check for websockets).

The page is our own: textual-serve's template fetches a web font from the network; this one
uses the fonts textual-serve ships, and a Content-Security-Policy that allows only this server.
"""

from __future__ import annotations

import asyncio
import hmac
import html
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

log = logging.getLogger("reviewer.serve")
MAX_SESSIONS = 16
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; connect-src 'self' ws: wss:; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'">
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
"""


def host_name(host_header: str) -> str:
    """The host of a ``Host`` header, without the port (``[::1]:8000`` → ``::1``)."""
    h = host_header.strip().lower()
    if h.startswith("["):
        return h[1:h.find("]")] if "]" in h else h
    return h.rsplit(":", 1)[0] if h.count(":") == 1 else h


class ReviewerServer(Server):
    """textual-serve's server with the guard, our page, and a cap on app processes.

    Args:
        command: the shell command of one app process (quoted by the caller).
        folder: the sessions folder's name, for the page title.
        token: the token every request must carry, or None (loopback only).
        loopback: bound to a loopback address: then only loopback ``Host`` names are served.
        bind_host: the address bound to (also accepted as a ``Host``).
    """

    def __init__(self, command: str, folder: str, token: str | None, loopback: bool, bind_host: str, port: int) -> None:
        super().__init__(command, host=bind_host, port=port, title=f"reviewer · {folder}")
        self.folder = folder
        self.token = token
        self.loopback = loopback
        self.allowed_hosts = LOOPBACK_HOSTS | {bind_host.lower()}
        self.cookie = f"reviewer_token_{port}"
        self.sockets: set[web.WebSocketResponse] = set()

    def refused(self, why: str, status: int = 403) -> web.Response:
        """A plain refusal that says what to do."""
        return web.Response(status=status, text=f"reviewer serve: refused: {why}\n", content_type="text/plain")

    def has_token(self, request: web.Request) -> bool:
        """The request carries the token (cookie, bearer header or query)."""
        assert self.token is not None
        auth = request.headers.get("Authorization", "")
        offered = [request.cookies.get(self.cookie, ""), request.query.get("token", ""),
                   auth[7:] if auth.lower().startswith("bearer ") else ""]
        return any(o and hmac.compare_digest(o.encode(), self.token.encode()) for o in offered)

    @web.middleware
    async def guard(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """Refuse what the module docstring lists; trade a ``?token=`` for the cookie."""
        if self.loopback and host_name(request.host) not in self.allowed_hosts:
            return self.refused("this server answers only to a loopback address such as 127.0.0.1")
        if self.token is not None and not self.has_token(request):
            return self.refused("this server needs its token: open the address `reviewer serve` printed when it started")
        origin = request.headers.get("Origin")
        if request.path == "/ws" and origin is not None and origin not in (f"http://{request.host}", f"https://{request.host}"):
            return self.refused("a websocket from another site")
        if self.token is not None and "token" in request.query and request.method == "GET" and request.path == "/":
            moved = web.HTTPSeeOther("/")
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
            web.static("/static", self.statics_path, show_index=False, name="static"),
        ])
        app.on_shutdown.append(self.close_sockets)
        return app

    async def handle_index(self, request: web.Request) -> web.Response:
        """Our page (no font or script from elsewhere)."""
        size = request.query.get("fontsize", "16")
        page = PAGE.replace("FOLDER", html.escape(self.folder)).replace("FONTSIZE", size if size.isdigit() and len(size) < 3 else "16")
        return web.Response(text=page, content_type="text/html")

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        """One app process per websocket, at most :data:`MAX_SESSIONS` at once."""
        if len(self.sockets) >= MAX_SESSIONS:
            return self.refused(f"{MAX_SESSIONS} review sessions are open already; close a tab", 503)
        websocket = web.WebSocketResponse(heartbeat=15)
        service: AppService | None = None
        self.sockets.add(websocket)
        try:
            await websocket.prepare(request)
            async def close() -> None:
                await websocket.close()

            service = AppService(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                 close=close, download_manager=self.download_manager, debug=False)
            await service.start(dimension(request, "width", 80), dimension(request, "height", 24))
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as exc:  # noqa: BLE001 - one tab's failure must not stop the server
            log.warning("a review session ended with an error: %s", exc)
        finally:
            self.sockets.discard(websocket)
            if service is not None:
                await service.stop()
        return websocket

    async def close_sockets(self, app: web.Application) -> None:
        """On shutdown: close every tab's websocket, so each app process is told to quit."""
        for ws in list(self.sockets):
            await ws.close(code=1001, message=b"server shutting down")


async def no_content(request: web.Request) -> web.Response:
    """Nothing (the page has no icon; answering spares the browser a 404)."""
    return web.Response(status=204)


def dimension(request: web.Request, name: str, default: int) -> int:
    """A terminal size from the query, within 10..1000 cells."""
    value: Any = request.query.get(name, "")
    return min(1000, max(10, int(value))) if str(value).isdigit() else default
