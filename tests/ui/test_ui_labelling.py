"""Labelling in the app: one key per decision, on disk before the screen moves on."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from labelkit import run_file, verdicts
from textual.widgets import Static, TextArea
from uihelp import make_app, press, settle, sync

from reviewer.ui.dialogs.annotate import NoteDialog, TagList, TagsDialog
from reviewer.ui.widgets.navigator import RunNavigator
from reviewer.ui.widgets.text_view import TextView


def on_disk(folder: Path, session: str, reviewer: str = "alice") -> dict[str, str]:
    """check id -> verdict of a reviewer's labels of a session on disk."""
    return {fid.split("/", 1)[1]: v for fid, v in verdicts(folder, session, reviewer).items()}


def status(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.review_screen.query_one("#status", Static).content)


@sync
async def test_s_then_c_saves_two_labels_and_moves_on(basic: Path) -> None:
    app = make_app(basic, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        first = app.session.selection.failure_id
        assert first == "s1/roman-go--model-a#heldout:TestToRoman"
        await press(app, pilot, "s")
        assert on_disk(basic, "s1") == {"roman-go--model-a#heldout:TestToRoman": "specification"}
        second = app.session.selection.failure_id
        assert second == "s1/roman-go--model-a#heldout:TestRoundTrip"
        await press(app, pilot, "c")
        assert on_disk(basic, "s1")["roman-go--model-a#heldout:TestRoundTrip"] == "capability"
        assert app.session.selection.run_key == "s2/connected--model-a"  # on to the next run's unlabelled failure
        assert "2/6 labelled" in status(app)
        nav = app.review_screen.query_one(RunNavigator)
        row = next(i for i, r in enumerate(nav.rows) if r.key == "s1/roman-go--model-a")
        assert nav.row_text(row).rstrip().endswith("\u27132/2")
    again = make_app(basic, reviewer="alice")
    async with again.run_test(size=(200, 50)) as pilot:
        await settle(again, pilot)
        assert again.session.selection.failure_id == "s2/connected--model-a#oracle:connected"
        await press(again, pilot, "K", "K")
        checks = again.review_screen.query_one("#checks", TextView).plain_lines()
        assert any("\u25c6 specification" in line for line in checks)
        assert any("\u25b2 capability" in line for line in checks)


@pytest.mark.slow  # its flow is tested on the session in tests/review; this is the same on the screen
@sync
async def test_undo_clear_and_defer(basic: Path) -> None:
    app = make_app(basic, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "s", "c")
        await press(app, pilot, "u")
        assert on_disk(basic, "s1") == {"roman-go--model-a#heldout:TestToRoman": "specification"}
        assert app.session.selection.failure_id == "s1/roman-go--model-a#heldout:TestRoundTrip"
        await press(app, pilot, "ctrl+z")
        assert on_disk(basic, "s1") == {}
        assert app.session.selection.failure_id == "s1/roman-go--model-a#heldout:TestToRoman"
        await press(app, pilot, "space")
        assert on_disk(basic, "s1") == {"roman-go--model-a#heldout:TestToRoman": "deferred"}
        assert app.session.selection.failure_id == "s1/roman-go--model-a#heldout:TestRoundTrip"
        assert "0/6 labelled" in status(app)  # deferred counts as unlabelled
        await press(app, pilot, "k")
        assert "\u2026 deferred" in app.review_screen.query_one("#checks", TextView).plain_lines()[0]
        await press(app, pilot, "x")
        assert on_disk(basic, "s1") == {}
        await press(app, pilot, "space", "F", "F", "F")
        nav = app.review_screen.query_one(RunNavigator)
        assert nav.listing.filter.value == "deferred" and nav.order == ["s1/roman-go--model-a"]


@sync
async def test_note_and_tags_are_saved_with_the_label(basic: Path) -> None:
    app = make_app(basic, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        fid = app.session.selection.failure_id
        await press(app, pilot, "n")
        assert isinstance(app.screen, NoteDialog)
        app.screen.query_one(TextArea).insert("the brief never says IV\nsecond line")
        await press(app, pilot, "ctrl+s")
        # a note on an unlabelled failure invents no verdict: a note-only entry, still unlabelled
        assert app.session.decisions.label(fid) is None
        assert app.session.labeller.note_of(fid).note == "the brief never says IV\nsecond line"
        await press(app, pilot, "t")
        assert isinstance(app.screen, TagsDialog)
        tags = app.screen.query_one(TagList)
        await press(app, pilot, "space", "down", "space", "enter")
        assert app.session.decisions.label(fid) is None
        assert app.session.labeller.annotation(fid) == ("the brief never says IV\nsecond line", tuple(app.session.vocabulary[:2]))
        assert tags is not None
        await press(app, pilot, "s")
        lab = app.session.decisions.label(fid)
        assert lab.verdict.value == "specification" and lab.note.startswith("the brief") and len(lab.tags) == 2
    text = run_file(basic, "s1", "roman-go--model-a").read_text()
    assert "the brief never says IV" in text and app.session.vocabulary[0] in text


@sync
async def test_a_failed_save_is_kept_and_saved_when_the_fault_is_gone(basic: Path) -> None:
    path = run_file(basic, "s1", "roman-go--model-a")
    path.mkdir(parents=True)  # the labels file is a directory: it cannot be written
    app = make_app(basic, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "s")
        assert app.session.decisions.label("s1/roman-go--model-a#heldout:TestToRoman").verdict.value == "specification"
        assert "not saved yet" in status(app)
        assert any("not saved" in (n.title or "") for n in app.notes)
        shutil.rmtree(path)
        app.watch_labels()
        await settle(app, pilot)
        assert on_disk(basic, "s1") == {"roman-go--model-a#heldout:TestToRoman": "specification"}
        assert "not saved yet" not in status(app)
