"""The fast case of kill_during_save: a few SIGKILLs inside saves (and inside moving a format-1 file) lose and corrupt nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from scriptload import load_script


@pytest.mark.parametrize("old_file", [False, True], ids=["run-files", "old-file-moved"])
def test_sigkill_during_saves_loses_nothing(old_file: bool) -> None:
    figures = load_script(Path(__file__).with_name("kill_during_save.py")).measure(trials=12, seed=7, old_file=old_file)
    assert figures["acknowledged"] > 0 and figures["notes_acknowledged"] > 0  # note entries and their removals too
    assert figures["kills_mid_write"] > 0
    assert (figures["lost"], figures["corrupt_files"], figures["orphan_temp_files"]) == (0, 0, 0)
    assert (figures["old_labels"] > 0) == old_file
