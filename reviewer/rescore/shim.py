"""The program shim: runs the recorded program unchanged and re-expresses what it printed.

Standard library only, no reviewer imports: the re-score copies this file into the sandbox
(as ``reviewer_shim.py``, beside ``reviewer_transform.py``) and puts a small launcher where the
checker expects the program, the recorded program itself moved beside it under a hidden name.
The checker runs the launcher exactly as it would have run the program; the shim then

- runs the recorded program with the same interpreter (or directly, when it is not Python),
  the same arguments, and the stdin it inherited: it never reads the input itself;
- lifts the interpreter limits the repair names (``PYTHONINTMAXSTRDIGITS=0``; a higher
  recursion limit on a thread with a larger stack), for the program only;
- applies the text repairs to the program's stdout and writes the result; stderr passes
  through untouched, and the exit status (or the signal) is the program's.

When the configuration names an ``observe`` folder (the control run of a re-score), the shim
also writes one JSON note per run of the program there: its arguments, its standard input, its
standard output and error (each kept as head and tail when long), its exit status, how long it
ran, and the check that ran it when pytest says (``PYTEST_CURRENT_TEST``). Standard input and
error pass through as they come; the notes are made from copies.

It opens no file but its own configuration and its notes, and computes nothing about the problem.
"""

from __future__ import annotations

import json
import os
import runpy
import signal
import subprocess
import sys
import threading
import time
from typing import IO, Any

# 200,000 frames: a chain or tree far deeper than any oracle's input, in 73 MB; a program that
# recurses without end reaches it in half a second (at 1,000,000 it took 3.3 s and 310 MB a run).
RECURSION_LIMIT = 200_000
STACK_BYTES = 512 << 20
KEEP = {"stdin": (16 << 10, 4 << 10), "stdout": (64 << 10, 16 << 10), "stderr": (4 << 10, 16 << 10)}
"""Bytes of each stream a note keeps: (head, tail)."""
MAX_NOTES = 200
"""Runs noted in full; later ones are only counted (in the folder's ``dropped`` file)."""
CUT = b"\n[... cut ...]\n"


class Kept:
    """The head and tail of a stream as it passes, and whether anything between was left out."""

    def __init__(self, head: int, tail: int) -> None:
        self.head_cap, self.tail_cap = head, tail
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, data: bytes) -> None:
        """Note ``data``, the next bytes of the stream."""
        self.total += len(data)
        room = self.head_cap - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail += data
            if len(self.tail) > self.tail_cap:
                del self.tail[: len(self.tail) - self.tail_cap]

    @property
    def cut(self) -> bool:
        """True when bytes between the head and the tail were left out."""
        return self.total > len(self.head) + len(self.tail)

    def text(self) -> str:
        """What was kept, as text (undecodable bytes kept as escapes)."""
        raw = bytes(self.head) + (CUT if self.cut else b"") + bytes(self.tail)
        return raw.decode("utf-8", "backslashreplace")


def copy(source: IO[bytes], sink: IO[bytes] | None, kept: Kept, close_sink: bool) -> None:
    """Pass ``source`` on to ``sink`` as it comes, noting it; a closed sink ends the copy."""
    try:
        while True:
            data = os.read(source.fileno(), 1 << 16)
            if not data:
                break
            kept.add(data)
            if sink is not None:
                try:
                    sink.write(data)
                    sink.flush()
                except (BrokenPipeError, OSError, ValueError):
                    sink = None
    except (OSError, ValueError):
        pass
    finally:
        if close_sink and sink is not None:
            try:
                sink.close()
            except OSError:
                pass


def current_test() -> str:
    """The check that runs the program, as pytest names it in the environment ("" when none)."""
    value = os.environ.get("PYTEST_CURRENT_TEST", "")
    for phase in (" (call)", " (setup)", " (teardown)"):
        if value.endswith(phase):
            return value[: -len(phase)]
    return value


def write_note(folder: str, note: dict[str, Any]) -> None:
    """One run's note in ``folder`` (or only a count once :data:`MAX_NOTES` are there)."""
    try:
        os.makedirs(folder, exist_ok=True)
        if len([n for n in os.listdir(folder) if n.endswith(".json")]) >= MAX_NOTES:
            with open(os.path.join(folder, "dropped"), "ab") as fh:
                fh.write(b".")
            return
        name = os.path.join(folder, f"{time.monotonic_ns()}-{os.getpid()}.json")
        with open(name + ".part", "w", encoding="utf-8") as fh:
            json.dump(note, fh, ensure_ascii=True)
        os.replace(name + ".part", name)
    except OSError:
        pass


