"""Shared helpers for the parser tests: the grader-output fixtures made by make_fixtures.py.

Imported by the test modules of this folder (pytest puts the folder on sys.path).
"""

from __future__ import annotations

import json
from pathlib import Path

from reviewer.model.check import Check, CheckStatus

GRADER = Path(__file__).resolve().parents[1] / "fixtures" / "grader"


def read_fixture(rel: str) -> str:
    """The text of one fixture file, e.g. ``go/subtests.v.txt``."""
    return (GRADER / rel).read_text(encoding="utf-8")


def all_fixtures() -> list[str]:
    """Every generated fixture file, relative to the grader fixture folder."""
    return sorted(json.loads(read_fixture("exit_codes.json")))


def exit_code(rel: str) -> int:
    """The exit status the tool had when it printed the fixture."""
    return json.loads(read_fixture("exit_codes.json"))[rel]


def failing(checks: list[Check]) -> dict[str, CheckStatus]:
    """Key -> status of the failing (fail, error) checks."""
    return {c.key: c.status for c in checks if c.failing}


def by_key(checks: list[Check]) -> dict[str, Check]:
    """Checks by key (keys are unique)."""
    out = {c.key: c for c in checks}
    assert len(out) == len(checks), "duplicate keys"
    return out
