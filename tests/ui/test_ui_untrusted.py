"""Recorded text is shown, never obeyed: markup, escapes and huge content."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static
from uihelp import make_app, press, settle, sync
from uikit import HOSTILE_SHOWN

from reviewer.ui.widgets.brief import BriefPane
from reviewer.ui.widgets.code import CodePane, FileBar
from reviewer.ui.widgets.grader import GraderPane
from reviewer.ui.widgets.navigator import RunNavigator
from reviewer.ui.widgets.transcript import TranscriptPane


def markdown_text(pane: BriefPane) -> str:
    """The brief as drawn, plain."""
    return "\n".join(pane.view.plain_lines())


def no_escapes(lines: list[str]) -> None:
    """No raw ESC, BEL or C1 control reaches a widget."""
    for line in lines:
        assert "\x1b" not in line and "\x07" not in line and "\x9b" not in line, repr(line)


@sync
async def test_hostile_strings_show_literally_and_run_nothing(hostile: Path) -> None:
    app = make_app(hostile)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        screen = app.review_screen
        assert app.is_running and app.return_code is None
        nav = screen.query_one(RunNavigator)
        rows = [nav.row_text(i) for i in range(len(nav.rows))]
        assert any(HOSTILE_SHOWN[:20] in row for row in rows if "[@click" in row)
        assert sum("[@click=app.quit]CL" in row for row in rows) >= 2  # task and model rows (cut to width)
        no_escapes(rows)

        grader = screen.query_one(GraderPane)
        checks = grader.checks_view.plain_lines()
        assert HOSTILE_SHOWN in checks[0] and checks[0].endswith("\u25c0")
        assert any(HOSTILE_SHOWN in line for line in checks[1:])
        no_escapes(checks)
        output = grader.output_view.plain_lines()
        assert output[0].startswith(HOSTILE_SHOWN + " [/b] \u241b]0;PWNED\u2407")
        assert "\u27e89B\u27e92J" in output[2]
        no_escapes(output)
        assert HOSTILE_SHOWN in str(grader.query_one(".pane-header", Static).content)

        code = screen.query_one(CodePane)
        assert code.view.plain_lines()[0].startswith(HOSTILE_SHOWN)
        assert HOSTILE_SHOWN in str(code.query_one(".pane-header", Static).content)
        assert HOSTILE_SHOWN in str(code.query_one(FileBar).content)
        no_escapes(code.view.plain_lines())

        transcript = screen.query_one(TranscriptPane).view.plain_lines()
        assert sum(HOSTILE_SHOWN in line for line in transcript) >= 5
        no_escapes(transcript)

        brief = screen.query_one(BriefPane)
        assert HOSTILE_SHOWN in markdown_text(brief)
        no_escapes(brief.view.plain_lines())
        banner = str(brief.query_one(".pane-banner", Static).content)
        assert "bidirectional or invisible" in banner

        # Walk everything with the keyboard and click around: still running, nothing ran.
        await press(app, pilot, "tab", "tab", "enter", "d", "f", "l", "h", "j", "k", "y", "question_mark", "escape")
        for widget in ("#runs", "#checks", "#output", "#code-view", "#transcript-view", "#brief-view"):
            await pilot.click(widget, offset=(3, 0))
            await pilot.click(widget, offset=(12, 1))
            await settle(app, pilot, 2)
        assert app.is_running and app.return_code is None
        assert app.screen is screen or app.screen.is_modal
        for note in app.notes:
            no_escapes([note.message])


@sync
async def test_twenty_thousand_lines_and_a_ten_megabyte_line_stay_responsive(big: Path) -> None:
    app = make_app(big)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        screen = app.review_screen
        code = screen.query_one(CodePane)
        assert len(code.view.lines) == 20_000
        assert not code.view.lines[0].spans  # too long to colour: plain, and the banner says why
        code_banner = str(screen.query_one("#code .pane-banner", Static).content)
        assert "over 10,000 lines: shown without syntax colours" in code_banner
        output = screen.query_one(GraderPane).output_view
        assert len(output.lines) == 1
        first = output.lines[0].plain
        assert len(first) < 5_000 and "line truncated: 9,996,000 more characters" in first
        banner = str(screen.query_one("#grader .pane-banner", Static).content)
        assert "9,996,000 characters not shown" in banner and "e: show more" in banner

        await press(app, pilot, "tab", "tab")
        assert app.focused is code.view
        await press(app, pilot, "end")
        assert code.view.scroll_offset.y > 19_000
        await press(app, pilot, "m")
        assert app.screen.maximized is code
        await press(app, pilot, "m", "tab", "tab", "e")
        assert "line truncated: 9,960,000 more characters" in output.lines[0].plain
        await press(app, pilot, "J")  # a key after all that is still processed
        assert app.is_running
