"""The fast case of hostile_sessions: damaged copies of the corpus never crash, hang or go unreported."""

from __future__ import annotations

from pathlib import Path

from scriptload import load_script
from sessionkit import example_corpus


def test_damaged_corpus_copies_are_always_reported(tmp_path: Path) -> None:
    module = load_script(Path(__file__).with_name("hostile_sessions.py"))
    figures, bad = module.measure(cases=30, seed=11, source=example_corpus(tmp_path / "sessions"))
    assert bad == []
    assert figures == {"cases": 30, "crashes": 0, "hangs": 0, "unreported": 0}
