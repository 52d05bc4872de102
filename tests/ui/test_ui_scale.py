"""100,000 runs: the list, filters, search and navigation keep answering keys."""

from __future__ import annotations

from uihelp import press, settle, sync, until
from uikit import MemoryStore

from reviewer.ui.launch import build_app
from reviewer.ui.widgets.navigator import RunNavigator


@sync
async def test_a_hundred_thousand_runs() -> None:
    app = build_app(MemoryStore(100_000), reviewer="tester")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        nav = app.review_screen.query_one(RunNavigator)
        assert len(nav.order) == 100_000 and len(app.session.folder.failure_ids) == 100_000
        assert app.session.selection.run_key == "s0/run-000001"
        await press(app, pilot, "j", "J", "J")
        assert app.session.selection.run_key == "s0/run-000004"
        await press(app, pilot, "end")
        assert app.session.selection.run_key == "s9/run-099999"
        assert nav.scroll_offset.y > 100_000
        await press(app, pilot, "F")
        assert len(nav.order) == 66_666
        await press(app, pilot, "slash")
        await pilot.press(*"model-3")
        await until(app, pilot, lambda: 0 < len(nav.order) < 20_000, what="the filtered list")
        assert 0 < len(nav.order) < 20_000
        await press(app, pilot, "enter", "home", "j")
        assert "model-3" in app.session.selection.run_key or app.session.folder.runs_by_key[app.session.selection.run_key].model == "model-3"
        assert app.is_running
