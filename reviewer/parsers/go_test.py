"""Parsers for ``go test -json`` and ``go test -v`` output.

``go test -json`` (cmd/test2json): one JSON event a line, ``{Time, Action, Package, Test,
Elapsed, Output}``. Test events (``run``, ``output``, ``pass``, ``fail``, ``skip``) build the
test checks; a test's message is its concatenated ``Output`` without the ``=== RUN`` /
``--- FAIL`` framing lines. A package ``fail`` without ``Test`` is only the summary when a test
of that package failed; otherwise it is a check of its own (see
:mod:`reviewer.parsers.go_common`). Plain text lines inside the stream (build errors before
Go 1.24) are valid input; ``build-output`` / ``build-fail`` events and ``FailedBuild`` (Go 1.24+)
are read; ``attr``, ``start``, ``pause``, ``cont``, ``bench`` and unknown actions or fields
(``OutputType``) are ignored.

``go test -v``: ``=== RUN``/``PAUSE``/``CONT``/``NAME`` lines say which test the following
output belongs to; ``--- FAIL: X (0.00s)`` (indented for subtests) gives the result of ``X``
and the more indented lines after it are also ``X``'s; ``FAIL\\tpkg\\t0.01s`` / ``ok  \\tpkg``
close a package (they are not checks); ``# pkg`` + compiler lines + ``FAIL\\tpkg [build failed]``
are a build failure; a ``panic:`` goes to the test that was running.
"""

from __future__ import annotations

import json
from typing import Any

from reviewer.model.check import Check, CheckStatus
from reviewer.parsers.go_common import FRAMING, GoRun, GoTest, normalize_pkg, package_fail_kind, split_result_line
from reviewer.parsers.text import clean, strip_ansi

_TEST_ACTIONS = {"pass": CheckStatus.PASS, "fail": CheckStatus.FAIL, "skip": CheckStatus.SKIP}
_MARKERS = ("=== ", "--- ")


def event(line: str) -> dict[str, Any] | None:
    """The test2json event on this line, or None for a plain line."""
    s = line.strip()
    if not (s.startswith("{") and s.endswith("}")):
        return None
    try:
        value = json.loads(s)
    except (ValueError, RecursionError):
        return None
    if isinstance(value, dict) and isinstance(value.get("Action"), str):
        return value
    return None


def _text(value: object) -> str:
    """A JSON field as text ("" when missing or not a string)."""
    return value if isinstance(value, str) else ""


def _json_message(t: GoTest) -> str:
    """A test's Output without framing lines, escapes stripped."""
    joined = clean("".join(t.chunks))
    return "\n".join(line for line in joined.split("\n") if not line.lstrip().startswith(FRAMING))


def _verbose_message(t: GoTest) -> str:
    """A test's lines as collected (framing lines were never added)."""
    return "".join(t.chunks)


def parse_json(text: str) -> list[Check]:
    """Checks from a ``go test -json`` stream (plain build lines allowed in between)."""
    run = GoRun()
    events = 0
    for line in text.split("\n"):
        ev = event(line)
        if ev is None:
            run.build_line(line)
            continue
        events += 1
        run.end_block()
        action = ev["Action"]
        pkg = _text(ev.get("Package"))
        test = _text(ev.get("Test"))
        output = _text(ev.get("Output"))
        if action == "build-output":
            key = normalize_pkg(_text(ev.get("ImportPath")))
            run.build_blocks.setdefault(key, []).append(strip_ansi(output).rstrip("\n"))
            run.block_seq.setdefault(key, run._next())
        elif action == "build-fail":
            key = normalize_pkg(_text(ev.get("ImportPath")))
            run.build_blocks.setdefault(key, [])
            run.block_seq.setdefault(key, run._next())
        elif test:
            t = run.test(pkg, test)
            if action == "output":
                t.chunks.append(output)
            elif action in _TEST_ACTIONS and t.status != CheckStatus.FAIL:  # -count=2: a fail sticks
                t.status = _TEST_ACTIONS[action]
        elif action == "output":
            p = run.package(pkg)
            p.chunks.append(strip_ansi(output))
            if "[build failed]" in output or "[setup failed]" in output:
                p.build = True
        elif action in ("pass", "fail", "skip"):
            p = run.package(pkg)
            p.finished = True
            p.failed = p.failed or action == "fail"
            failed_build = _text(ev.get("FailedBuild"))
            if failed_build:
                p.failed_build, p.build = failed_build, True
    if not events:  # no JSON at all: text output (a -json run that only failed to build is plain text)
        return parse_verbose(text)
    return run.checks(_json_message)


