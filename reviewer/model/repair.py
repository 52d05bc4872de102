"""A repair of notation: a pure transform of a program's output that a re-score applies.

A repair never edits the program or the checker. It re-expresses what the program already
printed (a key renamed, a token mapped, a separator changed, a list re-serialised), lifts an
interpreter limit the program died on, or grades the files where the brief said they should
be. The evidence proposes repairs (:mod:`reviewer.analysis.evidence.proposals`); the re-score
(:mod:`reviewer.rescore`) applies them in a sandbox. This module is only the data.
"""

from __future__ import annotations

import enum

from reviewer.model.records import record
from reviewer.model.wording import count


class RepairKind(str, enum.Enum):
    """What a repair does, and what its ``args`` are."""

    RENAME_KEY = "rename-key"
    """args ``(old, new)``: the program printed ``old=...`` where the checker reads ``new=...``."""
    MAP_VALUE = "map-value"
    """args ``(key, old, new)``: the value token ``old`` becomes ``new`` under ``key`` ("" = any key)."""
    SEPARATOR = "separator"
    """args ``(key, old, new)``: a list under ``key`` split by ``old`` is joined by ``new`` instead ("" =
    the plain lines of an output that prints no ``key=`` field)."""
    RESERIALISE = "reserialise"
    """args ``(key, shape)``: the value under ``key`` re-serialised to ``shape`` (e.g. ``comma-list``)."""
    LIFT_LIMIT = "lift-limit"
    """args ``(limit,)``: an interpreter limit lifted: ``int-max-str-digits`` or ``recursion``."""
    GRADE_WHERE_SAVED = "grade-where-saved"
    """args ``(folder,)``: the files the program saved under ``folder`` are graded where the brief said."""


@record
class Repair:
    """One repair.

    Attributes:
        kind: what it does.
        args: its arguments, as :class:`RepairKind` documents for each kind.
        reason: why it was proposed (the near miss or crash it answers), for display; "" when
            the reviewer wrote it.
    """

    kind: RepairKind
    args: tuple[str, ...]
    reason: str = ""


ARITY: dict[RepairKind, int] = {
    RepairKind.RENAME_KEY: 2,
    RepairKind.MAP_VALUE: 3,
    RepairKind.SEPARATOR: 3,
    RepairKind.RESERIALISE: 2,
    RepairKind.LIFT_LIMIT: 1,
    RepairKind.GRADE_WHERE_SAVED: 1,
}
"""How many arguments each kind takes."""

SHAPES = ("comma-list", "space-list", "semicolon-list", "pipe-list", "json-list")
"""The shapes :attr:`RepairKind.RESERIALISE` knows."""

LIMITS = ("int-max-str-digits", "recursion")
"""The interpreter limits :attr:`RepairKind.LIFT_LIMIT` lifts."""

LIMIT_ALIASES = {"recursion-limit": "recursion", "int_max_str_digits": "int-max-str-digits"}

STDOUT_KINDS = frozenset({RepairKind.RENAME_KEY, RepairKind.MAP_VALUE, RepairKind.SEPARATOR, RepairKind.RESERIALISE})
"""Kinds that re-express what the program printed (its stdout, or the files the checker reads)."""

ESCAPES = {"\\": "\\", ":": ":", "s": " ", "t": "\t", "n": "\n"}


class BadRepair(ValueError):
    """A ``KIND:ARGS`` text that names no repair, or a repair whose arguments are wrong."""


