"""Across models (a), the task x model matrix (M) and the "decidable by re-scoring" mark, on the example corpus."""

from __future__ import annotations

from pathlib import Path

import pytest
from sessionkit import example_corpus, example_corpus_built
from textual.widgets import DataTable, Static
from uihelp import make_app, press, settle, sync
from uikit import HOSTILE_SHOWN

from reviewer.model.label import Verdict
from reviewer.store.labels import Labeller, LabelStore
from reviewer.store.sessions.store import SessionStore
from reviewer.store.settings.config import Settings
from reviewer.ui.screens.across import AcrossScreen
from reviewer.ui.screens.matrix import MatrixScreen
from reviewer.ui.widgets.evidence import EvidencePanel

CHECK = "oracle:oracle_fast_expt.py::test_mults_within_log_bound"
COBALT = f"oracle-2026-10/fast-expt--cobalt-mini#{CHECK}"
EMBER = f"oracle-2026-10/fast-expt--ember-9b#{CHECK}"
ATLAS = f"oracle-2026-10/fast-expt--atlas-7b#{CHECK}"
GALE = "oracle-2026-10/fast-expt--gale-13b#oracle:oracle_fast_expt.py::test_small_powers"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A private copy of the example corpus, without its labels."""
    if not example_corpus_built():
        pytest.skip("the example corpus is not built")
    return example_corpus(tmp_path / "sessions")


def decide(folder: Path, reviewer: str, verdicts: dict[str, Verdict]) -> None:
    """Save a reviewer's labels, as another person would have."""
    store = SessionStore(folder)
    store.scan()
    labeller = Labeller(store, LabelStore(folder, reviewer))
    for fid, verdict in verdicts.items():
        labeller.decide(fid, verdict)


def rows(table: DataTable) -> list[list[str]]:  # type: ignore[type-arg]
    """Every row of a table as plain strings."""
    return [[cell.plain for cell in table.get_row_at(i)] for i in range(table.row_count)]


@sync
async def test_across_lists_every_model_with_labels_and_enter_opens_the_run(corpus: Path) -> None:
    decide(corpus, "alice", {ATLAS: Verdict.SPECIFICATION})
    decide(corpus, "bob", {EMBER: Verdict.CAPABILITY, ATLAS: Verdict.CAPABILITY})
    app = make_app(corpus, reviewer="alice", start_failure=COBALT)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "a")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, AcrossScreen)
        shown = {r[1]: r for r in rows(screen.query_one(DataTable))}
        assert list(shown) == ["cobalt-mini", "atlas-7b", "breeze-large", "delta-pro", "ember-9b", "gale-13b"]
        assert rows(screen.query_one(DataTable))[0][0] == "\u25b6"
        assert {m: r[2] for m, r in shown.items()} == {
            "cobalt-mini": "\u2717 fail", "atlas-7b": "\u2717 fail", "breeze-large": "\u2713 pass",
            "delta-pro": "\u2717 fail", "ember-9b": "\u2717 fail", "gale-13b": "\u2713 pass"}
        assert shown["cobalt-mini"][5] == "steps=15" and shown["ember-9b"][5] == "multiplications=16"
        assert shown["delta-pro"][6] == "AssertionError: assert 1000 <= 20" and shown["breeze-large"][6] == ""
        # alice's own label shows; bob's verdicts only where alice decided (blind mode's rule)
        assert shown["atlas-7b"][3] == "\u25c6 specification" and shown["atlas-7b"][4] == "bob \u25b2"
        assert shown["ember-9b"][3] == "" and shown["ember-9b"][4] == ""  # hidden, not even counted
        note = str(screen.query_one("#across-note", Static).content)
        assert "4 of 6 models fail this check, with 3 different notations" in note
        await press(app, pilot, "j", "j", "j", "j", "enter")
        await settle(app, pilot)
        assert app.screen is app.review_screen and app.session.selection.failure_id == EMBER
        # the palette runs the same action
        await app.run_action("screen.across_models")
        await settle(app, pilot)
        assert isinstance(app.screen, AcrossScreen) and app.screen.failure_id == EMBER


