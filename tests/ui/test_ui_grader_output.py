"""Pilot tests of the Grader pane's output: a go test -json stream shown decoded (what go test -v
printed), the recorded JSON lines one key away, in the footer, the help and the palette."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Static
from uihelp import make_app, palette_offers, press, settle, sync, until

from reviewer.ui.widgets.grader import GraderPane
from reviewer.ui.widgets.keybar import KeyBar

GO_PANIC = "pounce-2026-11/roman-go--gale-13b#heldout:TestHeldOutZero"
"""Its grader ran ``go test -json``: the recorded output is one JSON event per line."""


def output_lines(app: Any) -> list[str]:
    return app.review_screen.query_one(GraderPane).output_view.plain_lines()


def header(app: Any) -> str:
    return str(app.review_screen.query_one(GraderPane).query_one(".pane-header", Static).content)


def keybar(app: Any) -> str:
    bar = app.review_screen.query_one(KeyBar)
    return "".join(p.text for p in bar.left) + "".join(p.text for p in bar.right)


@sync
async def test_go_test_json_shows_decoded_and_o_switches_to_the_raw_lines(bundled: Path) -> None:
    app = make_app(bundled, reviewer="ana", start_failure=GO_PANIC)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        decoded = output_lines(app)
        assert "--- FAIL: TestHeldOutZero (0.00s)" in decoded
        assert "    panic: roman.ToRoman: 0 is outside 1..3999" in decoded  # "\tpanic:" to the tab stop
        assert not any(line.startswith('{"Time"') for line in decoded)
        assert "decoded output (o: raw lines)" in header(app)
        pane = app.review_screen.query_one(GraderPane)
        assert pane.output_view.marked is not None and decoded[pane.output_view.marked].startswith("panic: roman")
        await press(app, pilot, "3")  # the Grader pane has focus: its key is on the footer
        assert " o Raw / decoded " in keybar(app)
        await press(app, pilot, "o")
        raw = output_lines(app)
        assert raw[0].startswith('{"Time":') and len(raw) > len(decoded)
        assert "raw output (o: decoded)" in header(app)
        seen = []
        for _ in range(3):  # back through fjord-xl, ember-9b (go test -json too) and delta-pro
            await press(app, pilot, "k")
            seen.append(header(app))
        assert any("raw output (o: decoded)" in h for h in seen) and not any("decoded output" in h for h in seen)
        await press(app, pilot, "j", "j", "j", "o")  # the choice stayed from failure to failure; o again
        assert output_lines(app) == decoded


@sync
async def test_the_palette_offers_the_output_switch_only_where_there_is_one(bundled: Path, basic: Path) -> None:
    app = make_app(bundled, reviewer="ana", start_failure=GO_PANIC)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "ctrl+p")
        await pilot.press(*"grader output")
        await until(app, pilot, lambda: palette_offers(app, "grader output: raw or decoded"), what="the palette offering it")
        await press(app, pilot, "enter")
        assert "raw output (o: decoded)" in header(app)
    app = make_app(basic, reviewer="ana")  # go test -v output: nothing to decode
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "3")
        assert "Raw / decoded" not in keybar(app) and "decoded output" not in header(app)
        assert app.review_screen.query_one(GraderPane).output_view.plain_lines()[0] == "=== RUN   TestToRoman"
