"""Notation repairs as pure transforms of printed text: rename a key, map a value, change a
separator, re-serialise a list. Nothing here computes anything about the problem: every output
character is one the program printed, moved, or a token the repair names.

Standard library only, no reviewer imports: this file is copied into the sandbox, where the
program shim (:mod:`reviewer.rescore.shim`) imports it. The same code repairs the files a
checker reads, on the host, before the sandbox starts.

Repairs are plain ``[kind, [args...]]`` lists (the JSON the shim is given), applied in order.
What a *field* is:

- ``key=value`` where the key starts the line or follows whitespace; the value runs to the next
  whitespace, or to the matching bracket or quote when it starts with one.
- ``key: value`` starting a line (after indentation); the value is the rest of the line.
- A whole output that is one JSON document, or a line that is one JSON object or array:
  object keys and their values, at any depth (re-serialised as compact JSON).
- A ``separator`` repair with no key re-joins the lines that hold no field (an output of plain
  lines, each a list).

Lifting an interpreter limit and grading where the files were saved change no text; they are
applied by the shim and the staging.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

KEY = re.compile(r"[A-Za-z_][\w.\-]*")
COLON_FIELD = re.compile(r"^(?P<indent>\s*)(?P<key>[A-Za-z_][\w.\-]*):(?P<gap>[ \t]+)(?P<value>\S.*?)\s*$")
CLOSERS = {"[": "]", "(": ")", "{": "}", '"': '"', "'": "'"}
LIST_SEPARATORS = ("->", "=>", ",", ";", "|", " ")
SHAPE_JOIN = {"comma-list": ",", "space-list": " ", "semicolon-list": ";", "pipe-list": "|"}
TEXT_KINDS = ("rename-key", "map-value", "separator", "reserialise")
MAX_JSON_CHARS = 50_000_000
MAX_LINE = 256 << 10
POLL_EVERY = 4096
"""Characters of one line the field repairs re-express (a longer line is left as printed), so
that one line costs a bounded time and a stop is heard within a fraction of a second."""

Repairs = list[list[Any]]
Span = tuple[int, int, int, int]
"""A field in a line: key start, key end, value start, value end."""


def closers(line: str) -> dict[int, int]:
    """For every bracket that opens a group in ``line``, where the group ends (one pass, a stack):
    ``{index of the opener: index just past its closer}``; an opener never closed is left out."""
    ends: dict[int, int] = {}
    stack: list[int] = []
    for i, ch in enumerate(line):
        if ch in "[({":
            stack.append(i)
        elif ch in "])}":
            while stack:
                j = stack.pop()
                if CLOSERS[line[j]] == ch:
                    ends[j] = i + 1
                    break
    return ends


def value_end(line: str, start: int, ends: dict[int, int]) -> int:
    """Where a ``key=`` value that begins at ``start`` ends (``ends``: :func:`closers` of the line)."""
    if start >= len(line):
        return start
    opener = line[start]
    closer = CLOSERS.get(opener)
    if closer in ('"', "'"):
        j = line.find(closer, start + 1)
        if j != -1:
            return j + 1
    elif closer and start in ends:
        return ends[start]
    j = start
    while j < len(line) and not line[j].isspace():
        j += 1
    return j


def fields(line: str) -> list[Span]:
    """Every field of one line, left to right (linear in the line: every character is looked at a
    bounded number of times)."""
    m = COLON_FIELD.match(line)
    if m and "=" not in m.group("key"):
        return [(m.start("key"), m.end("key"), m.start("value"), m.end("value"))]
    if "=" not in line:
        return []
    ends = closers(line)
    found: list[Span] = []
    i, n = 0, len(line)
    while i < n:
        if line[i].isspace():
            i += 1
            continue
        k = KEY.match(line, i)
        if k and k.end() < n and line[k.end()] == "=":
            start = k.end() + 1
            end = value_end(line, start, ends)
            found.append((k.start(), k.end(), start, end))
            i = max(end, start)
            continue
        while i < n and not line[i].isspace():
            i += 1
    return found


def unquote(value: str) -> str:
    """A value without one pair of surrounding quotes."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def list_items(value: str) -> list[str]:
    """The items of a printed list: ``[a, b]``, ``a,b``, ``a->b``, ``a b``, ``["a","b"]``."""
    body = value.strip()
    if body[:1] in "[(" and body[-1:] in "])":
        try:
            loaded = json.loads(body)
            if isinstance(loaded, list):
                return [str(x) for x in loaded]
        except ValueError:
            pass
        body = body[1:-1]
    for sep in LIST_SEPARATORS:
        if sep in body:
            parts = [unquote(p.strip()) for p in body.split(sep)] if sep != " " else [unquote(p) for p in body.split()]
            return [p for p in parts if p]
    return [unquote(body)] if body else []