def split_args(text: str) -> list[str]:
    """Split ``a:b\\:c`` on unescaped colons, undoing the escapes (``\\:``, ``\\\\``, ``\\s``, ``\\t``, ``\\n``)."""
    parts, current, i = [], [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if nxt not in ESCAPES:
                raise BadRepair(f"unknown escape '\\{nxt}' (use \\: \\\\ \\s \\t \\n)")
            current.append(ESCAPES[nxt])
            i += 2
            continue
        if ch == ":":
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    parts.append("".join(current))
    return parts


def escape_arg(arg: str) -> str:
    """One argument written for the ``KIND:ARGS`` form."""
    return arg.replace("\\", "\\\\").replace(":", "\\:").replace(" ", "\\s").replace("\t", "\\t").replace("\n", "\\n")


def check_repair(repair: Repair) -> Repair:
    """The repair with its arguments checked and made canonical; raises :class:`BadRepair`."""
    kind, args = repair.kind, repair.args
    want = ARITY[kind]
    if len(args) != want:
        raise BadRepair(f"{kind.value} takes {count(want, 'argument')} ({usage(kind)}), got {len(args)}")
    if kind is RepairKind.RENAME_KEY:
        for name in args:
            if not name or any(ch.isspace() or ch in "=\"'" for ch in name):
                raise BadRepair(f"rename-key: {name!r} is not a key (no spaces, '=' or quotes)")
        if args[0] == args[1]:
            raise BadRepair("rename-key: the old and the new key are the same")
    elif kind in (RepairKind.MAP_VALUE, RepairKind.SEPARATOR):
        if not args[1]:
            raise BadRepair(f"{kind.value}: the old value is empty")
        if args[1] == args[2]:
            raise BadRepair(f"{kind.value}: the old and the new value are the same")
    elif kind is RepairKind.RESERIALISE:
        if args[1] not in SHAPES:
            raise BadRepair(f"reserialise: unknown shape {args[1]!r} (one of {', '.join(SHAPES)})")
        if not args[0]:
            raise BadRepair("reserialise: the key is empty")
    elif kind is RepairKind.LIFT_LIMIT:
        limit = LIMIT_ALIASES.get(args[0], args[0])
        if limit not in LIMITS:
            raise BadRepair(f"lift-limit: unknown limit {args[0]!r} (one of {', '.join(LIMITS)})")
        args = (limit,)
    elif kind is RepairKind.GRADE_WHERE_SAVED:
        folder = args[0].strip("/")
        parts = folder.split("/")
        if not folder or args[0].startswith("/") or any(p in ("", ".", "..") for p in parts):
            raise BadRepair(f"grade-where-saved: {args[0]!r} is not a folder inside the workspace")
        args = (folder,)
    return Repair(kind, tuple(args), repair.reason)


def usage(kind: RepairKind) -> str:
    """The argument pattern of a kind, for messages and --help."""
    return {
        RepairKind.RENAME_KEY: "rename-key:OLD:NEW",
        RepairKind.MAP_VALUE: "map-value:KEY:OLD:NEW (KEY empty = any key)",
        RepairKind.SEPARATOR: "separator:KEY:OLD:NEW",
        RepairKind.RESERIALISE: f"reserialise:KEY:SHAPE ({'|'.join(SHAPES)})",
        RepairKind.LIFT_LIMIT: f"lift-limit:{'|'.join(LIMITS)}",
        RepairKind.GRADE_WHERE_SAVED: "grade-where-saved:FOLDER",
    }[kind]


def parse_repair(text: str) -> Repair:
    """A repair from its ``KIND:ARGS`` form (``rename-key:steps:mults``); raises :class:`BadRepair`."""
    name, sep, rest = text.partition(":")
    try:
        kind = RepairKind(name.strip())
    except ValueError:
        kinds = ", ".join(k.value for k in RepairKind)
        raise BadRepair(f"unknown repair kind {name.strip()!r} (one of {kinds})") from None
    args = split_args(rest) if sep else []
    return check_repair(Repair(kind, tuple(args)))


def format_repair(repair: Repair) -> str:
    """The ``KIND:ARGS`` form of a repair; :func:`parse_repair` reads it back."""
    return ":".join([repair.kind.value, *(escape_arg(a) for a in repair.args)])


def describe_repair(repair: Repair) -> str:
    """A short phrase for people: ``key steps->mults``, ``value true->yes``, ``int-max-str-digits lifted``."""
    a = repair.args
    if repair.kind is RepairKind.RENAME_KEY:
        return f"key {a[0]}->{a[1]}"
    if repair.kind is RepairKind.MAP_VALUE:
        return f"value {a[1]}->{a[2]}" + (f" under {a[0]}" if a[0] else "")
    if repair.kind is RepairKind.SEPARATOR:
        return f"separator {a[1]!r}->{a[2]!r} in {a[0]}"
    if repair.kind is RepairKind.RESERIALISE:
        return f"{a[0]} as {a[1]}"
    if repair.kind is RepairKind.LIFT_LIMIT:
        return f"{a[0]} limit lifted"
    return f"graded where saved ({a[0]}/)"
