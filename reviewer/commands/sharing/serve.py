"""``reviewer serve [PATH] [--host 127.0.0.1] [--port 8000] [--token T]``: the app in a browser.

Through textual-serve (``pip install 'reviewer[serve]'``): every browser tab runs its own app
process, started exactly as ``reviewer PATH`` is in a terminal, so labels are written, committed
and re-scored as there. Unless ``--reviewer NAME`` is given, each tab first asks who is labelling
(the name the server would guess, its login or config.toml, is not the browser user's) and
labels as that name, for that tab only. It binds to loopback by default, and every request needs
a token, on loopback too (any local user can open a loopback port; the app writes files, makes
commits and can re-run recorded code in a sandbox as the user who started it): one generated
and printed at start in the address to open, or ``REVIEWER_SERVE_TOKEN`` from the environment,
or ``--token T`` (which every local user can read in the process list). SIGINT or SIGTERM
closes every tab, ends each app process (killed when it has not quit within a grace), and
exits 0 with one line. The guard itself is in :mod:`reviewer.commands.sharing.serve_web`.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import ipaddress
import os
import secrets
import shlex
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO
from urllib.parse import quote

from reviewer.model.sanitize import plain

INSTALL = "pip install 'reviewer[serve]'"
TOKEN_VARIABLE = "REVIEWER_SERVE_TOKEN"
MIN_TOKEN = 16
SIGNALS = (signal.SIGINT, signal.SIGTERM)


def is_loopback(host: str) -> bool:
    """``localhost`` or a loopback address (127.0.0.0/8, ::1)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def app_command(folder: Path, reviewer: str | None) -> str:
    """The shell command of one app process: this Python, the app, the folder (and --reviewer).

    The shell replaces itself with the app (``exec``): the process the server waits for, and
    kills when it does not quit, is the app itself."""
    words = [sys.executable, "-m", "reviewer.cli", str(folder.resolve())]
    if reviewer:
        words += ["--reviewer", reviewer]
    return "exec " + shlex.join(words)


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


def address(host: str, port: int, token: str) -> str:
    """The address to open, with its token (a wildcard bind is shown with this machine's name)."""
    shown = socket.gethostname() if host in ("0.0.0.0", "::", "") else host
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{port}/?token={quote(token, safe='')}"


class Stopped(Exception):
    """SIGINT or SIGTERM arrived before the server was listening for it in its event loop."""

    def __init__(self, signum: int) -> None:
        self.name = signal.Signals(signum).name
        super().__init__(self.name)


def stop_early(signum: int, frame: object) -> None:
    """Until the event loop takes the signals over: stop where the program is."""
    raise Stopped(signum)


async def run(server: object, sock: socket.socket, signals: tuple[signal.Signals, ...] = SIGNALS) -> tuple[str, int]:
    """Serve until one of ``signals`` arrives; then stop listening, close every tab and end its app
    process (:meth:`ReviewerServer.end_sessions`) before the event loop ends. Returns the signal's
    name and how many tabs were open."""
    from aiohttp import web

    stop = asyncio.Event()
    received: list[str] = []

    def stopping(sig: signal.Signals) -> None:
        received.append(sig.name)
        stop.set()

    loop = asyncio.get_running_loop()
    for sig in signals:
        loop.add_signal_handler(sig, stopping, sig)
    app = await server._make_app()  # type: ignore[attr-defined]
    runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=5.0)
    await runner.setup()
    site = web.SockSite(runner, sock)
    tabs = 0
    try:
        await site.start()
        await stop.wait()
        await site.stop()
        ending = getattr(server, "end_sessions", None)
        tabs = await ending() if ending is not None else 0
    finally:
        await runner.cleanup()
        for sig in signals:  # not given back to the default (a second signal would end the exit with no line)
            loop.remove_signal_handler(sig)
            signal.signal(sig, signal.SIG_IGN)
    return (received[0] if received else "a stop"), tabs


