"""Each finding of the hostile-folder red-team pass: shown live, then contained (CI runs every one)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "git")]

from attacker_folder import run_one  # noqa: E402
from attacks import findings  # noqa: E402


@pytest.mark.parametrize("module", findings(), ids=lambda m: m.__name__.rpartition(".")[2])
def test_finding_is_contained(module: object) -> None:
    outcome, _ = run_one(module)
    assert outcome.live is not False, f"the attack did not work even without the fix: {outcome.detail}"
    assert outcome.contained, outcome.detail
