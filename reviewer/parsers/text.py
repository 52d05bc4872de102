"""Small text helpers shared by the grader-output parsers.

Everything here runs in linear time: no regular expression with nested or overlapping
repetition, and the location finders search for a fixed anchor (``.go:``, ``.py:``) first and
then walk outwards, so a 10 MB line without newlines costs one pass.
"""

from __future__ import annotations

import re

from reviewer.model.check import Check, dedupe_keys

# CSI (ESC [ params intermediates final), OSC (ESC ] ... BEL or ESC \), other escapes (ESC,
# optional intermediates, one final byte: ESC ( B, ESC 7, ESC M ...) and the 8-bit CSI.
# The character classes of each form are disjoint, so matching never backtracks, and every
# repetition is bounded, so a match attempt looks at a bounded number of characters (a
# sequence longer than a real one is left partly in place rather than scanned to the end).
_ANSI = re.compile(
    r"\x1b\[[0-?]{0,64}[ -/]{0,8}[@-~]"
    r"|\x1b\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)"
    r"|\x1b[ -/]{0,8}[0-~]"
    r"|\x9b[0-?]{0,64}[ -/]{0,8}[@-~]"
)

MESSAGE_CAP = 20_000
"""How many characters of output the fallback check keeps (the tail)."""

KEY_PART_CAP = 200
"""How much of a name taken from the input (package, case id, candidate) goes into each key."""

_PATH_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./\\+@~")
_MAX_PATH = 1024


def strip_ansi(text: str) -> str:
    """Remove terminal escape sequences (SGR colours, cursor moves, OSC titles) from text."""
    if "\x1b" not in text and "\x9b" not in text:
        return text
    return _ANSI.sub("", text)


def normalize_newlines(text: str) -> str:
    """Turn CRLF and lone CR line ends into LF."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def clean(text: str) -> str:
    """The text parsers work on: escapes stripped, newlines normalised."""
    return normalize_newlines(strip_ansi(text))


def tail(text: str, limit: int = MESSAGE_CAP) -> str:
    """The last ``limit`` characters of text, with a note saying how much was cut."""
    if len(text) <= limit:
        return text
    cut = len(text) - limit
    return f"[... {cut} characters cut ...]\n" + text[cut:]


def head(text: str, limit: int = MESSAGE_CAP) -> str:
    """The first ``limit`` characters of text, with a note saying how much was cut."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit} characters cut ...]"


def key_part(text: str, cap: int = KEY_PART_CAP) -> str:
    """A name for use inside many keys, cut to ``cap`` characters (so keys stay small)."""
    return text if len(text) <= cap else text[:cap] + "..."


def _file_line_at(text: str, colon: int) -> str:
    """Given the index of the ':' after a file name, return ``file:line`` or ""."""
    end = colon + 1
    stop = min(len(text), end + 12)
    while end < stop and text[end].isdigit():
        end += 1
    if end == colon + 1:
        return ""
    start = colon
    floor = max(0, colon - _MAX_PATH)
    while start > floor and text[start - 1] in _PATH_CHARS:
        start -= 1
    path = text[start:colon]
    if path.startswith("./"):
        path = path[2:]
    name = path.rsplit("/", 1)[-1]
    if not name or name.startswith("."):
        return ""
    return f"{path}:{text[colon + 1:end]}"


def find_location(text: str, suffixes: tuple[str, ...], limit: int = 2_000_000) -> str:
    """The first ``file<suffix>:NN`` reference in text (searching at most ``limit`` chars).

    Suffixes are tried in order of preference: ``("_test.go", ".go")`` returns the first test
    file reference if there is one anywhere, else the first ``.go`` one.
    """
    text = text[:limit]
    for suffix in suffixes:
        anchor = suffix + ":"
        pos = text.find(anchor)
        while pos != -1:
            found = _file_line_at(text, pos + len(suffix))
            if found:
                return found
            pos = text.find(anchor, pos + 1)
    return ""


def unique_keys(checks: list[Check]) -> list[Check]:
    """``dedupe_keys``, then make sure no ``#n`` suffix collides with a key already there."""
    out = dedupe_keys(checks)
    keys = [c.key for c in out]
    if len(set(keys)) == len(keys):
        return out
    taken: set[str] = set()
    all_keys = set(keys)
    fixed: list[Check] = []
    for c in out:
        key = c.key
        if key in taken:
            n = 2
            while f"{c.key}#{n}" in taken or f"{c.key}#{n}" in all_keys:
                n += 1
            key = f"{c.key}#{n}"
            c = Check(key, c.name, c.status, c.message, c.location)
        taken.add(key)
        fixed.append(c)
    return fixed
