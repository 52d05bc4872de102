"""Grader-output parsers: raw grader output text -> a list of :class:`~reviewer.model.check.Check`.

API:

- :data:`FORMATS`: the format names.
- :func:`detect_format` ``(text) -> str``: sniff the format; ``"fallback"`` when unsure.
- :func:`readable_output` ``(text, fmt=None) -> str | None``: the output as a person reads it when
  the recorded one is meant for machines (``go test -json``: the test output it carries); None
  when the recorded text is already that.
- :func:`parse_output` ``(text, fmt=None, *, exit_status=None) -> list[Check]``: parse with
  ``fmt`` (``None``/``"auto"`` or an unknown name: detect). Never raises: when a parser
  finds nothing, the fallback parser is used; when it refuses or fails (a JUnit DOCTYPE,
  malformed XML or JSON), the result is one failing ``unreadable grader output`` check
  (:mod:`.unreadable`), never a passing fallback. Keys in the result are unique (repeats get
  ``#2``, ``#3``). Terminal escapes are stripped first; messages hold the stripped text.

Key scheme per format:

- ``go-test-json`` / ``go-test-v`` (:mod:`.go_test`): the test name, ``TestA``, ``TestA/sub``
  (a parent failing only through a subtest is a check too, as Go reports it); qualified as
  ``<package>.<name>`` when the same name occurs in several packages of one output;
  ``build:<pkg>`` for a build or setup failure (``build`` for ``found packages`` or a GOPATH ``_/folder``);
  ``package:<pkg>`` for a package that failed without a failing test (panic in ``init``,
  timeout outside a test). Package summary lines (``FAIL pkg 0.1s``, ``ok pkg``) are not checks.
- ``pytest`` (:mod:`.pytest_text`, ``-rA`` output): the node id ``test_x.py::test_a[1-2]``;
  ``skip:<file>:<line>`` for ``SKIPPED [n] file:line: reason``; ``collect:<file>`` for a
  collection error.
- ``junit`` (:mod:`.junit`): ``<classname>::<name>``, or ``<name>`` without a classname.
- ``candidate`` (:mod:`.candidate`): ``test <i>`` and ``load``; ``<candidate name>/test <i>``
  when the document holds several candidates.
- ``golden`` (:mod:`.golden`): ``<case id>:<kind>`` (``<case id>:contains#2`` for a repeat).
- ``fallback`` (:mod:`.fallback`): one check ``run`` for the whole output: fail when
  ``exit_status`` is non-zero (or, without one, when the text looks like a failure), its message
  the last 20,000 characters.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from reviewer.model.check import OUTPUT_FORMATS, Check
from reviewer.parsers import candidate, fallback, go_test, golden, junit, pytest_text
from reviewer.parsers.text import clean, strip_ansi, unique_keys
from reviewer.parsers.unreadable import reason_of, unreadable

__all__ = ["FORMATS", "detect_format", "parse_output", "readable_output", "strip_ansi", "unreadable"]

FORMATS: tuple[str, ...] = OUTPUT_FORMATS

_PARSERS: dict[str, Callable[[str], list[Check]]] = {
    "go-test-json": go_test.parse_json,
    "go-test-v": go_test.parse_verbose,
    "pytest": pytest_text.parse,
    "junit": junit.parse,
    "candidate": candidate.parse,
    "golden": golden.parse,
}


def _detect_json(text: str) -> str | None:
    """The format of a text that is one JSON document, or None."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if golden.looks_like(value):
        return "golden"
    if candidate.looks_like(value):
        return "candidate"
    if isinstance(value, dict) and isinstance(value.get("Action"), str):
        return "go-test-json"
    if isinstance(value, list) and value and isinstance(value[0], dict):
        if "checks" in value[0]:
            return "golden"
        if "errors" in value[0] or "passed" in value[0]:
            return "candidate"
    return None


def _detect(text: str) -> str:
    stripped = text.lstrip("\ufeff \t\n")
    if stripped.startswith("<") and junit.looks_like(stripped):
        return "junit"
    if stripped.startswith(("{", "[")):
        found = _detect_json(stripped)
        if found:
            return found
    if go_test.is_json_stream(text):
        return "go-test-json"
    if pytest_text.looks_like(text):
        return "pytest"
    if go_test.is_verbose(text):
        return "go-test-v"
    return "fallback"


def detect_format(text: str) -> str:
    """Sniff the format of grader output; ``"fallback"`` when unsure. Never raises."""
    try:
        return _detect(clean(text))
    except Exception:  # noqa: BLE001 - sniffing must not fail
        return "fallback"


def readable_output(text: str, fmt: str | None = None) -> str | None:
    """The decoded test output of a ``go test -json`` stream (``fmt`` that format, or unnamed and the
    text one); None for any other output. Never raises."""
    try:
        if fmt == "go-test-json" or (fmt in (None, "", "auto") and go_test.is_json_stream(text)):
            return go_test.decode_json(text)
    except Exception:  # noqa: BLE001 - the raw output is still there to show
        return None
    return None


def _as_text(text: object) -> str:
    if isinstance(text, str):
        return text
    if isinstance(text, (bytes, bytearray)):
        return bytes(text).decode("utf-8", "replace")
    return "" if text is None else str(text)


def parse_output(text: str, fmt: str | None = None, *, exit_status: int | None = None) -> list[Check]:
    """Parse grader output into checks with unique keys; never raises.

    ``fmt`` is one of :data:`FORMATS`; ``None``, ``"auto"`` or an unknown name means detect.
    ``exit_status`` is the grader's exit status when known; only the fallback uses it.
    """
    body = ""
    try:
        raw = _as_text(text)
        body = clean(raw)
        name = fmt if fmt in FORMATS else _detect(body)
        parser = _PARSERS.get(name)
        if parser is not None:
            try:
                checks = parser(body)
            except Exception as exc:  # noqa: BLE001 - a refusal is a failing check, never a pass
                return [unreadable(reason_of(name, exc), body)]
            if checks:
                return unique_keys(checks)
        return fallback.parse_clean(body, exit_status)
    except Exception as exc:  # noqa: BLE001 - even the sniffing failed: still a failing check
        return [unreadable(reason_of("grader output", exc), body)]
