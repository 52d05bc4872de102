"""Ids, paths and text taken from logs, made safe to become folder names, file paths and TOML.

Everything here treats its input as hostile: an id may hold ``/``, ``..``, NUL, escape bytes,
bidi controls or a million characters; the result is always a short name that matches the
sessions format's id pattern, or a relative path that cannot leave the folder it is joined to.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Any

ID_MAX = 100
SEGMENT_MAX = 120
PATH_MAX = 400
_NOT_ID = re.compile(r"[^A-Za-z0-9._-]+")
_NOT_SEGMENT = re.compile(r"[\x00-\x1f\x7f-\x9f\\:*?\"<>|\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def fix_text(value: str) -> str:
    """The same text with lone surrogates replaced, so it encodes as UTF-8."""
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def as_text(value: object) -> str:
    """Any JSON scalar as text ("" for None)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return fix_text(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return fix_text(str(value))


def short_hash(value: str, n: int = 8) -> str:
    """A few hex digits identifying ``value``."""
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:n]


def safe_id(value: object, fallback: str = "run", limit: int = ID_MAX) -> str:
    """A folder name matching ``[A-Za-z0-9_][A-Za-z0-9._-]*``, at most ``limit`` characters.

    Unicode is folded to ASCII where it can be, every other character becomes ``-``; an id that
    had to be cut or that was empty gets a short hash of the original so distinct ids stay
    distinct.
    """
    raw = as_text(value)
    ascii_text = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode("ascii")
    slug = _NOT_ID.sub("-", ascii_text).strip("-.")
    slug = re.sub(r"-{2,}", "--", slug)
    if not slug:
        return f"{fallback}-{short_hash(raw)}" if raw else fallback
    if slug[0] in "-.":
        slug = "_" + slug
    if len(slug) > limit:
        slug = slug[: limit - 9].rstrip("-.") + "-" + short_hash(raw)
    return slug


def grader_name(value: object, fallback: str = "grader") -> str:
    """A grader name: an id without ``#``, ``/`` or ``:`` (safe_id never produces them)."""
    return safe_id(value, fallback, 60)


class UniqueIds:
    """Hands out ids, adding ``-2``, ``-3`` ... when a wanted id is already taken."""

    def __init__(self, taken: set[str] | None = None) -> None:
        self.taken: set[str] = set(taken or ())

    def claim(self, wanted: str) -> str:
        """``wanted`` if free, else the first free ``wanted-<n>``."""
        if wanted not in self.taken:
            self.taken.add(wanted)
            return wanted
        n = 2
        while f"{wanted}-{n}" in self.taken:
            n += 1
        self.taken.add(f"{wanted}-{n}")
        return f"{wanted}-{n}"


def safe_relpath(value: object) -> str:
    """A relative ``/`` path that stays inside the folder it is joined to, or "" when none is left.

    Leading ``/`` and drive letters are dropped, ``.`` and ``..`` segments removed, control,
    bidi and reserved characters replaced, each segment and the whole path capped.
    """
    raw = as_text(value).replace("\\", "/")
    if len(raw) > 1 and raw[1] == ":":
        raw = raw[2:]
    parts: list[str] = []
    for seg in raw.split("/"):
        seg = _NOT_SEGMENT.sub("_", seg).strip()
        if seg in ("", ".", ".."):
            continue
        if len(seg) > SEGMENT_MAX:
            seg = seg[: SEGMENT_MAX - 9] + "-" + short_hash(seg)
        parts.append(seg)
    path = "/".join(parts)
    if len(path) > PATH_MAX:
        path = path[-PATH_MAX:].lstrip("/")
        path = "/".join(p for p in path.split("/") if p not in ("", ".", ".."))
    return path


def cut(text: str, limit: int, where: str = "") -> tuple[str, bool]:
    """``text`` cut to ``limit`` characters with a visible marker; (text, was_cut)."""
    if len(text) <= limit:
        return text, False
    more = len(text) - limit
    hint = f"; {where}" if where else ""
    return f"{text[:limit]}\n\u2026[truncated: {more:,} more characters{hint}]", True


def table_at(doc: Any, key: str) -> dict[str, Any]:
    """``doc[key]`` when it is a table, else an empty one (recorded logs hold anything)."""
    value = doc.get(key) if isinstance(doc, dict) else None
    return value if isinstance(value, dict) else {}


def list_at(doc: Any, key: str) -> list[Any]:
    """``doc[key]`` when it is a list, else an empty one."""
    value = doc.get(key) if isinstance(doc, dict) else None
    return value if isinstance(value, list) else []