def shaped(items: list[str], shape: str) -> str:
    """Items written in a shape."""
    if shape == "json-list":
        return json.dumps(items, separators=(",", ":"), ensure_ascii=False)
    return SHAPE_JOIN[shape].join(items)


def new_value(kind: str, args: list[str], key: str, value: str) -> str | None:
    """The repaired value of one field, or None when the repair does not touch it."""
    if kind == "map-value":
        want, old, new = args
        if (want and key != want) or unquote(value) != old:
            return None
        return value.replace(old, new, 1) if value != old else new
    if kind == "separator":
        want, old, new = args
        return value.replace(old, new) if key == want and old in value else None
    if kind == "reserialise":
        want, shape = args
        return shaped(list_items(value), shape) if key == want else None
    return None


def words_outside_keys(line: str, spans: list[Span], old: str, new: str) -> str:
    """``old`` replaced by ``new`` as a whole word everywhere but in the keys of fields."""
    pattern = re.compile(r"(?<![\w])" + re.escape(old) + r"(?![\w])")
    out, last = [], 0
    for ks, ke, _vs, _ve in spans:
        out.append(pattern.sub(lambda _m: new, line[last:ks]))
        out.append(line[ks:ke])
        last = ke
    out.append(pattern.sub(lambda _m: new, line[last:]))
    return "".join(out)


def repair_line(line: str, kind: str, args: list[str]) -> str:
    """One repair applied to one line of text."""
    spans = fields(line)
    if kind == "map-value" and not args[0]:
        return words_outside_keys(line, spans, args[1], args[2])
    if kind == "separator" and not args[0]:  # no key: an output of plain lines, each a list
        return line.replace(args[1], args[2]) if not spans else line
    pieces, last = [], 0
    for ks, ke, vs, ve in spans:
        key, value = line[ks:ke], line[vs:ve]
        pieces.append(line[last:ks])
        if kind == "rename-key":
            pieces += [args[1] if key == args[0] else key, line[ke:vs], value]
        else:
            changed = new_value(kind, args, key, value)
            pieces += [key, line[ke:vs], value if changed is None else changed]
        last = ve
    pieces.append(line[last:])
    return "".join(pieces)


def json_scalar(new: str, like: Any) -> Any:
    """The value a mapped JSON value becomes: a string, unless the old one was not a string
    and ``new`` is a JSON scalar (``false``, ``0``, ``null``)."""
    if isinstance(like, str):
        return new
    try:
        loaded = json.loads(new)
    except ValueError:
        return new
    return loaded if loaded is None or isinstance(loaded, (bool, int, float)) else new


def json_text(value: Any) -> str | None:
    """How a scalar JSON value is written (strings bare), or None for containers."""
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, (bool, int, float)):
        return json.dumps(value)
    return None


class Poll:
    """Asks ``stop`` once every :data:`POLL_EVERY` values (raising :class:`Stopped`)."""

    def __init__(self, stop: Callable[[], bool] | None) -> None:
        self.stop, self.count = stop, 0

    def tick(self) -> None:
        """One more value looked at."""
        self.count += 1
        if self.stop is not None and self.count % POLL_EVERY == 0 and self.stop():
            raise Stopped("stopped before every value was repaired")


