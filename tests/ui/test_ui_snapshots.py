"""A few pinned screenshots of a small, fixed folder (update with --snapshot-update)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from uihelp import make_app, settle


def prepared(folder: Path, *keys: str) -> tuple[Any, Any]:
    """An app on the folder and a run_before that lets workers settle and presses keys."""
    app = make_app(folder)

    async def run_before(pilot: Any) -> None:
        # The first failure on screen starts the background work (counting, the other reviewers):
        # wait for it to have started, then for it to finish, whatever the machine's load.
        deadline = time.monotonic() + 60
        while not (app.after_first_screen is None and app.session.shown is not None) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
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