def errors_folder() -> Path:
    """Where the app processes' error output is kept: ``$XDG_CACHE_HOME/reviewer/serve-errors``
    (a traceback of Textual's lists locals, recorded text among them: the folder is the user's only)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "reviewer" / "serve-errors"


def chosen_token(given: str | None) -> tuple[str | None, str]:
    """The token to require and where it came from (``--token``, the environment, generated), or
    (None, why) when the one given is too short to resist guessing."""
    from_environment = os.environ.pop(TOKEN_VARIABLE, "")  # the app processes inherit the environment
    token, source = (given, "--token") if given else (from_environment, TOKEN_VARIABLE) if from_environment else (secrets.token_urlsafe(24), "generated")
    if len(token) < MIN_TOKEN:
        return None, f"the token of {source} has {len(token)} characters; it needs at least {MIN_TOKEN} (or give none: one is generated)"
    return token, source


def cmd_serve(args: argparse.Namespace) -> int:
    """reviewer serve (a signal the parent set to be ignored, as a shell does SIGINT for a
    background job, stays ignored)."""
    signals = tuple(sig for sig in SIGNALS if signal.getsignal(sig) is not signal.SIG_IGN)
    for sig in signals:
        signal.signal(sig, stop_early)
    try:
        return serve(args, signals)
    except Stopped as stopped:
        print(f"reviewer serve: stopped by {stopped.name} before it served", flush=True)
        return 0


def serve(args: argparse.Namespace, signals: tuple[signal.Signals, ...]) -> int:
    """reviewer serve, once ``signals`` stop it wherever it is."""
    try:
        from reviewer.commands.sharing.serve_web import PageScriptChanged, ReviewerServer
    except ImportError as exc:
        print(f"reviewer serve: needs textual-serve ({exc.name} is missing): {INSTALL}", file=sys.stderr)
        return 1
    from reviewer.commands.common import resolve_target

    folder, logs = resolve_target(args.path)
    if logs:
        print("reviewer serve: serves a sessions folder; to serve a harness log, put it in a session folder and name it "
              "in its session.toml ([log], see the sessions format)", file=sys.stderr)
        return 2
    token, source = chosen_token(args.token)
    if token is None:
        print(f"reviewer serve: {source}", file=sys.stderr)
        return 2
    try:
        sock = listen(args.host, args.port)
    except BindError as exc:
        print(plain(f"reviewer serve: {exc}"), file=sys.stderr)
        return 1
    port = sock.getsockname()[1]
    try:
        server = ReviewerServer(app_command(folder, args.reviewer), folder.name, token, is_loopback(args.host), args.host, port,
                                errors=errors_folder())
    except PageScriptChanged as exc:
        sock.close()
        print(f"reviewer serve: {exc}", file=sys.stderr)
        return 1
    sys.stdout = Sanitised(sys.stdout)
    print(plain(f"reviewer serve: {folder} at {address(args.host, port, token)}"), flush=True)
    if source == "--token":
        print("  (every request needs this token; given with --token it is readable by every local user in the process list: "
              f"{TOKEN_VARIABLE} in the environment is not)", flush=True)
    else:
        print("  (every request needs the token in this address, on loopback too; open it as printed)", flush=True)
    print("  each browser tab runs its own review session; Ctrl+C stops the server", flush=True)
    name, tabs = asyncio.run(run(server, sock, signals))
    closed = f"{tabs} review session{'s' * (tabs != 1)} closed" if tabs else "no review session was open"
    print(f"reviewer serve: stopped by {name}; {closed} (every label was saved as it was made)", flush=True)
    return 0


def register(sub: argparse._SubParsersAction, command_parser: Callable[..., argparse.ArgumentParser]) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add ``serve`` to the command line."""
    p = command_parser(
        sub, "serve",
        "the app in a browser (textual-serve): each tab its own review session, labels saved as in the terminal. "
        "Binds to loopback by default. Every request needs a token, on loopback too (any local user can reach a loopback port): "
        "one is generated and printed in the address to open (http://127.0.0.1:8000/?token=...), or taken from "
        f"{TOKEN_VARIABLE} or --token. URLs in recorded text stay plain text in the page: nothing opens a link. "
        "SIGINT or SIGTERM closes every tab and exits 0. "
        f"Needs: {INSTALL}",
        "textual-serve is missing (or not a version serve knows), or the address or port cannot be listened on",
    )
    p.add_argument("path", nargs="?", type=Path, help="sessions folder (default: ./sessions when it exists, else the bundled examples)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: loopback, still with a token)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 for any free port)")
    p.add_argument("--token", metavar="T", help=f"require this token (at least {MIN_TOKEN} characters) on every request instead of a generated one; "
                   f"readable by every local user in the process list: prefer {TOKEN_VARIABLE} in the environment "
                   "(default: a generated token, printed in the address)")
    p.add_argument("--reviewer", metavar="NAME", help="label as NAME in every tab (default: each tab asks who is labelling first, and keeps that name for the tab; nothing is saved in config.toml)")
    return {"serve": cmd_serve}
