"""The fast case of kill_during_save: a few SIGKILLs inside saves lose and corrupt nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from scriptload import load_script


@pytest.mark.parametrize("journal", [False, True], ids=["toml", "journal"])
def test_sigkill_during_saves_loses_nothing(journal: bool) -> None:
    figures = load_script(Path(__file__).with_name("kill_during_save.py")).measure(trials=12, seed=7, journal=journal)
    assert figures["acknowledged"] > 0 and figures["notes_acknowledged"] > 0  # note entries and their removals too
    assert figures["kills_mid_write"] > 0
    assert (figures["lost"], figures["corrupt_files"], figures["orphan_temp_files"]) == (0, 0, 0)