def repair_json(value: Any, kind: str, args: list[str], poll: Poll | None = None) -> Any:
    """One repair applied to a JSON value, at every depth (``poll`` ticked at each value)."""
    if poll is not None:
        poll.tick()
    if isinstance(value, list):
        return [repair_json(v, kind, args, poll) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        if kind == "rename-key" and key == args[0]:
            key = args[1]
        elif kind == "map-value" and (not args[0] or key == args[0]) and json_text(item) == args[1]:
            item = json_scalar(args[2], item)
        elif kind == "map-value" and args[0] and key == args[0] and isinstance(item, list):
            item = [json_scalar(args[2], x) if json_text(x) == args[1] else x for x in item]  # a list of answers
        elif kind == "separator" and key == args[0] and isinstance(item, str):
            item = item.replace(args[1], args[2])
        elif kind == "reserialise" and key == args[0]:
            items = [str(x) for x in item] if isinstance(item, list) else list_items(str(item))
            item = items if args[1] == "json-list" else shaped(items, args[1])
        out[key] = repair_json(item, kind, args, poll)
    return out


def as_json(text: str) -> Any:
    """The JSON document ``text`` is, or a marker that it is not one."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[" or len(stripped) > MAX_JSON_CHARS:
        return NOT_JSON
    try:
        doc = json.loads(stripped)
    except (ValueError, RecursionError):
        return NOT_JSON
    return doc if depth_within(doc, MAX_JSON_DEPTH) else NOT_JSON


NOT_JSON = object()

MAX_JSON_DEPTH = 200
"""Deeper documents are re-expressed as text (linear), never walked by :func:`repair_json`, whose
recursion would pass Python's limit."""


def depth_within(doc: Any, limit: int) -> bool:
    """True when no value of ``doc`` is nested deeper than ``limit`` (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(doc, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return True


def each_repair(repairs: Repairs) -> Iterator[tuple[str, list[str]]]:
    """The text repairs among ``repairs``, as (kind, args)."""
    for kind, args in repairs:
        if kind in TEXT_KINDS:
            yield kind, [str(a) for a in args]


class Stopped(Exception):
    """``stop()`` said to stop before every line was repaired."""


def apply_repairs(text: str, repairs: Repairs, stop: Callable[[], bool] | None = None) -> str:
    """``text`` with every text repair applied in order; other kinds leave it alone. Linear in the
    text; ``stop`` is asked before every line (raising :class:`Stopped`), and a line longer than
    :data:`MAX_LINE` is left as printed."""
    todo = list(each_repair(repairs))
    if not todo:
        return text
    if stop is not None and stop():
        raise Stopped("stopped before anything was repaired")
    doc = as_json(text)
    if doc is not NOT_JSON:
        poll = Poll(stop)
        for kind, args in todo:
            doc = repair_json(doc, kind, args, poll)
        tail = text[len(text.rstrip()):]
        return json.dumps(doc, ensure_ascii=False) + tail
    return per_line(text, todo, lambda line, kind, args: repair_one(line, kind, args), stop)


def repair_one(line: str, kind: str, args: list[str]) -> str:
    """A line that is a JSON object or array is repaired as JSON, any other as fields."""
    doc = as_json(line) if line.lstrip()[:1] in "{[" else NOT_JSON
    if doc is not NOT_JSON:
        return json.dumps(repair_json(doc, kind, args), ensure_ascii=False)
    return repair_line(line, kind, args)


def per_line(text: str, todo: list[tuple[str, list[str]]], fn: Callable[[str, str, list[str]], str],
             stop: Callable[[], bool] | None = None) -> str:
    """Each repair applied to each line, keeping the line endings (``stop`` asked before each)."""
    lines = text.splitlines(keepends=True)
    out = []
    for raw in lines:
        if stop is not None and stop():
            raise Stopped("stopped before every line was repaired")
        body = raw.rstrip("\r\n")
        ending = raw[len(body):]
        if len(body) <= MAX_LINE:
            for kind, args in todo:
                body = fn(body, kind, args)
        out.append(body + ending)
    return "".join(out)
