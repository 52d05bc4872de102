"""Who is labelling: always on the status line; asked once when others have labelled and the name was guessed."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static
from uihelp import make_app, press, settle, sync

from reviewer.model.label import Verdict
from reviewer.store.labels import Labeller, LabelStore
from reviewer.store.sessions.store import SessionStore
from reviewer.store.settings.config import config_path, load_settings
from reviewer.ui.dialogs.name import NameDialog


def status(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.review_screen.query_one("#status", Static).content)


def bob_labels(root: Path) -> None:
    store = SessionStore(root)
    store.scan()
    run = store.run("s1/roman-go--model-a")
    assert run is not None
    Labeller(store, LabelStore(root, "bob")).decide(store.failures(run)[0].id, Verdict.CAPABILITY)


@sync
async def test_the_status_line_says_who_labels_and_where_the_name_came_from(basic: Path) -> None:
    app = make_app(basic, reviewer="Dr. Ana Maria Oliveira-Santos")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert "labelling as Dr. Ana Maria Oliveira-Santos (--reviewer)" in status(app)  # never cut
        assert not isinstance(app.screen, NameDialog)  # a chosen name is not asked for


@sync
async def test_a_guessed_name_is_asked_when_others_labelled_and_the_answer_is_remembered(basic: Path) -> None:
    bob_labels(basic)
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, NameDialog)
        box = app.screen.query_one(Input)
        assert box.value  # prefilled with the guess
        box.value = "carol"
        await press(app, pilot, "enter")
        assert app.screen is app.review_screen
        assert "labelling as carol (config.toml)" in status(app)
        await press(app, pilot, "s")
    assert 'reviewer = "carol"' in config_path().read_text()
    assert (basic / "s1" / "labels" / "carol").is_dir()
    again = make_app(basic, settings=load_settings()[0])  # as the command line opens it: with config.toml
    async with again.run_test(size=(200, 50)) as pilot:
        await settle(again, pilot)
        assert again.screen is again.review_screen and "labelling as carol (config.toml)" in status(again)


@sync
async def test_nobody_else_no_question(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert app.screen is app.review_screen and "labelling as" in status(app)
