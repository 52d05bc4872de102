"""Pilot tests: layout at both sizes, panes, filter, search, find, help, palette, keymap, labels."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static
from uihelp import make_app, palette_offers, press, settle, sync, until

from reviewer.ui.bindings import BY_ID, LABELLING_IDS, TABLE
from reviewer.ui.dialogs.annotate import NoteDialog
from reviewer.ui.screens.errors import ErrorsScreen
from reviewer.ui.screens.help import HelpScreen
from reviewer.ui.widgets.chrome import PANE_IDS, NavigatorPanel
from reviewer.ui.widgets.code import CodePane
from reviewer.ui.widgets.navigator import RunNavigator
from reviewer.ui.widgets.pane import Pane
from reviewer.ui.widgets.pane_tabs import PaneTabs
from reviewer.ui.widgets.text_view import TextView
from reviewer.ui.widgets.workspace import pane_of

TITLES = {"brief": "Brief", "code": "Code", "grader": "Grader", "transcript": "Transcript"}


def notes(app) -> list[str]:  # type: ignore[no-untyped-def]
    """Messages notified so far."""
    return [n.message for n in app.notes]


@sync
async def test_wide_screen_shows_all_four_panes_beside_the_run_list(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        screen = app.review_screen
        regions = []
        for pane_id in PANE_IDS:
            pane = screen.query_one(f"#{pane_id}", Pane)
            assert str(pane.border_title) == TITLES[pane_id]
            assert pane.region.width > 40 and pane.region.height > 10
            regions.append(pane.region)
        assert len({(r.x, r.y) for r in regions}) == 4
        nav = screen.query_one(NavigatorPanel)
        assert nav.region.width > 20 and all(nav.region.right <= r.x for r in regions)
        assert not screen.query(PaneTabs)  # made only once the screen is narrow


@sync
async def test_narrow_screen_reaches_every_pane_with_tab_and_the_tab_follows(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = app.review_screen
        tabs = screen.query_one(PaneTabs)
        assert tabs.display and tabs.region.height > 0
        assert isinstance(app.focused, RunNavigator)
        reached = []
        for _ in range(5):  # brief, code, checks, output, transcript
            await press(app, pilot, "tab")
            pane = pane_of(app.focused)
            assert pane is not None, (app.focused, reached)
            assert pane.region.width > 30 and pane.region.height > 5
            assert tabs.active == f"tab-{pane.id}"
            for other in PANE_IDS:
                assert screen.query_one(f"#{other}").region.height == 0 or other == pane.id
            reached.append(pane.id)
        assert set(reached) == set(PANE_IDS)
        await press(app, pilot, "tab")
        assert isinstance(app.focused, RunNavigator)
        await press(app, pilot, "shift+tab")
        assert pane_of(app.focused).id == "transcript"  # type: ignore[union-attr]
        code_lines = screen.query_one(CodePane).view.plain_lines()
        assert any("IIII" in line for line in code_lines)
        await pilot.resize_terminal(200, 50)
        await settle(app, pilot)
        assert not tabs.display and all(screen.query_one(f"#{p}").region.height > 10 for p in PANE_IDS)


@sync
async def test_clicking_a_tab_shows_that_pane(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.click("#tab-grader")
        await settle(app, pilot)
        screen = app.review_screen
        assert screen.workspace.active_pane == "grader"
        assert screen.query_one("#grader").region.height > 5
        assert pane_of(app.focused).id == "grader"  # type: ignore[union-attr]


@sync
async def test_maximise_and_restore_the_focused_pane(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "tab", "tab")
        assert isinstance(app.focused, TextView) and app.focused.id == "code-view"
        await press(app, pilot, "m")
        assert app.screen.maximized is app.review_screen.query_one(CodePane)
        await press(app, pilot, "m")
        assert app.screen.maximized is None


@sync
async def test_run_search_from_a_maximised_pane_restores_it_and_escape_closes_the_search(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        nav = app.review_screen.query_one(RunNavigator)
        await press(app, pilot, "tab", "tab", "m")
        assert app.screen.maximized is app.review_screen.query_one(CodePane)
        await press(app, pilot, "slash")
        assert app.screen.maximized is None  # the search box is in the run list: the panes come back
        assert app.focused is not None and app.focused.id == "run-search"
        await pilot.press(*"model-c")
        await until(app, pilot, lambda: nav.order == ["s2/connected--model-c"], what="the filtered list")
        await press(app, pilot, "escape")
        assert isinstance(app.focused, RunNavigator)
        assert not app.review_screen.query_one("#run-search").display
        assert len(nav.order) == 5
        await press(app, pilot, "m")
        assert app.screen.maximized is app.review_screen.query_one(NavigatorPanel)
        await press(app, pilot, "slash")  # the run list maximised: it stays so while searching
        assert app.screen.maximized is app.review_screen.query_one(NavigatorPanel)
        assert app.focused is not None and app.focused.id == "run-search"
        await press(app, pilot, "escape")
        assert isinstance(app.focused, RunNavigator)


@sync
async def test_toggle_navigator(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        nav = app.review_screen.query_one(NavigatorPanel)
        await press(app, pilot, "ctrl+b")
        assert not nav.display
        assert pane_of(app.focused) is not None
        await press(app, pilot, "ctrl+b")
        assert nav.display


def label_run(folder: Path, run_key: str, reviewer: str, verdict: str) -> None:
    """Label every failure of a run through the app's own label path."""
    from reviewer.model.label import Verdict
    from reviewer.store.labels import Labeller, LabelStore
    from reviewer.store.sessions.store import SessionStore

    store = SessionStore(folder)
    store.scan()
    labeller = Labeller(store, LabelStore(folder, reviewer))
    run = store.run(run_key)
    assert run is not None
    for failure in store.failures(run):
        labeller.decide(failure.id, Verdict(verdict))