@sync
async def test_across_outside_blind_mode_shows_the_others(corpus: Path) -> None:
    decide(corpus, "bob", {EMBER: Verdict.CAPABILITY})
    app = make_app(corpus, reviewer="alice", start_failure=COBALT, settings=Settings(blind=False))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "a")
        await settle(app, pilot)
        shown = {r[1]: r for r in rows(app.screen.query_one(DataTable))}
        assert shown["ember-9b"][4] == "bob \u25b2" and "hidden" not in shown["cobalt-mini"][4]


@sync
async def test_matrix_checks_and_tasks_with_my_verdicts_scroll_and_jump(corpus: Path) -> None:
    decide(corpus, "alice", {COBALT: Verdict.SPECIFICATION})
    decide(corpus, "bob", {EMBER: Verdict.CAPABILITY})
    for size in ((80, 24), (200, 50)):
        app = make_app(corpus, reviewer="alice", start_failure=COBALT)
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await press(app, pilot, "M")
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, MatrixScreen)
            table = screen.query_one(DataTable)
            got = {r[0]: r[1:] for r in rows(table)}
            assert [str(c.label) for c in table.columns.values()] == [
                "check", "atlas-7b", "breeze-large", "cobalt-mini", "delta-pro", "ember-9b", "gale-13b", "share"]
            # my verdict marks; bob's capability on ember-9b is not mine, so no mark
            assert got["test_mults_within_log_bound"] == ["\u2717", "\u2713", "\u2717 \u25c6", "\u2717", "\u2717", "\u2713",
                                                          "4/6 fail \u00b7 you 1\u25c6 0\u25b2"]
            assert got["test_small_powers"][:6] == ["\u2713"] * 5 + ["\u2717"]
            # the cursor starts on the failure on screen: this check, the cobalt-mini run
            assert (table.cursor_row, table.cursor_column) == (2, 3)
            await press(app, pilot, "l", "l", "l", "l")
            assert (table.scroll_x > 0) == (size == (80, 24))
            await press(app, pilot, "t")
            tasks = {r[0]: r[1:] for r in rows(table)}
            assert len(tasks) == 9 and tasks["fast-expt"][:7] == ["\u27172", "\u2713", "\u27172 1\u25c6", "\u27172", "\u27172",
                                                                   "\u00b7", "\u27173"]
            assert table.cursor_row == sorted(tasks).index("fast-expt")
            await press(app, pilot, "t")
            assert len(rows(table)) == 4
            await press(app, pilot, "h", "h", "h", "h", "h", "h", "h", "l", "enter")  # atlas-7b on this check
            await settle(app, pilot)
            assert app.screen is app.review_screen and app.session.selection.failure_id == ATLAS


@sync
async def test_decidable_by_rescoring_marks_a_notation_failure_not_a_capability_one(corpus: Path) -> None:
    for fid, decidable in ((COBALT, True), (GALE, False)):
        app = make_app(corpus, reviewer="alice", start_failure=fid)
        async with app.run_test(size=(200, 50)) as pilot:
            await settle(app, pilot)
            panel = app.review_screen.query_one(EvidencePanel)
            text = str(panel.border_title) + "\n" + "\n".join(panel.view.plain_lines())
            assert panel.failure_id == fid and panel.evidence is not None
            assert panel.decidable is decidable
            assert ("decidable by re-scoring" in text) is decidable
            if decidable:
                assert "re-score: proposed repair rename-key:steps:mults (key steps->mults)" in text
            else:  # its near miss (result= for value=) is a notation the brief states: no mark
                assert "re-score" not in text and panel.evidence.near_misses


@sync
async def test_hostile_names_show_literally_in_across_and_matrix(hostile: Path) -> None:
    app = make_app(hostile, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        for key, kind in (("a", AcrossScreen), ("M", MatrixScreen)):
            await press(app, pilot, key)
            await settle(app, pilot)
            assert isinstance(app.screen, kind)
            table = app.screen.query_one(DataTable)
            cells = [c for r in rows(table) for c in r] + [str(c.label) for c in table.columns.values()]
            assert any(c.startswith(HOSTILE_SHOWN) for c in cells)  # the markup shows as text
            assert not any("\x1b" in c or "\x07" in c for c in cells)
            await press(app, pilot, "escape")
        assert app.is_running and app.screen is app.review_screen
