"""Parsing a JSON object within a memory budget, whatever the document holds.

``json.loads`` turns three bytes of ``{},`` into a 64-byte dict: a 250 MiB entry of them
needs gigabytes. :func:`read_object` first counts the structural bytes (``{``, ``[``, ``,``,
at C speed) to bound how many values the document can hold. Within the budget it is one
``json.loads`` (the normal case); past it the object is walked member by member: values that
fit the remaining budget are parsed by ``json.loads`` on their own bytes, larger containers
are walked in turn, and what does not fit (array items past a cap, object members past a cap,
the tail of a long string, everything once the budget is spent) is left out with a note.

Finding where a value ends without building it is done a window at a time with regular
expressions and ``bytes`` methods, never a Python loop per byte (windows grow from 512 bytes,
so a small value costs little): strings are removed, the
brackets left are reduced by deleting ``[]``/``{}`` pairs, and what remains (closing brackets
then opening ones) says whether the value can end inside the window. Only the window where
it ends is walked token by token. Either way the caps of :class:`Caps` apply to the named
members of the top object (a sample's ``messages`` and ``events``).
"""

from __future__ import annotations

import json
import re
from dataclasses import field
from typing import Any

from reviewer.model.records import record
from reviewer.store.logs.spec import NotFormat

WINDOW = 256 << 10
MAX_REDUCE = 64
MAX_WALK_DEPTH = 8
SEGMENT = re.compile(rb'(?:[^"\\]++|"(?:[^"\\]++|\\.)*+")*+', re.DOTALL)
STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
TOKEN = re.compile(rb'"(?:[^"\\]++|\\.)*+"|[\[\]{},]', re.DOTALL)
SCALAR = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null")
SPACE = re.compile(rb"[ \t\r\n]*")
NOT_STRUCTURE = bytes(set(range(256)) - set(b"[]{},"))


@record(frozen=False, slots=False)
class Caps:
    """What one document may cost.

    Attributes:
        fast_values, fast_bytes: up to these (values counted from its structure, bytes), the
            whole document is one ``json.loads``.
        values, bytes: what a walked document keeps at most.
        items: items kept per array and members per object when walking.
        members: caps for named members of the top object (e.g. ``{"messages": 5000}``),
            applied in both cases.
        string: longest string kept when walking (bytes of JSON text).
    """

    fast_values: int = 2_000_000
    fast_bytes: int = 96 << 20
    values: int = 1_000_000
    bytes: int = 64 << 20
    items: int = 10_000
    members: dict[str, int] = field(default_factory=dict)
    string: int = 16 << 20


def estimate(data: bytes | bytearray) -> int:
    """An upper bound on the values of a JSON text (commas and openings, strings included)."""
    return data.count(b",") + data.count(b"{") + data.count(b"[") + 1


def read_object(data: bytes | bytearray, what: str, caps: Caps) -> tuple[dict[str, Any], list[str]]:
    """The JSON object in ``data`` within ``caps``; (object, notes on what was left out).

    NotFormat when it is not a JSON object or not valid JSON (in the parts that are read).
    """
    start = SPACE.match(data, 3 if data[:3] == b"\xef\xbb\xbf" else 0).end()  # type: ignore[union-attr]
    if data[start : start + 1] != b"{":
        raise NotFormat(f"{what} is not a JSON object")
    notes: list[str] = []
    if len(data) <= caps.fast_bytes and estimate(data) <= caps.fast_values:
        doc = loads(data, what)
        if not isinstance(doc, dict):
            raise NotFormat(f"{what} is not a JSON object")
        for key, cap in caps.members.items():
            value = doc.get(key)
            if isinstance(value, list) and len(value) > cap:
                notes.append(f"{key}: the first {cap:,} of {len(value):,} kept")
                doc[key] = value[:cap]
        return doc, notes
    walker = Walker(data, what, caps, notes)
    doc, _end = walker.object(start, 0, top=True)
    notes.insert(0, f"{what} is {len(data) / 2**20:,.1f} MiB of JSON holding up to {estimate(data):,} values: read within the import's budget")
    return doc, notes


