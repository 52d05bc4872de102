"""A TOML writer for normalised documents that gives the bytes of ``tomli_w``, fast.

``tomli_w`` escapes strings one character at a time in Python; for imports of thousands of
runs that was most of the import time. This is the same layout (tables, arrays of tables,
inline tables when they fit in 100 columns, arrays one item a line, the same escapes and
multi-line strings) with strings escaped by ``str.translate`` and keys checked by a regular
expression. Input: what :func:`reviewer.importers.tomlsafe.normalise` returns (str, bool,
int, float, list, dict with sorted string keys). The test suite holds the output equal to
``tomli_w.dumps`` on generated documents.
"""

from __future__ import annotations

import re
from typing import Any

MAX_LINE_LENGTH = 100
INDENT = "    "
BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
ILLEGAL = re.compile('[\x00-\x08\x0a-\x1f\x7f"\\\\]')
COMPACT = {"\b": "\\b", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}
ONE_LINE = {c: COMPACT.get(chr(c), f"\\u{c:04x}") for c in [*range(9), *range(10, 32), 0x7F, ord('"'), ord("\\")]}
MULTI_LINE = {**ONE_LINE, ord("\n"): "\n"}


def string(s: str, multiline: bool) -> str:
    """A basic string, multi-line when allowed and ``s`` holds a newline."""
    if multiline and "\n" in s:
        s = s.replace("\r\n", "\n")
        return '"""\n' + (s.translate(MULTI_LINE) if ILLEGAL.search(s) else s) + '"""'
    return '"' + (s.translate(ONE_LINE) if ILLEGAL.search(s) else s) + '"'


KEYS: dict[str, str] = {}


def key(part: str) -> str:
    """A key: bare when it can be, else quoted (the few keys documents repeat are remembered)."""
    done = KEYS.get(part)
    if done is None:
        done = part if BARE_KEY.fullmatch(part) else string(part, False)
        if len(KEYS) < 4096:
            KEYS[part] = done
    return done


class Emitter:
    """One document's rendering (inline tables are cached by identity, as tomli_w does)."""

    def __init__(self, multiline: bool) -> None:
        self.multiline = multiline
        self.inline: dict[int, str] = {}

    def literal(self, obj: Any, nest: int = 0) -> str:
        """A value on the right of ``=``."""
        kind = type(obj)
        if kind is str:
            return string(obj, self.multiline)
        if kind is bool:
            return "true" if obj else "false"
        if kind is int or kind is float:
            return str(obj)
        if kind is list:
            if not obj:
                return "[]"
            item = INDENT * (1 + nest)
            return "[\n" + ",\n".join(item + self.literal(v, nest + 1) for v in obj) + f",\n{INDENT * nest}]"
        return self.inline_table(obj)

    def inline_table(self, obj: dict[str, Any]) -> str:
        """``{ k = v, ... }``."""
        ident = id(obj)
        done = self.inline.get(ident)
        if done is None:
            done = "{ " + ", ".join(f"{key(k)} = {self.literal(v)}" for k, v in obj.items()) + " }" if obj else "{}"
            self.inline[ident] = done
        return done

    def fits_inline(self, obj: dict[str, Any]) -> bool:
        """tomli_w's rule: an array-of-tables item stays inline when it fits on one short line.

        A table whose keys and string values alone pass the limit, or with a multi-line
        string, cannot fit: that is decided without rendering it.
        """
        least = 0
        for k, v in obj.items():
            least += len(k) + 4
            if type(v) is str:
                if self.multiline and "\n" in v:
                    return False
                least += len(v)
        if least + len(INDENT) + 3 > MAX_LINE_LENGTH:
            return False
        rendered = self.inline_table(obj)
        return len(rendered) + len(INDENT) + 1 <= MAX_LINE_LENGTH and "\n" not in rendered

    def table(self, table: dict[str, Any], name: str, out: list[str], inside_aot: bool = False) -> None:
        """Append the chunks of one table (and its sub-tables) to ``out``."""
        literals = []
        tables: list[tuple[str, Any, bool]] = []
        for k, v in table.items():
            if type(v) is dict:
                tables.append((k, v, False))
            elif type(v) is list and v and all(type(t) is dict for t in v) and not all(self.fits_inline(t) for t in v):
                tables.extend((k, t, True) for t in v)
            else:
                literals.append((k, v))
        yielded = False
        if inside_aot or name and (literals or not tables):
            yielded = True
            out.append(f"[[{name}]]\n" if inside_aot else f"[{name}]\n")
        if literals:
            yielded = True
            for k, v in literals:
                out.append(f"{key(k)} = {self.literal(v)}\n")
        for k, v, in_aot in tables:
            if yielded:
                out.append("\n")
            else:
                yielded = True
            part = key(k)
            self.table(v, f"{name}.{part}" if name else part, out, in_aot)


def emit(doc: dict[str, Any], multiline: bool) -> str:
    """The TOML text of a normalised document."""
    out: list[str] = []
    Emitter(multiline).table(doc, "", out)
    return "".join(out)