class _Verbose:
    """State of the ``go test -v`` reader between lines."""

    def __init__(self) -> None:
        self.run = GoRun()
        self.pending: dict[str, GoTest] = {}
        self.orphan: list[str] = []
        self.current: GoTest | None = None

    def test(self, name: str) -> GoTest:
        """The test record of the package being read, created on first sight."""
        t = self.pending.get(name)
        if t is None:
            t = self.pending[name] = GoTest(name, "", self.run._next())
        return t

    def finish_package(self, pkg: str, failed: bool, finished: bool = True) -> None:
        """A package summary line: the pending tests belong to ``pkg``."""
        p = self.run.package(pkg)
        p.finished = p.finished or finished
        p.failed = p.failed or failed
        p.chunks.extend(self.orphan)
        for name, t in self.pending.items():
            t.package = pkg
            old = self.run.tests.get((pkg, name))
            # The same package twice (``-count=2``): one check, failing if any run failed.
            if old is None or (t.status == CheckStatus.FAIL and old.status != CheckStatus.FAIL):
                self.run.tests[(pkg, name)] = t
        self.pending, self.orphan, self.current = {}, [], None

    def line(self, line: str) -> None:
        """Read one line."""
        if self.run.build_line(line, headers=self.current is None):
            return
        if line.startswith(_MARKERS) or line.lstrip().startswith("--- "):
            if line.startswith("=== "):
                parts = line[4:].split(None, 1)
                if len(parts) == 2 and parts[0] in ("RUN", "CONT", "NAME", "PAUSE"):
                    self.current = self.test(parts[1].strip())
                    return
            result = split_result_line(line.lstrip())
            if result is not None:
                status, name = result
                self.current = self.test(name)
                if self.current.status != CheckStatus.FAIL:  # -count=2: a fail sticks
                    self.current.status = status
                return
        summary = package_fail_kind(line)
        if summary is not None:
            self.finish_package(normalize_pkg(summary[0]), summary[1])
            return
        if line in ("FAIL", "PASS"):
            self.current = None
            return
        if self.current is not None:
            self.current.chunks.append(line + "\n")
        else:
            self.orphan.append(line + "\n")

    def end(self) -> None:
        """End of input: tests of a package without a summary line are in package ''."""
        if self.pending or any(s.strip() for s in self.orphan):
            crashed = any(s.startswith("panic: ") for s in self.orphan)
            self.finish_package("", crashed, finished=False)


def parse_verbose(text: str) -> list[Check]:
    """Checks from ``go test -v`` output."""
    reader = _Verbose()
    for line in text.split("\n"):
        reader.line(line)
    reader.end()
    return reader.run.checks(_verbose_message)


def is_json_stream(text: str, max_lines: int = 2000) -> bool:
    """True when one of the first lines is a test2json event."""
    for line in text.split("\n", max_lines)[:max_lines]:
        s = line.lstrip()
        if s.startswith("{") and '"Action"' in s and event(s) is not None:
            return True
    return False


def decode_json(text: str) -> str:
    """What ``go test`` would have printed without ``-json``: each event's ``Output`` in order.

    ``output`` and ``build-output`` events give their ``Output``; plain lines inside the stream
    (build errors before Go 1.24) are kept as they are; other events print nothing. Linear in
    the text (one bounded ``json.loads`` per line).
    """
    out: list[str] = []
    for line in text.split("\n"):
        ev = event(line)
        if ev is None:
            if line.strip():
                out.append(line + "\n")
            continue
        if ev["Action"] in ("output", "build-output"):
            out.append(_text(ev.get("Output")))
    return "".join(out)


def is_verbose(text: str, max_lines: int = 5000) -> bool:
    """True when the first or last lines look like ``go test`` text output."""
    lines = text.split("\n", max_lines)[:max_lines]
    if len(lines) == max_lines:
        lines += text.rsplit("\n", max_lines)[1:]
    for line in lines:
        s = line.lstrip()
        if s.startswith(("=== RUN ", "--- FAIL: ", "--- PASS: ", "--- SKIP: ", "found packages ")):
            return True
        if build_or_summary(line):
            return True
    return False


def build_or_summary(line: str) -> bool:
    """``FAIL\\tpkg [build failed]``, ``ok  \\tpkg\\t0.1s``, ``FAIL\\tpkg\\t0.1s`` lines."""
    if line.startswith("FAIL") and ("[build failed]" in line or "[setup failed]" in line):
        return True
    if line.startswith(("ok  \t", "FAIL\t")) and line.count("\t") >= 1:
        return True
    return line.startswith("?   \t") and "[no test files]" in line
