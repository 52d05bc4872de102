"""Pilot tests of the help screen (keys and what they do in two columns, ids only when wide) and
the load-errors box (how to close it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Static
from uihelp import make_app, press, settle, sync

from reviewer.ui.bindings import LOCAL_TABLES, TABLE
from reviewer.ui.screens.errors import ErrorsScreen
from reviewer.ui.screens.help import HelpScreen


def rows(app: Any) -> list[str]:
    """The composed screen, row by row."""
    return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]


def help_rows(app: Any) -> list[str]:
    return str(app.screen.query_one("#help-text", Static).content).splitlines()


@sync
async def test_help_has_keys_and_descriptions_in_two_columns_and_ids_only_when_wide(basic: Path) -> None:
    bindings = [e.binding for e in TABLE] + [b for _, table in LOCAL_TABLES for b in table]
    app = make_app(basic, reviewer="ana")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = "\n".join(help_rows(app))
        assert not any(r.rstrip().endswith("  " + (b.id or "")) for b in bindings for r in help_rows(app))  # no ids
        described = [r for r in help_rows(app) if r.startswith("  ") and r.strip()]
        column = min(len(r) - len(r[2:].lstrip()) for r in described[:5]) if described else 0
        first = next(r for r in help_rows(app) if r.lstrip().startswith("R "))  # the longest description
        after = help_rows(app)[help_rows(app).index(first) + 1]
        assert after.startswith(" " * (first.index("Re-score"))) and after.strip()  # wrapped under the description
        for b in bindings:
            assert (b.tooltip or b.description)[:30] in text.replace("\n" + " " * column, " "), b.id
        assert max(map(len, help_rows(app))) <= 120
        assert str(app.screen.query_one("#help-box").border_subtitle) == "g guides · escape close"
    app = make_app(basic, reviewer="ana")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "question_mark")
        for b in bindings:
            row = next((r for r in help_rows(app) if r.rstrip().endswith(" " + (b.id or ""))), None)
            assert row is not None, b.id  # an id column at 200 columns, on the binding's own row


@sync
async def test_the_load_errors_box_says_how_to_close_it(basic: Path) -> None:
    (basic / "s1" / "runs" / "broken").mkdir()
    (basic / "s1" / "runs" / "broken" / "run.toml").write_text("format = 1\n[run\n")
    app = make_app(basic, reviewer="ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "E")
        assert isinstance(app.screen, ErrorsScreen)
        box = app.screen.query_one("#errors-box")
        assert str(box.border_title) == "1 item not loaded" and str(box.border_subtitle) == "escape close"
        assert any("escape close" in row for row in rows(app))
        await press(app, pilot, "escape")
        assert app.screen is app.review_screen


@sync
async def test_the_guides_open_from_the_help_as_reviewer_help_prints_them(basic: Path) -> None:
    from textual.widgets import Markdown, OptionList

    from reviewer.docs import topics
    from reviewer.ui.screens.guides import GuideScreen, GuidesScreen

    app = make_app(basic, reviewer="ana")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "question_mark", "g")
        assert isinstance(app.screen, GuidesScreen)
        listed = app.screen.query_one(OptionList)
        assert [listed.get_option_at_index(i).id for i in range(listed.option_count)] == [t.name for t in topics()]
        architecture = [t.name for t in topics()].index("architecture")
        listed.highlighted = architecture
        await press(app, pilot, "enter")
        assert isinstance(app.screen, GuideScreen) and app.screen.topic.name == "architecture"
        await pilot.pause()
        document = app.screen.query_one(Markdown)
        assert document.source == topics()[architecture].path.read_text(encoding="utf-8")
        assert "How a key press travels" in str(app.screen.query_one("#guide-box").border_title) + document.source
        await press(app, pilot, "escape")
        assert isinstance(app.screen, GuidesScreen)
        await press(app, pilot, "escape", "escape")
        assert not isinstance(app.screen, (GuidesScreen, HelpScreen))
