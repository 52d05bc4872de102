"""Wrapping a display line to a width, the screen rows a wrapped text view is made of, finding text."""

from __future__ import annotations

import re
from typing import Iterable

from textual.content import Content

from reviewer.model.records import record


def fold(line: Content, width: int, hang: Content | None = None) -> list[Content]:
    """Wrap a line at ``width``; continuation rows keep the line's indent, or start with
    ``hang`` (a list item's spaces, a quote's bar) when it is given."""
    if len(line) <= width:
        return [line]
    if hang is not None and len(hang) <= width // 2:
        indent, pad = len(hang), hang
    else:
        plain = line.plain
        indent = min(len(plain) - len(plain.lstrip(" ")), width // 2)
        pad = Content(" " * indent)
    head, rest = line[:indent], line[indent:]
    parts = rest.wrap(max(1, width - indent)) or [rest]
    return [head + parts[0], *(pad + part for part in parts[1:])]


@record
class Row:
    """One screen row: which logical line it shows and the part of it (wrapped views)."""

    line: int
    content: Content


MAX_MATCHES = 100_000


def find_all(lines: Iterable[str], query: str) -> list[tuple[int, int]]:
    """(line, column) of every case-insensitive match of ``query``, at most :data:`MAX_MATCHES`."""
    pattern = re.compile(re.escape(query), re.IGNORECASE)
    found: list[tuple[int, int]] = []
    for index, plain in enumerate(lines):
        for match in pattern.finditer(plain):
            found.append((index, match.start()))
            if len(found) >= MAX_MATCHES:
                return found
    return found
