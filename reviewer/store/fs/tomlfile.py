"""TOML files: untrusted bytes parsed into a plain dict (a reason for every failure), and the one
writer of every TOML file the project writes.

Reading goes through ``tomli``; every way it can fail becomes :class:`BadToml` with a plain reason.

Writing: :func:`dumps` gives exactly the bytes of ``tomli_w.dumps`` (tables, arrays of tables,
inline tables when they fit in 100 columns, arrays one item a line, the same escapes, multi-line
strings when asked), byte for byte: a property test holds the two equal on generated documents.
``tomli_w`` escapes strings one character at a time in Python; here a string without a character
to escape is written as it is, and the others go through ``str.translate``, which is what made
imports of thousands of runs and exports of 200,000 labels affordable. Values: ``str``, ``bool``,
``int``, ``float``, ``list``/``tuple`` and ``dict`` with string keys (a document of this project
never holds dates or decimals); anything else is a ``TypeError``. Keys are written in the order
of the dicts: sort them before writing for byte-stable files and small git diffs.
"""

from __future__ import annotations

import re
from typing import Any

import tomli

CONFLICT = re.compile(rb"^(<{7}|={7}|>{7})( |$)", re.MULTILINE)


class BadToml(Exception):
    """The bytes are not a TOML document we can use; the message says why."""


def precheck(data: bytes) -> str:
    """The text of TOML bytes, or BadToml for what no TOML file may hold (NUL, conflict markers, bad UTF-8)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\x00" in data:
        raise BadToml("holds NUL bytes (binary or damaged file)")
    if (b"<<<<<<<" in data or b"=======" in data or b">>>>>>>" in data) and CONFLICT.search(data):
        raise BadToml("holds git conflict markers (<<<<<<< / >>>>>>>): resolve the merge first")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadToml(f"is not valid UTF-8 (byte {exc.start})") from None


def parse_toml_bytes(data: bytes) -> dict[str, Any]:
    """Parse TOML, turning every way it can fail into BadToml with a plain reason."""
    text = precheck(data)
    try:
        value = tomli.loads(text)
    except tomli.TOMLDecodeError as exc:
        raise BadToml(f"is not valid TOML: {exc}") from None
    except RecursionError:
        raise BadToml("is nested too deeply to read") from None
    except ValueError as exc:
        raise BadToml(f"holds a value that cannot be read: {str(exc)[:120]}") from None
    except MemoryError:
        raise BadToml("is too large to read") from None
    return value


# ---- writing ------------------------------------------------------------------------------------

MAX_LINE_LENGTH = 100
INDENT = "    "
BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
ILLEGAL = re.compile('[\x00-\x08\x0a-\x1f\x7f"\\\\]')
COMPACT = {"\b": "\\b", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}
ONE_LINE = {c: COMPACT.get(chr(c), f"\\u{c:04x}") for c in [*range(9), *range(10, 32), 0x7F, ord('"'), ord("\\")]}
MULTI_LINE = {**ONE_LINE, ord("\n"): "\n"}
KEYS: dict[str, str] = {}
"""Keys as written, for the few keys documents repeat (bounded)."""


def string(s: str, multiline: bool = False) -> str:
    """A basic string as ``tomli_w`` writes it: multi-line when allowed and ``s`` holds a newline."""
    if multiline and "\n" in s:
        s = s.replace("\r\n", "\n")
        return '"""\n' + (s.translate(MULTI_LINE) if ILLEGAL.search(s) else s) + '"""'
    return '"' + (s.translate(ONE_LINE) if ILLEGAL.search(s) else s) + '"'


def key(part: str) -> str:
    """A key: bare when it can be, else quoted."""
    done = KEYS.get(part)
    if done is None:
        if type(part) is not str:
            raise TypeError(f"a TOML key must be a string, not {type(part).__name__}")
        done = part if BARE_KEY.fullmatch(part) else string(part)
        if len(KEYS) < 4096:
            KEYS[part] = done
    return done


class Emitter:
    """One document's rendering (inline tables are remembered by identity, as ``tomli_w`` does)."""

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
        if kind is list or kind is tuple:
            if not obj:
                return "[]"
            item = INDENT * (1 + nest)
            return "[\n" + ",\n".join(item + self.literal(v, nest + 1) for v in obj) + f",\n{INDENT * nest}]"
        if kind is dict:
            return self.inline_table(obj)
        raise TypeError(f"Object of type '{kind.__qualname__}' is not TOML serializable")

    def inline_table(self, obj: dict[str, Any]) -> str:
        """``{ k = v, ... }``."""
        ident = id(obj)
        done = self.inline.get(ident)
        if done is None:
            done = "{ " + ", ".join(f"{key(k)} = {self.literal(v)}" for k, v in obj.items()) + " }" if obj else "{}"
            self.inline[ident] = done
        return done

    def fits_inline(self, obj: dict[str, Any]) -> bool:
        """``tomli_w``'s rule: an array-of-tables item stays inline when it fits on one short line.

        A table whose keys and string values alone pass the limit, or with a multi-line string,
        cannot fit: that is decided without rendering it.
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
            kind = type(v)
            if kind is dict:
                tables.append((k, v, False))
            elif (kind is list or kind is tuple) and v and all(type(t) is dict for t in v) and not all(
                    self.fits_inline(t) for t in v):
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


def dumps(doc: dict[str, Any], multiline: bool = False) -> str:
    """The TOML text of a document: ``tomli_w.dumps(doc, multiline_strings=multiline)``, byte for byte."""
    out: list[str] = []
    Emitter(multiline).table(doc, "", out)
    return "".join(out)
