"""Writing a command's result so that a failure is never reported as success.

``reviewer export > FILE`` on a full disk used to exit 0 with a truncated file: Python's buffered
stdout reported the error only at exit, if at all. :func:`write_result` writes the bytes to
stdout's descriptor itself, checks every write and the final flush, and turns ENOSPC, EPIPE and
every other write error into one line for stderr; ``-o FILE`` goes through the atomic writer, so
on failure the old file is untouched.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

from reviewer.model.sanitize import plain_line


def describe(exc: OSError) -> str:
    """A write error in words."""
    if exc.errno == errno.EPIPE or isinstance(exc, BrokenPipeError):
        return "the output was closed before the export was complete (broken pipe)"
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    if exc.errno == errno.EDQUOT:
        return "disk quota exceeded"
    return exc.strerror or str(exc)


def write_stdout(data: bytes) -> None:
    """Write all of ``data`` to standard output, flushed; OSError when any of it was not written."""
    out = sys.stdout
    out.flush()
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):
        fd = -1
    if fd < 0:  # a replaced sys.stdout (tests): its buffer, flushed
        buffer = getattr(out, "buffer", None)
        if buffer is None:
            out.write(data.decode("utf-8"))
        else:
            buffer.write(data)
        out.flush()
        return
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's own flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass


def write_result(data: bytes, output: Path | None, command: str) -> int:
    """Write a command's result to ``output`` (atomically) or stdout; 0, or 1 after one line on stderr.

    ``-o FILE``: temp file, fsync, rename, so a failure leaves the old file as it was.
    """
    from reviewer.store.fs.atomic import atomic_write

    try:
        if output is not None:
            atomic_write(output, data)
        else:
            write_stdout(data)
    except OSError as exc:
        if output is None:
            quiet_stdout()
            where = "standard output"
        else:
            where = f"{output} (not written; the file that was there is untouched)"
        print(plain_line(f"{command}: could not write {where}: {describe(exc)}"), file=sys.stderr)
        return 1
    return 0