@sync
async def test_filter_cycles_failing_unlabelled_deferred_all(basic: Path) -> None:
    label_run(basic, "s1/roman-go--model-a", "tester", "capability")
    app = make_app(basic, reviewer="tester")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        nav = app.review_screen.query_one(RunNavigator)
        assert len(nav.order) == 5
        assert "2/6 labelled" in str(app.review_screen.query_one("#status", Static).content)
        assert app.session.selection.run_key == "s2/connected--model-a"  # opens at the first unlabelled failure
        row = next(i for i, r in enumerate(nav.rows) if r.key == "s1/roman-go--model-a")
        assert nav.row_text(row).rstrip().endswith("\u27132/2")
        await press(app, pilot, "K", "K")
        assert app.session.selection.run_key == "s1/roman-go--model-a"
        assert "\u25b2 capability" in app.review_screen.query_one("#checks", TextView).plain_lines()[0]
        await press(app, pilot, "F")
        assert nav.listing.filter.value == "failing"
        assert nav.order == ["s1/roman-go--model-a", "s2/connected--model-a", "s2/connected--model-c"]
        await press(app, pilot, "F")
        assert nav.listing.filter.value == "unlabelled"
        assert nav.order == ["s2/connected--model-a", "s2/connected--model-c"]
        await press(app, pilot, "j")
        assert app.session.selection.run_key == "s2/connected--model-a"
        await press(app, pilot, "F")
        assert nav.listing.filter.value == "deferred" and nav.order == []
        await press(app, pilot, "F")
        assert nav.listing.filter.value == "all" and len(nav.order) == 5