def loads(data: bytes | bytearray | memoryview, what: str) -> Any:
    """``json.loads`` with every failure a NotFormat."""
    try:
        return json.loads(bytes(data) if isinstance(data, memoryview) else data)
    except RecursionError:
        raise NotFormat(f"{what} is nested too deeply to read") from None
    except UnicodeDecodeError as exc:
        raise NotFormat(f"{what} is not UTF-8 text (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise NotFormat(f"{what} is not valid JSON: {exc.msg}") from None
    except ValueError as exc:
        raise NotFormat(f"{what} holds a value that cannot be read: {str(exc)[:100]}") from None


def bad(what: str, pos: int, why: str) -> NotFormat:
    """The error for broken JSON at ``pos``."""
    return NotFormat(f"{what} is not valid JSON near byte {pos:,}: {why}")


def reduce(brackets: bytes | bytearray, what: str, pos: int) -> bytes | bytearray:
    """``brackets`` with every matched pair removed (at most MAX_REDUCE levels)."""
    for _ in range(MAX_REDUCE):
        shorter = brackets.replace(b"[]", b"").replace(b"{}", b"")
        if len(shorter) == len(brackets):
            return brackets
        brackets = shorter
    raise NotFormat(f"{what} is nested more than {MAX_REDUCE} levels deep near byte {pos:,}: too deep to import")


def container_end(data: bytes | bytearray, pos: int, what: str) -> tuple[int, int]:
    """(end, values) of the array or object opening at ``pos``, without building it."""
    depth, values, here, n = 1, 1, pos + 1, len(data)
    window = 512
    while here < n:
        stop = min(here + window, n)
        window = min(window * 4, WINDOW)
        plain = data.find(b'"', here, stop) < 0 and data.find(b"\\", here, stop) < 0
        end = stop if plain else SEGMENT.match(data, here, stop).end()  # type: ignore[union-attr]
        if end == here:
            if data[here] != 0x22:
                raise bad(what, here, "a backslash outside a string")
            m = STRING.match(data, here)
            if m is None:
                raise bad(what, here, "a string that never ends")
            here = m.end()
            continue
        chunk = (data[here:end] if plain else STRING.sub(b"", data[here:end])).translate(None, NOT_STRUCTURE)
        brackets = chunk.translate(None, b",")
        residue = reduce(brackets, what, here)
        leading = len(residue) - len(residue.lstrip(b"]}"))
        if depth - leading > 0:
            opens = brackets.count(b"[") + brackets.count(b"{")
            depth += 2 * opens - len(brackets)
            values += len(chunk) - len(brackets) + opens
            here = end
            continue
        for m in TOKEN.finditer(data, here, end):
            tok = data[m.start()]
            if tok in b"[{":
                depth += 1
                values += 1
            elif tok in b"]}":
                depth -= 1
                if depth == 0:
                    return m.end(), values
            elif tok == 0x2C:
                values += 1
        raise bad(what, here, "brackets that do not match")
    raise bad(what, pos, "cut short")


class Walker:
    """Walks one over-budget document, keeping what the budget allows."""

    def __init__(self, data: bytes | bytearray, what: str, caps: Caps, notes: list[str]) -> None:
        self.data = data
        self.what = what
        self.caps = caps
        self.notes = notes
        self.values = caps.values
        self.bytes = caps.bytes

    def space(self, pos: int) -> int:
        """``pos`` past any whitespace."""
        return SPACE.match(self.data, pos).end()  # type: ignore[union-attr]

    def expect(self, pos: int, char: bytes) -> int:
        """``pos`` past ``char`` (and whitespace before it)."""
        pos = self.space(pos)
        if self.data[pos : pos + 1] != char:
            raise bad(self.what, pos, f"expected {char.decode()!r}")
        return pos + 1

    def end_of(self, pos: int) -> tuple[int, int]:
        """(end, values) of the value at ``pos``."""
        c = self.data[pos : pos + 1]
        if c == b'"':
            m = STRING.match(self.data, pos)
            if m is None:
                raise bad(self.what, pos, "a string that never ends")
            return m.end(), 1
        if c in (b"[", b"{"):
            return container_end(self.data, pos, self.what)
        m = SCALAR.match(self.data, pos)
        if m is None:
            raise bad(self.what, pos, "not a value")
        return m.end(), 1

    def value(self, pos: int, depth: int, where: str) -> tuple[Any, int, bool]:
        """(value, end, kept) of the value at ``pos``; kept False when the budget had nothing left for it."""
        pos = self.space(pos)
        end, values = self.end_of(pos)
        size = end - pos
        if values <= self.values and size <= self.bytes and (size <= self.caps.string or self.data[pos] != 0x22):
            self.values -= values
            self.bytes -= size
            return loads(memoryview(self.data)[pos:end], self.what), end, True
        if self.values <= 0 or self.bytes <= 0:
            return None, end, False
        if self.data[pos] == 0x22:
            return self.cut_string(pos, end, where), end, True
        if depth >= MAX_WALK_DEPTH:
            self.notes.append(f"{where}: {size:,} bytes nested too deep to walk, left out")
            return None, end, False
        if self.data[pos] == 0x5B:
            return self.array(pos, depth, where, end)[0], end, True
        return self.object(pos, depth)[0], end, True

    def cut_string(self, pos: int, end: int, where: str) -> str:
        """The start of a long string, with a visible mark where it was cut."""
        keep = min(self.caps.string, self.bytes)
        self.bytes -= keep
        self.values -= 1
        for back in range(12):
            try:
                text = json.loads(b'"' + bytes(self.data[pos + 1 : pos + 1 + keep - back]) + b'"')
                break
            except ValueError:
                continue
        else:
            raise bad(self.what, pos, "a broken string")
        self.notes.append(f"{where}: a string of {end - pos:,} bytes cut to {keep:,}")
        return f"{text}\n\u2026[cut by the import: {end - pos - keep:,} more bytes of the source]"

    def array(self, pos: int, depth: int, where: str, end: int = -1) -> tuple[list[Any], int]:
        """A walked array (``pos`` at its ``[``; ``end`` where it ends, when known)."""
        if end < 0:
            end, _ = container_end(self.data, pos, self.what)
        cap = self.caps.members.get(where, self.caps.items) if depth == 1 else self.caps.items
        out: list[Any] = []
        here = self.space(pos + 1)
        if self.data[here : here + 1] == b"]":
            return out, end
        while True:
            if len(out) >= cap:
                self.notes.append(f"{where}: the first {cap:,} items kept; {end - here:,} more bytes left out")
                return out, end
            item, here, kept = self.value(here, depth + 1, where)
            if not kept:
                self.notes.append(f"{where}: {len(out):,} items kept, the rest ({end - here:,} bytes) left out: the import's budget is spent")
                return out, end
            out.append(item)
            here = self.space(here)
            if self.data[here : here + 1] == b"]":
                return out, here + 1
            here = self.expect(here, b",")

    def object(self, pos: int, depth: int, top: bool = False) -> tuple[dict[str, Any], int]:
        """A walked object (``pos`` at its ``{``)."""
        out: dict[str, Any] = {}
        here = self.space(pos + 1)
        if self.data[here : here + 1] == b"}":
            return out, here + 1
        while True:
            if not top and len(out) >= self.caps.items:
                end, _ = container_end(self.data, pos, self.what)
                self.notes.append(f"an object with more than {self.caps.items:,} members: the rest ({end - here:,} bytes) left out")
                return out, end
            m = STRING.match(self.data, here)
            if m is None:
                raise bad(self.what, here, "expected a member name")
            name = loads(memoryview(self.data)[here : m.end()], self.what)
            here = self.expect(m.end(), b":")
            if top and self.data[self.space(here) : self.space(here) + 1] == b"[" and name in self.caps.members:
                value, here = self.array(self.space(here), 1, name)
                out[name] = value
            else:
                value, here, kept = self.value(here, depth + 1, name)
                if kept:
                    out[name] = value
                else:
                    self.notes.append(f"{name}: left out, the import's budget is spent")
            here = self.space(here)
            if self.data[here : here + 1] == b"}":
                return out, here + 1
            here = self.space(self.expect(here, b","))


def member_spans(data: bytes | bytearray, what: str) -> dict[str, tuple[int, int]]:
    """Where the value of each member of the top object starts and ends, nothing parsed but the names."""
    walker = Walker(data, what, Caps(), [])
    here = walker.expect(0, b"{")
    spans: dict[str, tuple[int, int]] = {}
    here = walker.space(here)
    if data[here : here + 1] == b"}":
        return spans
    while True:
        m = STRING.match(data, here)
        if m is None:
            raise bad(what, here, "expected a member name")
        name = loads(memoryview(data)[here : m.end()], what)
        start = walker.space(walker.expect(m.end(), b":"))
        end, _ = walker.end_of(start)
        spans[name] = (start, end)
        here = walker.space(end)
        if data[here : here + 1] == b"}":
            return spans
        here = walker.space(walker.expect(here, b","))


def item_spans(data: bytes | bytearray, start: int, what: str) -> list[tuple[int, int]]:
    """Where each item of the array opening at ``start`` starts and ends."""
    walker = Walker(data, what, Caps(), [])
    here = walker.space(walker.expect(start, b"["))
    spans: list[tuple[int, int]] = []
    if data[here : here + 1] == b"]":
        return spans
    while True:
        here = walker.space(here)
        end, _ = walker.end_of(here)
        spans.append((here, end))
        here = walker.space(end)
        if data[here : here + 1] == b"]":
            return spans
        here = walker.expect(here, b",")


def read_value(data: bytes | bytearray, start: int, what: str, caps: Caps) -> tuple[Any, list[str]]:
    """One value of a larger document, read within ``caps`` (see :func:`read_object`)."""
    notes: list[str] = []
    value, _end, kept = Walker(data, what, caps, notes).value(start, 1, what)
    return (value if kept else None), notes
