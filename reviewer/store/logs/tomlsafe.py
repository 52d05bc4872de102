"""Deterministic TOML out of untrusted JSON values.

TOML has no null, 64-bit integers only and string keys only; JSON from logs may hold all of
these plus lone surrogates and deep nesting. :func:`toml_value` makes any such value writable
(None is left out of tables and written as ``"null"`` in arrays, so a list keeps its length),
:func:`dumps` sorts every table's keys so the same input always gives the same bytes.
"""

from __future__ import annotations

import json
import math
from typing import Any

from reviewer.store.logs.ids import fix_text

INT64 = (-(2**63), 2**63 - 1)
MAX_DEPTH = 12


def json_text(value: Any, indent: int | None = None) -> str:
    """``value`` as JSON text, keys sorted, never raising."""
    try:
        return fix_text(json.dumps(value, ensure_ascii=False, sort_keys=True, indent=indent, default=str))
    except (ValueError, TypeError, RecursionError):
        return fix_text(repr(value)[:100_000])


def toml_value(value: Any, depth: int = 0) -> Any:
    """A value tomli_w can write; nesting past MAX_DEPTH becomes JSON text."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if INT64[0] <= value <= INT64[1] else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return fix_text(value)
    if depth >= MAX_DEPTH and isinstance(value, (dict, list, tuple)):
        return json_text(value)
    if isinstance(value, dict):
        return {fix_text(str(k)): toml_value(v, depth + 1) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [("null" if v is None else toml_value(v, depth + 1)) for v in value]
    if value is None:
        return "null"
    return fix_text(str(value))


def sort_tables(value: Any) -> Any:
    """Sort the keys of every table, keeping arrays in order."""
    if isinstance(value, dict):
        return {k: sort_tables(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sort_tables(v) for v in value]
    return value


def has_carriage_return(value: Any) -> bool:
    """True when a string anywhere in ``value`` holds ``\\r``."""
    if isinstance(value, str):
        return "\r" in value
    if isinstance(value, dict):
        return any(has_carriage_return(k) or has_carriage_return(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_carriage_return(v) for v in value)
    return False


def dumps(doc: dict[str, Any]) -> bytes:
    """A TOML document as UTF-8 bytes, keys sorted.

    Multi-line strings are written as such (readable in git diffs) unless some string holds a
    carriage return: TOML reads ``\\r\\n`` in a multi-line string back as ``\\n``, so then every
    string is written escaped, on one line, and reads back exactly. The bytes are those of
    ``tomli_w.dumps`` of :func:`toml_value` with sorted tables (a test holds the two equal),
    written by the project's one TOML writer, :func:`reviewer.store.fs.tomlfile.dumps`.
    """
    from reviewer.store.fs.tomlfile import dumps as emit

    flag = [False]
    value = normalise(doc, 0, flag)
    return emit(value, multiline=not flag[0]).encode("utf-8")


def normalise(value: Any, depth: int, cr: list[bool]) -> Any:
    """:func:`toml_value` and :func:`sort_tables` in one pass; sets ``cr[0]`` when a string holds ``\\r``."""
    kind = type(value)
    if kind is str:
        text = value if value.isascii() else fix_text(value)
        if "\r" in text:
            cr[0] = True
        return text
    if kind is bool:
        return value
    if kind is int:
        return value if INT64[0] <= value <= INT64[1] else str(value)
    if kind is float:
        return value if math.isfinite(value) else str(value)
    if isinstance(value, (dict, list, tuple)):
        if depth >= MAX_DEPTH:
            return normalise(json_text(value), depth, cr)
        if isinstance(value, dict):
            table = {}
            for k, v in value.items():
                if v is not None:
                    key = k if type(k) is str and k.isascii() else fix_text(str(k))
                    table[key] = normalise(v, depth + 1, cr)
            for key in table:
                if "\r" in key:
                    cr[0] = True
            return {k: table[k] for k in sorted(table)}
        return [("null" if v is None else normalise(v, depth + 1, cr)) for v in value]
    if isinstance(value, bool):
        return bool(value)
    for plain in (int, float, str):
        if isinstance(value, plain):
            return normalise(plain(value), depth, cr)
    return normalise("null" if value is None else str(value), depth, cr)