@sync
async def test_search_filters_runs_and_escape_clears(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        nav = app.review_screen.query_one(RunNavigator)
        await press(app, pilot, "slash")
        assert app.focused is not None and app.focused.id == "run-search"
        await pilot.press(*"model-c")
        await until(app, pilot, lambda: nav.order == ["s2/connected--model-c"], what="the filtered list")
        assert nav.order == ["s2/connected--model-c"]
        assert app.session.selection.run_key == "s1/roman-go--model-a"  # typing j/k letters did not navigate
        await press(app, pilot, "enter")  # the first match's failure opens (the list alone used to change)
        assert isinstance(app.focused, RunNavigator)
        first = "s2/connected--model-c#oracle:connected"
        assert app.session.selection.failure_id == first
        assert app.session.shown is not None and app.session.shown.selection.failure_id == first
        assert nav.current == "s2/connected--model-c"
        await press(app, pilot, "j")
        assert app.session.selection.failure_id == "s2/connected--model-c#oracle:edges"
        await press(app, pilot, "slash", "escape")
        assert len(nav.order) == 5


@sync
async def test_find_in_pane_highlights_and_steps(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "tab", "tab", "tab", "tab")
        assert app.focused is not None and app.focused.id == "output"
        await press(app, pilot, "ctrl+f")
        assert app.focused is not None and app.focused.id == "find-input"
        await pilot.press(*"fail")
        await settle(app, pilot)
        output = app.review_screen.query_one("#output", TextView)
        assert len(output.matches) == 4  # 3 x FAIL, 1 x failed
        first = output.current_match
        await press(app, pilot, "enter")
        assert output.current_match == (first + 1) % 4
        assert f"{output.current_match + 1}/4" in str(app.review_screen.query_one("#find-count", Static).content)
        await press(app, pilot, "escape")
        assert app.focused is output
        await press(app, pilot, "n")
        assert output.current_match == (first + 2) % 4
        await press(app, pilot, "escape", "n")
        assert not output.find_query
        assert isinstance(app.screen, NoteDialog)  # with no find active, n is the note key again
        await press(app, pilot, "escape")


@sync
async def test_help_lists_every_binding_including_labelling(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-text", Static).content)
        for e in TABLE:  # what each key does, and at 200 columns its id (for [keys] in config.toml)
            assert e.binding.id in text and e.binding.tooltip[:40] in text
        for binding_id in LABELLING_IDS:
            assert binding_id in text
        for binding_id in ("next-failure", "prev-failure", "next-run", "prev-run", "transcript-forward",
                           "transcript-back", "next-attempt", "prev-attempt", "next-file", "toggle-diff",
                           "focus-next", "focus-prev", "maximise", "search-runs", "cycle-filter", "find-in-pane",
                           "copy-failure", "help", "quit", "label-specification", "label-capability", "clear-label",
                           "undo", "note", "tags", "defer"):
            assert binding_id in BY_ID and binding_id in text
        await press(app, pilot, "escape")
        assert app.screen is app.review_screen


@sync
async def test_keymap_remaps_by_id_and_help_follows(basic: Path) -> None:
    app = make_app(basic, keymap={"next-failure": "g"})
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "j")
        assert app.session.selection.failure_id.endswith("TestToRoman")
        await press(app, pilot, "g")
        assert app.session.selection.failure_id.endswith("TestRoundTrip")
        await press(app, pilot, "question_mark")
        text = str(app.screen.query_one("#help-text", Static).content)
        line = next(ln for ln in text.splitlines() if "next-failure" in ln)
        assert line.strip().startswith("g ")


@sync
async def test_command_palette_runs_binding_actions(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "ctrl+p")
        await pilot.press(*"next failure")
        await until(app, pilot, lambda: palette_offers(app, "next failure"), what="the palette offering next failure")
        await press(app, pilot, "enter")
        await settle(app, pilot)
        assert app.session.selection.failure_id.endswith("TestRoundTrip")


@sync
async def test_copy_failure(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "y")
        assert app.clipboard == 's1/roman-go--model-a#heldout:TestToRoman\nToRoman(4) = "IIII", want "IV"'


@sync
async def test_load_errors_are_counted_and_listed(basic: Path) -> None:
    broken = basic / "s1" / "runs" / "broken"
    broken.mkdir(parents=True)
    (broken / "run.toml").write_text("format = 1\n[run\n")
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert "1 not loaded" in str(app.review_screen.query_one("#status", Static).content)
        await press(app, pilot, "E")
        assert isinstance(app.screen, ErrorsScreen)
        lines = app.screen.query_one(TextView).plain_lines()
        assert any(line.startswith("s1/runs/broken/run.toml") for line in lines)


@sync
async def test_theme_change_repaints_without_errors(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        app.theme = "textual-light"
        await settle(app, pilot)
        await press(app, pilot, "j", "d")
        app.theme = "textual-dark"
        await settle(app, pilot)
        assert app.is_running and app.session.selection.diff


@sync
async def test_an_empty_folder_says_so_in_every_pane(tmp_path: Path) -> None:
    empty = tmp_path / "sessions"
    empty.mkdir()
    app = make_app(empty)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        screen = app.review_screen
        for pane_id in PANE_IDS:
            header = str(screen.query_one(f"#{pane_id} .pane-header", Static).content)
            assert header == "no runs in this folder"
