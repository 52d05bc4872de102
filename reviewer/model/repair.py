"""A repair of notation: a pure transform of a program's output that a re-score applies.

A repair never edits the program or the checker. It re-expresses what the program already
printed (a key renamed, a token mapped, a separator changed, a list re-serialised), lifts an
interpreter limit the program died on, or grades the files where the brief said they should
be. The evidence proposes repairs (:mod:`reviewer.analysis.proposals`); the re-score
(:mod:`reviewer.rescore`) applies them in a sandbox. This module is only the data.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class RepairKind(str, enum.Enum):
    """What a repair does, and what its ``args`` are."""

    RENAME_KEY = "rename-key"
    """args ``(old, new)``: the program printed ``old=...`` where the checker reads ``new=...``."""
    MAP_VALUE = "map-value"
    """args ``(key, old, new)``: the value token ``old`` becomes ``new`` under ``key`` ("" = any key)."""
    SEPARATOR = "separator"
    """args ``(key, old, new)``: a list under ``key`` split by ``old`` is joined by ``new`` instead."""
    RESERIALISE = "reserialise"
    """args ``(key, shape)``: the value under ``key`` re-serialised to ``shape`` (e.g. ``comma-list``)."""
    LIFT_LIMIT = "lift-limit"
    """args ``(limit,)``: an interpreter limit lifted: ``int-max-str-digits`` or ``recursion``."""
    GRADE_WHERE_SAVED = "grade-where-saved"
    """args ``(folder,)``: the files the program saved under ``folder`` are graded where the brief said."""


@dataclass(frozen=True, slots=True)
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
