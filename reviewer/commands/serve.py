"""``reviewer serve [PATH] [--host 127.0.0.1] [--port 8000] [--token T]``: the app in a browser.

Through textual-serve (``pip install 'reviewer[serve]'``): every browser tab runs its own app
process, started exactly as ``reviewer PATH`` is in a terminal, so labels are written, committed
and re-scored as there. Unless ``--reviewer NAME`` is given, each tab first asks who is labelling
(the name the server would guess, its login or config.toml, is not the browser user's) and
labels as that name, for that tab only. It binds to loopback by default. Any other address needs a token (the
app writes files, makes commits and can re-run recorded code in a sandbox): ``--token T``, or
one generated and printed at start; every request without it is refused. The guard itself is
in :mod:`reviewer.commands.serve_web`.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import ipaddress
import secrets
import shlex
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from reviewer.model.sanitize import plain

INSTALL = "pip install 'reviewer[serve]'"


def is_loopback(host: str) -> bool:
    """``localhost`` or a loopback address (127.0.0.0/8, ::1)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def app_command(folder: Path, reviewer: str | None) -> str:
    """The shell command of one app process: this Python, the app, the folder (and --reviewer)."""
    words = [sys.executable, "-m", "reviewer.cli", str(folder.resolve())]
    if reviewer:
        words += ["--reviewer", reviewer]
    return shlex.join(words)


class BindError(Exception):
    """The address cannot be listened on; the message says why and what to do."""


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: any free port)."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise BindError(f"{host}: unknown address ({exc.strerror})") from None
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise BindError(f"port {port} on {host} is already in use (another `reviewer serve`?): "
                            "choose another with --port, or --port 0 for any free one") from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise BindError(f"{host} is not an address of this machine") from None
        if exc.errno == errno.EACCES:
            raise BindError(f"no permission to listen on port {port} (ports below 1024 need root): choose another with --port") from None
        raise BindError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.setblocking(False)
    return sock


class Sanitised:
    """stdout of the server: app processes' error output passes through here, escapes removed."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` without escape sequences or control characters."""
        return self.stream.write(plain(text))

    def flush(self) -> None:
        """Flush the stream."""
        self.stream.flush()

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)


def address(host: str, port: int, token: str | None) -> str:
    """The address to open (a wildcard bind is shown with this machine's name)."""
    shown = socket.gethostname() if host in ("0.0.0.0", "::", "") else host
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


async def run(server: object, sock: socket.socket) -> None:
    """Serve until SIGINT or SIGTERM, then close every tab (each app process quits)."""
    from aiohttp import web

    app = await server._make_app()  # type: ignore[attr-defined]
    runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=5.0)
    await runner.setup()
    await web.SockSite(runner, sock).start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()


def cmd_serve(args: argparse.Namespace) -> int:
    """reviewer serve."""
    try:
        from reviewer.commands.serve_web import ReviewerServer
    except ImportError as exc:
        print(f"reviewer serve: needs textual-serve ({exc.name} is missing): {INSTALL}", file=sys.stderr)
        return 1
    from reviewer.commands.common import resolve_folder

    folder = resolve_folder(args.path)
    loopback = is_loopback(args.host)
    token = args.token or (None if loopback else secrets.token_urlsafe(24))
    try:
        sock = listen(args.host, args.port)
    except BindError as exc:
        print(plain(f"reviewer serve: {exc}"), file=sys.stderr)
        return 1
    port = sock.getsockname()[1]
    server = ReviewerServer(app_command(folder, args.reviewer), folder.name, token, loopback, args.host, port)
    sys.stdout = Sanitised(sys.stdout)
    print(plain(f"reviewer serve: {folder} at {address(args.host, port, token)}"), flush=True)
    if token and not args.token:
        print("  (not a loopback address: every request needs this generated token; --token T sets your own)", flush=True)
    print("  each browser tab runs its own review session; Ctrl+C stops the server", flush=True)
    try:
        asyncio.run(run(server, sock))
    except KeyboardInterrupt:
        pass
    return 0


def register(sub: argparse._SubParsersAction, command_parser: Callable[..., argparse.ArgumentParser]) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add ``serve`` to the command line."""
    p = command_parser(
        sub, "serve",
        "the app in a browser (textual-serve): each tab its own review session, labels saved as in the terminal. "
        "Binds to loopback by default; any other address needs a token (--token, or one generated and printed). "
        f"Needs: {INSTALL}",
        "textual-serve is missing, or the address or port cannot be listened on",
    )
    p.add_argument("path", nargs="?", type=Path, help="sessions folder (default: ./sessions when it exists, else the bundled examples)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; others need a token)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 for any free port)")
    p.add_argument("--token", metavar="T", help="require this token on every request (default: none on loopback, generated otherwise)")
    p.add_argument("--reviewer", metavar="NAME", help="label as NAME in every tab (default: each tab asks who is labelling first, and keeps that name for the tab; nothing is saved in config.toml)")
    return {"serve": cmd_serve}
