"""The fast case of kill_during_save: a few SIGKILLs inside saves lose and corrupt nothing."""

from __future__ import annotations

import importlib.util
from pathlib import Path


def load_script():  # noqa: ANN201 - a module object
    spec = importlib.util.spec_from_file_location("kill_during_save", Path(__file__).with_name("kill_during_save.py"))
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def test_sigkill_during_saves_loses_nothing() -> None:
    figures = load_script().measure(trials=12, seed=7)
    assert figures["acknowledged"] > 0
    assert figures["kills_mid_write"] > 0
    assert (figures["lost"], figures["corrupt_files"], figures["orphan_temp_files"]) == (0, 0, 0)
