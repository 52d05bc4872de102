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

It opens no file but its own configuration and computes nothing about the problem.
"""

from __future__ import annotations

import json
import os
import runpy
import signal
import subprocess
import sys
import threading
from typing import Any

# 200,000 frames: a chain or tree far deeper than any oracle's input, in 73 MB; a program that
# recurses without end reaches it in half a second (at 1,000,000 it took 3.3 s and 310 MB a run).
RECURSION_LIMIT = 200_000
STACK_BYTES = 512 << 20


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
    env = dict(os.environ)
    if "int-max-str-digits" in lifts:
        env["PYTHONINTMAXSTRDIGITS"] = "0"
    proc = subprocess.run(program_argv(original, lifts) + sys.argv[1:], check=False, stdout=subprocess.PIPE, env=env)
    text = proc.stdout.decode("utf-8", "surrogateescape")
    fixed = reviewer_transform.apply_repairs(text, config.get("repairs", []))
    sys.stdout.buffer.write(fixed.encode("utf-8", "surrogateescape"))
    sys.stdout.flush()
    return exit_like(proc.returncode)


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
