"""The program's own code, read (never run) for what it would print or define.

When the output is missing (the program crashed, or the oracle shows none), the code still says
whether the program knew a demand: a print of ``mults=``, a ``"no"`` it writes, a ``def
percent_change``. Each answer is a place, ``file:line``, for the strip to point at. Every search
is a plain substring scan, bounded per file.
"""

from __future__ import annotations

import re

from reviewer.model.records import record

MAX_FILE = 500_000
MAX_HITS = 200
QUOTES = "\"'`"


@record
class CodeFile:
    """One file of the graded attempt: its path and text."""

    path: str
    text: str


def place(f: CodeFile, offset: int) -> str:
    """``path:line`` of an offset in a file."""
    return f"{f.path}:{f.text.count(chr(10), 0, offset) + 1}"


def in_string(text: str, offset: int) -> bool:
    """True when the offset sits inside a string literal of its line (an odd number of quote
    characters before it on the line; f-strings and Go format strings included)."""
    start = text.rfind("\n", 0, offset) + 1
    before = text[start:offset]
    return any(before.count(q) % 2 == 1 for q in QUOTES)


def prints_key(files: tuple[CodeFile, ...], key: str) -> str:
    """Where the code writes ``key=`` / ``key:`` / ``"key":`` inside a string ("" when nowhere)."""
    if not key:
        return ""
    for f in files:
        text = f.text[:MAX_FILE]
        i = text.find(key)
        hits = 0
        while i >= 0 and hits < MAX_HITS:
            hits += 1
            before = text[i - 1] if i else " "
            after = text[i + len(key) : i + len(key) + 3].lstrip(" ")
            if not (before.isalnum() or before in "_.-") and after[:1] in ("=", ":") and after[:2] != "==" and in_string(text, i):
                return place(f, i)
            if before in QUOTES and after[:1] == before and text[i + len(key) + 1 : i + len(key) + 3].lstrip()[:1] == ":":
                return place(f, i)
            i = text.find(key, i + 1)
    return ""


def writes_literal(files: tuple[CodeFile, ...], value: str) -> str:
    """Where the code holds ``value`` as a whole quoted string ("" when nowhere; values under
    two characters are too common to tell anything)."""
    if len(value.strip()) < 2 or "\n" in value:
        return ""
    for f in files:
        text = f.text[:MAX_FILE]
        for q in QUOTES:
            i = text.find(q + value + q)
            if i >= 0:
                return place(f, i)
    return ""


def defines(files: tuple[CodeFile, ...], symbol: str) -> str:
    """Where the code defines ``symbol`` (``def``, ``class``, ``func``, a top-level assignment)."""
    if not re.match(r"^[A-Za-z_]\w{0,100}$", symbol):
        return ""
    pattern = re.compile(
        r"(?m)^[ \t]{0,40}(?:(?:async[ \t]+)?def|class|func(?:[ \t]*\([^)\n]{0,200}\))?|type|var|const)[ \t]+"
        + re.escape(symbol) + r"\b|^" + re.escape(symbol) + r"[ \t]{0,8}="
    )
    for f in files:
        m = pattern.search(f.text[:MAX_FILE])
        if m:
            return place(f, m.start())
    return ""


def has_file(files: tuple[CodeFile, ...], name: str) -> str:
    """The saved path of a file with this base name ("" when the attempt has none)."""
    base = name.rstrip("/").rsplit("/", 1)[-1]
    for f in files:
        if f.path.rsplit("/", 1)[-1] == base:
            return f.path
    return ""


def holds_text(files: tuple[CodeFile, ...], text: str) -> str:
    """Where a string of the code holds ``text``, case ignored (a message a check looks for
    inside the program's error); "" when no string does."""
    want = text.lower()
    for f in files:
        body = f.text[:MAX_FILE]
        low = body.lower()
        i = low.find(want)
        hits = 0
        while i >= 0 and hits < MAX_HITS:
            hits += 1
            if in_string(body, i):
                return place(f, i)
            i = low.find(want, i + 1)
    return ""
