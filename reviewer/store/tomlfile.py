"""Parsing TOML from untrusted bytes into a plain dict, with a reason for every failure."""

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
    if CONFLICT.search(data):
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