def config_path() -> str:
    """The shim's configuration, beside this file."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "config.json")


def load_config() -> dict[str, Any]:
    """``{"repairs": [[kind, [args]]...], "lifts": [limit...]}``."""
    with open(config_path(), encoding="utf-8") as fh:
        value = json.load(fh)
    return value if isinstance(value, dict) else {}


def program_argv(original: str, lifts: list[str]) -> list[str]:
    """How to start the recorded program."""
    if not original.endswith(".py"):
        return [original]
    if "recursion" in lifts:
        return [sys.executable, os.path.abspath(__file__), "--boot", original]
    return [sys.executable, original]


def exit_like(status: int) -> int:
    """Leave as the program left: its status, or killed by the same signal."""
    if status < 0:
        sig = -status
        sys.stdout.flush()
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        return 128 + sig
    return status


def main(launcher: str, original_name: str) -> int:
    """Run the recorded program found beside ``launcher`` as ``original_name``; returns its status."""
    import reviewer_transform  # copied beside this file in the sandbox

    original = os.path.join(os.path.dirname(os.path.abspath(launcher)), original_name)
    config = load_config()
    lifts = [str(x) for x in config.get("lifts", [])]
    observe = str(config.get("observe", ""))
    env = dict(os.environ)
    if "int-max-str-digits" in lifts:
        env["PYTHONINTMAXSTRDIGITS"] = "0"
    argv = program_argv(original, lifts) + sys.argv[1:]
    kept = {name: Kept(*caps) for name, caps in KEEP.items()}
    started = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    feeder = threading.Thread(target=copy, args=(sys.stdin.buffer, proc.stdin, kept["stdin"], True), daemon=True)
    errors = threading.Thread(target=copy, args=(proc.stderr, sys.stderr.buffer, kept["stderr"], False), daemon=True)
    feeder.start()
    errors.start()
    repairs = config.get("repairs", [])
    if not repairs:  # nothing to re-express: the output passes as it comes (a checker may converse with it)
        copy(proc.stdout, sys.stdout.buffer, kept["stdout"], False)
    else:
        chunks = []
        while True:
            data = os.read(proc.stdout.fileno(), 1 << 16)
            if not data:
                break
            chunks.append(data)
            kept["stdout"].add(data)
        text = b"".join(chunks).decode("utf-8", "surrogateescape")
        fixed = reviewer_transform.apply_repairs(text, repairs)
        sys.stdout.buffer.write(fixed.encode("utf-8", "surrogateescape"))
        sys.stdout.flush()
    status = proc.wait()
    errors.join()
    feeder.join(timeout=0.2)
    seconds = time.monotonic() - started
    if observe:
        write_note(observe, {
            "argv": list(sys.argv), "stdin": kept["stdin"].text(), "stdout": kept["stdout"].text(),
            "stderr": kept["stderr"].text(), "exit_status": status, "test": current_test(),
            "cut": [name for name, k in kept.items() if k.cut], "seconds": round(seconds, 4)})
    return exit_like(status)


def boot(original: str, args: list[str]) -> int:
    """Run a Python program as ``__main__`` with the recursion limit lifted (on a big-stack thread)."""
    sys.argv = [original, *args]
    sys.path[0] = os.path.dirname(os.path.abspath(original))
    sys.setrecursionlimit(RECURSION_LIMIT)
    threading.stack_size(STACK_BYTES)
    result: list[int] = [0]

    def run() -> None:
        try:
            runpy.run_path(original, run_name="__main__")
        except SystemExit as exc:
            code = exc.code
            result[0] = code if isinstance(code, int) else (0 if code is None else 1)
            if code is not None and not isinstance(code, int):
                print(code, file=sys.stderr)
        except BaseException:  # noqa: BLE001 - report as the interpreter would, then fail
            # The interpreter's own report (its last 1,000 frames): the traceback module walks
            # every frame of a 200,000-deep recursion in Python, 8 s where this takes 10 ms.
            sys.__excepthook__(*sys.exc_info())
            result[0] = 1

    thread = threading.Thread(target=run, name="MainThread-lifted")
    thread.start()
    thread.join()
    sys.stdout.flush()
    return result[0]


if __name__ == "__main__" and len(sys.argv) >= 3 and sys.argv[1] == "--boot":
    sys.exit(boot(sys.argv[2], sys.argv[3:]))
