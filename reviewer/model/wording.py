"""Counted nouns as people write them: "1 run", "2 runs", "1,204 failures", never "1 runs" or "run(s)"."""

from __future__ import annotations

IRREGULAR = {"match": "matches", "was": "were", "is": "are", "this": "these", "it": "they", "has": "have"}


def plural(noun: str, number: int, many: str | None = None) -> str:
    """``noun`` for one, its plural otherwise (``many`` when English does not just add an s)."""
    if number == 1:
        return noun
    return many or IRREGULAR.get(noun) or noun + "s"


def count(number: int, noun: str, many: str | None = None) -> str:
    """``1 run``, ``2 runs``, ``12,345 failures`` (thousands separated)."""
    return f"{number:,} {plural(noun, number, many)}"
