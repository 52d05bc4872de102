"""One repaint per new run: the screen is held while the panes load, and never for long."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from uihelp import make_app, settle, sync

from reviewer.ui.paint import HOLD_SECONDS
from reviewer.ui.widgets.brief import BriefPane
from reviewer.ui.widgets.pane import Pane


def all_settled(app) -> bool:  # type: ignore[no-untyped-def]
    return all(p.settled(app.selection) for p in app.review_screen.query(Pane))


@sync
async def test_moving_to_another_run_paints_once_every_pane_has_it(basic: Path) -> None:
    app = make_app(basic, reviewer="ana")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert app._batch_count == 0 and all_settled(app)
        first = app.selection.run_key
        app.step_failures(1)  # within the first run: nothing to wait for
        assert app.selection.run_key == first and app._batch_count == 0
        while app.selection.run_key == first:
            app.step_failures(1)  # counted runs: the move happens now, the loads start in workers
        # straight after the move: painting is held while the panes still show the old run
        assert app._batch_count == 1 and not all_settled(app)
        deadline = time.monotonic() + 10
        while app._batch_count and time.monotonic() < deadline:
            await asyncio.sleep(0.001)
        assert app._batch_count == 0
        assert all_settled(app), "painted before every pane had the new run"


@sync
async def test_a_pane_that_never_loads_does_not_freeze_the_screen(basic: Path) -> None:
    app = make_app(basic, reviewer="ana")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        brief = app.review_screen.query_one(BriefPane)
        brief.settled = lambda selection: False  # type: ignore[method-assign]
        first = app.selection.run_key
        while app.selection.run_key == first:
            app.step_failures(1)
        started = time.monotonic()
        assert app._batch_count == 1
        while app._batch_count and time.monotonic() - started < 5:
            await asyncio.sleep(0.005)
        waited = time.monotonic() - started
        assert app._batch_count == 0
        assert waited < HOLD_SECONDS + 0.5
        assert app.is_running
