"""Fixtures for the UI tests: small sessions folders written in tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import basic_folder, big_folder, hostile_folder


@pytest.fixture
def basic(tmp_path: Path) -> Path:
    """Two sessions, five runs, six failures."""
    return basic_folder(tmp_path / "sessions")


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """A folder whose every string starts with a markup/escape attack."""
    return hostile_folder(tmp_path / "sessions")


@pytest.fixture
def big(tmp_path: Path) -> Path:
    """A 20,000-line file and a 10 MB single-line output."""
    return big_folder(tmp_path / "sessions")
