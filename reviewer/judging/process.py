"""One call of a judge command: its argv run with one document on stdin, its answer read, bounded.

The command is the user's own, given as an argv list (``reviewer judge --command`` splits the
user's text with :func:`shlex.split`): no shell runs it, and nothing recorded ever becomes part of
it. Recorded text reaches the judge only as data, on its stdin.

Every way a judge can misbehave is contained here and comes back as a :class:`Reply` that says
what happened, never as a hang, a crash or unbounded memory:

- it runs in a session and process group of its own (``start_new_session``): the terminal's
  Ctrl-C never reaches it, and stopping it kills the whole group, helpers included;
- stdin is written as the judge reads it (a judge that never reads does not block the writer),
  stdout is read up to ``answer_cap`` bytes (past it the judge is stopped), stderr is drained as it
  comes and only its last ``stderr_keep`` bytes kept (a judge writing to stderr forever neither
  blocks on a full pipe nor fills memory);
- a wall-clock ``timeout`` and a ``cancelled`` check (polled at least every :data:`POLL` seconds)
  stop it: the group is killed with SIGKILL and reaped;
- when the judge itself has ended, anything it left behind in its group (a background helper
  holding its stdout open) gets :data:`GRACE` seconds to close the pipes and is then killed: the
  group is killed before the judge is reaped, so its id cannot have been reused; the call returns
  once the group is gone (waiting at most :data:`GONE_WAIT` seconds for the kernel to end it).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence

from reviewer.model.records import record

POLL = 0.1
"""Seconds between looks at the cancel check and the clock while a judge runs."""
GRACE = 0.5
"""Seconds the pipes get to close once the judge has exited (a helper it left may hold them)."""
GONE_WAIT = 2.0
"""Seconds a killed group gets to disappear before the call returns (a reaper that never reaps its
zombies would otherwise keep the call waiting)."""
CHUNK = 1 << 16
ANSWER_CAP = 1 << 20
STDERR_KEEP = 4 << 10


class JudgeUnavailable(OSError):
    """The judge command cannot be started at all (not found, not executable)."""


@record
class Reply:
    """What one judge call gave.

    Attributes:
        stdout: what the judge wrote on stdout (at most ``answer_cap`` + one chunk bytes).
        stderr_tail: the last bytes of its stderr, decoded (replacement characters for bad bytes).
        stderr_bytes: how many bytes it wrote to stderr in all.
        exit_status: its exit status, ``-N`` when signal N ended it; None when it was stopped.
        seconds: wall time from start to the end of the call.
        stopped: "" when it ended by itself, else why it was stopped: ``timeout``, ``cancelled``
            or ``answer-cap``.
        left_behind: the judge ended but its process group still held the pipes: killed.
    """

    stdout: bytes
    stderr_tail: str
    stderr_bytes: int
    exit_status: int | None
    seconds: float
    stopped: str = ""
    left_behind: bool = False

    def problem(self, timeout: float, answer_cap: int = ANSWER_CAP) -> str:
        """Why this call gave no usable answer ("" when the judge exited 0 by itself)."""
        if self.stopped == "timeout":
            why = f"the judge did not answer within {timeout:g} s: stopped"
        elif self.stopped == "cancelled":
            why = "cancelled"
        elif self.stopped == "answer-cap":
            why = f"the judge's answer passed {answer_cap >> 10} KiB: stopped"
        elif self.exit_status is not None and self.exit_status < 0:
            name = signal_name(-self.exit_status)
            why = f"the judge was ended by signal {-self.exit_status}{f' ({name})' if name else ''}"
        elif self.exit_status:
            why = f"the judge exited with status {self.exit_status}"
        else:
            return ""
        tail = self.stderr_tail.strip().splitlines()
        return why + (f"; its stderr ended: {tail[-1][-300:]}" if tail and self.stopped != "cancelled" else "")


def signal_name(number: int) -> str:
    """``SIGKILL`` for 9, "" for a number that names no signal."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return ""


