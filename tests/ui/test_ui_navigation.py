"""Pilot tests: moving through failures, runs, attempts, files, turns; with keys and the mouse."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static
from uihelp import make_app, press, settle, sync

from reviewer.ui.widgets.code import CodePane
from reviewer.ui.widgets.grader import GraderPane
from reviewer.ui.widgets.navigator import RunNavigator
from reviewer.ui.widgets.text_view import TextView
from reviewer.ui.widgets.transcript import TranscriptPane

FAILURES = [
    "s1/roman-go--model-a#heldout:TestToRoman",
    "s1/roman-go--model-a#heldout:TestRoundTrip",
    "s2/connected--model-a#oracle:connected",
    "s2/connected--model-a#oracle:path",
    "s2/connected--model-c#oracle:connected",
    "s2/connected--model-c#oracle:edges",
]


def status(app) -> str:  # type: ignore[no-untyped-def]
    """The status line's text."""
    return str(app.review_screen.query_one("#status", Static).content)


def header(app, pane_id: str) -> str:  # type: ignore[no-untyped-def]
    """A pane's header line."""
    return str(app.review_screen.query_one(f"#{pane_id} .pane-header", Static).content)


@pytest.mark.slow  # its flow is tested on the session in tests/review; this is the same on the screen
@sync
async def test_opens_at_first_failure_and_j_k_walk_across_runs(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert app.session.selection.failure_id == FAILURES[0]
        assert "failure 1 of 6" in status(app)
        seen = [app.session.selection.failure_id]
        for _ in range(5):
            await press(app, pilot, "j")
            seen.append(app.session.selection.failure_id)
        assert seen == FAILURES
        assert "failure 6 of 6" in status(app)
        await press(app, pilot, "j")
        assert app.session.selection.failure_id == FAILURES[-1]
        back = []
        for _ in range(5):
            await press(app, pilot, "k")
            back.append(app.session.selection.failure_id)
        assert back == FAILURES[-2::-1]


@sync
async def test_J_K_step_runs_including_passing_ones(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "J")
        assert app.session.selection.run_key == "s1/roman-go--model-b"
        assert app.session.selection.failure_id == ""
        await press(app, pilot, "J")
        assert app.session.selection.run_key == "s2/connected--model-a"
        assert app.session.selection.failure_id == FAILURES[2]
        await press(app, pilot, "K", "K")
        assert app.session.selection.run_key == "s1/roman-go--model-a"
        await press(app, pilot, "j")
        assert app.session.selection.failure_id == FAILURES[1]


@sync
async def test_failure_option_opens_there(basic: Path) -> None:
    app = make_app(basic, start_failure=FAILURES[3])
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert app.session.selection.failure_id == FAILURES[3]
        assert "failure 4 of 6" in status(app)
        grader = app.review_screen.query_one(GraderPane)
        marked = grader.checks_view.marked
        assert marked is not None and "path" in grader.checks_view.plain_lines()[marked]


@sync
async def test_unknown_failure_is_reported_and_first_failure_opened(basic: Path) -> None:
    app = make_app(basic, start_failure="s1/nope#heldout:TestX")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert app.session.selection.failure_id == FAILURES[0]
        messages = [n.message for n in app.notes]
        assert any("Unknown failure id" in m and "s1/nope#heldout:TestX" in m for m in messages)


@sync
async def test_attempts_files_and_diff(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        code = app.review_screen.query_one(CodePane)
        assert app.session.selection.attempt == 3 and app.session.selection.file == "roman.go"
        assert "attempt 3/3" in header(app, "code")
        assert any('"IIII"' in line for line in code.view.plain_lines())
        await press(app, pilot, "left_square_bracket")
        assert app.session.selection.attempt == 2 and app.session.selection.file == "roman/roman.go"
        assert "outside expected folder" in header(app, "code")
        await press(app, pilot, "left_square_bracket")
        assert app.session.selection.attempt == 1 and app.session.selection.file == "roman.go"
        assert "outside expected folder" not in header(app, "code")
        await press(app, pilot, "f")
        assert app.session.selection.file == "roman_test.go"
        assert any("func TestX" in line for line in code.view.plain_lines())
        await press(app, pilot, "f")
        assert app.session.selection.file == "roman.go"
        await press(app, pilot, "right_square_bracket", "right_square_bracket")
        assert app.session.selection.attempt == 3
        await press(app, pilot, "d")
        assert app.session.selection.diff
        lines = code.view.plain_lines()
        assert "diff" in header(app, "code")
        assert any(line.startswith("+++") for line in lines)
        assert any("has no file at this path" in note for note in [str(code.query_one(".pane-banner", Static).content)])
        await press(app, pilot, "left_square_bracket")
        await press(app, pilot, "left_square_bracket")
        await press(app, pilot, "right_square_bracket")
        # attempt 2 has roman/roman.go only; attempt 3's roman.go diffs against... back to attempt 3
        await press(app, pilot, "right_square_bracket")
        assert app.session.selection.attempt == 3 and app.session.selection.diff
        await press(app, pilot, "d")
        assert not app.session.selection.diff
        assert not any(line.startswith("+++") for line in code.view.plain_lines())


@sync
async def test_diff_against_previous_attempt_of_same_path(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "left_square_bracket", "left_square_bracket", "right_square_bracket")
        # attempt 2 has roman/roman.go; attempt 1 has no such path
        assert app.session.selection.file == "roman/roman.go"
        await press(app, pilot, "d")
        lines = app.review_screen.query_one(CodePane).view.plain_lines()
        assert '+\treturn "I"'.replace("\t", "    ") in lines


@sync
async def test_transcript_steps_move_the_code_attempt(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert app.session.selection.turn == 5
        assert "turn 6/6" in header(app, "transcript")
        await press(app, pilot, "h")  # a nudge shows the attempt it answered, from either side
        assert app.session.selection.turn == 4 and app.session.selection.attempt == 2
        await press(app, pilot, "h")
        assert app.session.selection.turn == 3 and app.session.selection.attempt == 2
        assert app.session.selection.file == "roman/roman.go"
        await press(app, pilot, "h", "h")
        assert app.session.selection.turn == 1 and app.session.selection.attempt == 1
        await press(app, pilot, "l", "l", "l")
        assert app.session.selection.turn == 4 and app.session.selection.attempt == 2
        view = app.review_screen.query_one(TranscriptPane).view
        assert view.marked is not None
        assert "carry on" in view.plain_lines()[view.marked]


@sync
async def test_nudges_and_tool_calls_are_shown(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        lines = app.review_screen.query_one(TranscriptPane).view.plain_lines()
        assert sum("\u21bb carry on" in line for line in lines) == 2
        assert any("write_file" in line for line in lines)
        assert any(line.strip() == "\u2502 ok" for line in lines)
        assert any("assistant" in line and "attempt 2" in line for line in lines)


@sync
async def test_mouse_clicks_pick_run_check_and_turn(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        nav = app.review_screen.query_one(RunNavigator)
        row = next(i for i, r in enumerate(nav.rows) if r.key == "s2/connected--model-c")
        await pilot.click(RunNavigator, offset=(6, row))
        await settle(app, pilot)
        assert app.session.selection.failure_id == FAILURES[4]
        checks = app.review_screen.query_one("#checks", TextView)
        line = next(i for i, text in enumerate(checks.plain_lines()) if "edges" in text)
        await pilot.click(checks, offset=(4, line))
        await settle(app, pilot)
        assert app.session.selection.failure_id == FAILURES[5]
        transcript = app.review_screen.query_one("#transcript-view", TextView)
        await pilot.click(transcript, offset=(4, 0))
        await settle(app, pilot)
        assert app.session.selection.turn == 0


@sync
async def test_grader_pane_shows_checks_and_scrolls_output_to_failure(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        grader = app.review_screen.query_one(GraderPane)
        checks = grader.checks_view.plain_lines()
        assert checks[0].startswith("\u2717 TestToRoman")
        assert any(line.startswith("\u2713 TestFromRoman") for line in checks)
        assert any(line.startswith("\u2013 TestSlow") for line in checks)
        assert "go test -v ./..." in header(app, "grader") and "exit 1" in header(app, "grader")
        output = grader.output_view
        assert output.marked is not None and "IIII" in output.plain_lines()[output.marked]
        await press(app, pilot, "j")
        assert "3999" in output.plain_lines()[output.marked or 0]
        coloured = output.lines[2]
        assert coloured.plain.startswith("--- FAIL") and coloured.spans
        await press(app, pilot, "j")
        assert any(line.startswith("! path") for line in grader.checks_view.plain_lines())


@sync
async def test_a_long_file_reached_by_a_key_gets_its_colours_after_its_plain_lines(tmp_path: Path) -> None:
    # a view read for a selection without a turn is taken with its first turn: its colours, which
    # come after its plain lines, were matched to the selection as asked and never drawn
    from uikit import Spec, write_session

    from reviewer.ui.render.panes import COLOUR_LATER_LINES

    long = "".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(COLOUR_LATER_LINES))
    write_session(tmp_path / "sessions", "s", [
        Spec("a-short", checks=[{"key": "TestA", "status": "fail"}]),
        Spec("b-long", attempts=[{"long.py": long}], checks=[{"key": "TestB", "status": "fail"}]),
    ])
    app = make_app(tmp_path / "sessions")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "j")
        await settle(app, pilot)
        code = app.review_screen.query_one(CodePane)
        assert app.session.selection.run_key == "s/b-long" and app.session.selection.turn is not None
        assert code.shown_coloured and any(line.spans for line in code.view.lines[:10])
