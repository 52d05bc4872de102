"""Shared fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sessionkit import small_folder

# pytest-xdist's workers set COLUMNS=80 and LINES=24; programs the tests start in a terminal
# (tmux) would then draw at 80x24 whatever the terminal's size. A user's shell pins neither.
for _pinned in ("COLUMNS", "LINES"):
    os.environ.pop(_pinned, None)

REPO = Path(__file__).resolve().parent.parent
SHARED_FIXTURES = REPO.parent / "shared" / "fixtures"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A small sessions folder (2 sessions, 4 runs, 3 failures)."""
    return small_folder(tmp_path / "sessions")


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep every test away from the real user's config and data folders."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
