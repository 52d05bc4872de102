"""Fixtures for the UI tests: small sessions folders written in tmp_path."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator

import pytest
from uikit import basic_folder, big_folder, hostile_folder


@pytest.fixture(autouse=True)
def forget_render_caches() -> Iterator[None]:
    """After each test, empty the one Textual cache that keeps widgets of ended apps alive.

    ``StylesCache.get_inner_outer`` (Textual 8.2) is an ``lru_cache`` on an instance method: it keys
    on the widget's ``StylesCache`` and so keeps up to 1,024 of them, every line they rendered
    with them, after their app has ended. In one process that runs many Pilot tests this grew the
    heap to a million objects (each full collection 0.36 s); emptied after each test, the heap
    stays at the live app's. Nothing is asserted on it: when Textual renames or fixes it, this
    does nothing."""
    yield
    try:
        from textual._styles_cache import StylesCache
        StylesCache.get_inner_outer.cache_clear()
    except (ImportError, AttributeError):
        pass


@pytest.fixture(autouse=True)
def first_screen_without_a_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first screen's waits (for the launcher's scan, for the first seek) never run out in a
    test: on a loaded machine a 0.3 s bound was sometimes spent on a five-run folder, and the first
    screen went to a worker. A test of the bound sets it itself."""
    from reviewer.ui.startup import first_screen

    monkeypatch.setattr(first_screen, "SCAN_WAIT_SECONDS", 60.0)
    monkeypatch.setattr(first_screen, "SEEK_SECONDS", 60.0)


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


@pytest.fixture
def bundled(tmp_path: Path) -> Path:
    """A private copy of the bundled example corpus (never the checkout's own ``sessions/``)."""
    from reviewer.store.fs.paths import bundled_sessions

    return Path(shutil.copytree(bundled_sessions(), tmp_path / "bundled"))
