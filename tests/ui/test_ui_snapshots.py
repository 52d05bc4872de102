"""A few pinned screenshots of a small, fixed folder (update with --snapshot-update)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from uihelp import make_app, settle


def prepared(folder: Path, *keys: str) -> tuple[Any, Any]:
    """An app on the folder and a run_before that lets workers settle and presses keys."""
    app = make_app(folder)

    async def run_before(pilot: Any) -> None:
        await settle(app, pilot)
        for key in keys:
            await pilot.press(key)
            await settle(app, pilot, 3)

    return app, run_before


def test_wide_screen(basic: Path, snap_compare: Any) -> None:
    app, before = prepared(basic)
    assert snap_compare(app, terminal_size=(200, 50), run_before=before)


def test_wide_screen_diff_and_earlier_turn(basic: Path, snap_compare: Any) -> None:
    app, before = prepared(basic, "h", "h", "d", "tab", "tab")
    assert snap_compare(app, terminal_size=(200, 50), run_before=before)


def test_narrow_screen(basic: Path, snap_compare: Any) -> None:
    app, before = prepared(basic)
    assert snap_compare(app, terminal_size=(80, 24), run_before=before)


def test_narrow_screen_grader_tab(basic: Path, snap_compare: Any) -> None:
    app, before = prepared(basic, "j", "j", "tab", "tab", "tab")
    assert snap_compare(app, terminal_size=(80, 24), run_before=before)