def exited(pid: int) -> bool:
    """True when the process has ended (it is not reaped: its id stays taken until it is)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def kill_group(pid: int) -> None:
    """SIGKILL the judge's process group (it leads it); gone already is fine."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def group_gone(pid: int, seconds: float = GONE_WAIT) -> bool:
    """Wait (at most ``seconds``) until nothing is left of a killed process group; True when nothing is."""
    end = time.monotonic() + seconds
    while True:
        try:
            os.killpg(pid, 0)
        except (ProcessLookupError, PermissionError):
            return True
        if time.monotonic() > end:
            return False
        time.sleep(0.005)


def call_judge(
    argv: Sequence[str],
    document: bytes,
    *,
    timeout: float,
    cancelled: Callable[[], bool] = lambda: False,
    answer_cap: int = ANSWER_CAP,
    stderr_keep: int = STDERR_KEEP,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Reply:
    """Run the judge once with ``document`` on its stdin and read its answer (see the module).

    Raises :class:`JudgeUnavailable` when the command cannot be started.
    """
    started = time.monotonic()
    try:
        proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True, close_fds=True, cwd=cwd, env=None if env is None else dict(env))
    except OSError as exc:
        raise JudgeUnavailable(f"cannot start {argv[0]!r}: {exc.strerror or exc}") from None
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    out = bytearray()
    err = bytearray()
    err_total = 0
    stopped = ""
    left_behind = False
    pending = memoryview(document)
    sel = selectors.DefaultSelector()
    try:
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            os.set_blocking(pipe.fileno(), False)
        if pending:
            sel.register(proc.stdin, selectors.EVENT_WRITE)
        else:
            proc.stdin.close()
        sel.register(proc.stdout, selectors.EVENT_READ)
        sel.register(proc.stderr, selectors.EVENT_READ)
        deadline = started + timeout
        ended_at: float | None = None
        while sel.get_map():
            now = time.monotonic()
            if cancelled():
                stopped = "cancelled"
                break
            if now >= deadline:
                stopped = "timeout"
                break
            if ended_at is None and exited(proc.pid):
                ended_at = now
            if ended_at is not None and now - ended_at > GRACE:
                left_behind = True  # the judge is gone; something it left holds the pipes
                break
            for key, _ in sel.select(min(POLL, max(0.0, deadline - now))):
                if key.fileobj is proc.stdin:
                    try:
                        written = os.write(proc.stdin.fileno(), pending[:CHUNK])
                    except BlockingIOError:
                        continue
                    except (BrokenPipeError, OSError):
                        written = len(pending)  # the judge closed its stdin: it has read what it wants
                    pending = pending[written:]
                    if not pending:
                        sel.unregister(proc.stdin)
                        proc.stdin.close()
                    continue
                try:
                    chunk = os.read(key.fd, CHUNK)
                except BlockingIOError:
                    continue
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                if key.fileobj is proc.stdout:
                    out += chunk
                    if len(out) > answer_cap:
                        stopped = "answer-cap"
                        break
                else:
                    err_total += len(chunk)
                    err += chunk
                    if len(err) > 2 * stderr_keep:
                        del err[:-stderr_keep]
            if stopped:
                break
        while not stopped and not exited(proc.pid):  # the pipes closed but the judge still runs
            if cancelled():
                stopped = "cancelled"
            elif time.monotonic() >= deadline:
                stopped = "timeout"
            else:
                time.sleep(min(POLL / 5, max(0.0, deadline - time.monotonic())))
    finally:
        sel.close()
        kill_group(proc.pid)  # whatever the judge left in its group; the judge itself when stopped
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError):
                pipe.close()
        proc.wait()
        group_gone(proc.pid)
    status = None if stopped else proc.returncode
    tail = bytes(err[-stderr_keep:]).decode("utf-8", "replace")
    return Reply(bytes(out), tail, err_total, status, time.monotonic() - started, stopped, left_behind)
