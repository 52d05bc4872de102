"""The tag picker (t): a mark on each set tag, not colour alone; a new tag added to the folder's
vocabulary from the picker (saved in tags.toml at once, as ``label --new-tag`` does); keyboard only
and with the mouse."""

from __future__ import annotations

import tomllib
from pathlib import Path

from textual.widgets import Input, Static
from uihelp import make_app, press, settle, sync

from reviewer.model.label import DEFAULT_TAGS
from reviewer.ui.dialogs.annotate import TagList, TagsDialog

F1 = "s1/roman-go--model-a#heldout:TestToRoman"


def rows(app) -> list[str]:  # type: ignore[no-untyped-def]
    """The picker's rows as shown."""
    tags = app.screen.query_one(TagList)
    return [str(tags.get_option_at_index(i).prompt) for i in range(tags.option_count)]


def said(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#tags-said", Static).content)


def tags_file(folder: Path) -> list[str]:
    return tomllib.loads((folder / "tags.toml").read_text())["tags"]


@sync
async def test_keyboard_only_marks_tags_adds_one_to_the_vocabulary_and_saves(basic: Path) -> None:
    (basic / "tags.toml").write_text('# the team\'s tags\ntags = ["unpublished-key", "separator"]\n')
    app = make_app(basic, reviewer="alice", start_failure=F1)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "t")
        assert isinstance(app.screen, TagsDialog)
        assert rows(app) == ["[ ] unpublished-key", "[ ] separator"]
        await press(app, pilot, "down", "space")
        assert rows(app) == ["[ ] unpublished-key", "[x] separator"]  # a mark, not colour alone
        await press(app, pilot, "space", "space", "tab")
        assert isinstance(app.focused, Input) and app.focused.id == "new-tag"
        await pilot.press(*"wrong-folder")
        await press(app, pilot, "enter")  # in the box, enter adds the tag: the dialog stays
        assert isinstance(app.screen, TagsDialog)
        assert rows(app)[-1] == "[x] wrong-folder" and app.screen.query_one(Input).value == ""
        assert "Added wrong-folder to the vocabulary" in said(app) and "tags.toml" in said(app)
        assert tags_file(basic) == ["unpublished-key", "separator", "wrong-folder"]  # saved at once
        assert "# the team's tags" in (basic / "tags.toml").read_text()  # the file is edited, not rewritten
        assert app.session.vocabulary == ("unpublished-key", "separator", "wrong-folder")
        await press(app, pilot, "enter")  # the box is empty: enter saves the failure's tags
        assert app.screen is app.review_screen
        assert app.session.labeller.annotation(F1)[1] == ("separator", "wrong-folder")
        await press(app, pilot, "t")
        assert rows(app) == ["[ ] unpublished-key", "[x] separator", "[x] wrong-folder"]  # the next time too
        await press(app, pilot, "escape")
    labels = "".join(p.read_text() for p in (basic / "s1" / "labels" / "alice").iterdir())
    assert "wrong-folder" in labels and "separator" in labels


@sync
async def test_with_the_mouse(basic: Path) -> None:
    app = make_app(basic, reviewer="alice", start_failure=F1)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "t")
        assert rows(app) == [f"[ ] {t}" for t in DEFAULT_TAGS]  # no tags.toml: the defaults
        tags = app.screen.query_one(TagList)
        await pilot.click(TagList, offset=(6, 2))  # the second tag (below the top border and the first)
        await settle(app, pilot)
        assert rows(app)[1] == f"[x] {DEFAULT_TAGS[1]}"
        assert tags is app.screen.query_one(TagList)
        await pilot.click("#new-tag")
        await pilot.press(*"harness-timeout")
        await pilot.click("#tags-add")
        await settle(app, pilot)
        assert rows(app)[-1] == "[x] harness-timeout"
        assert tags_file(basic) == [*DEFAULT_TAGS, "harness-timeout"]  # a new file: the defaults and the tag
        await pilot.click("#tags-save")
        await settle(app, pilot)
        assert app.screen is app.review_screen
        assert app.session.labeller.annotation(F1)[1] == (DEFAULT_TAGS[1], "harness-timeout")


@sync
async def test_a_vocabulary_that_cannot_be_changed_is_said_in_the_dialog(basic: Path) -> None:
    (basic / "tags.toml").write_text('tags = ["a", "b"]\nbroken = [\n')
    app = make_app(basic, reviewer="alice", start_failure=F1)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "t", "tab")
        await pilot.press(*"new")
        await press(app, pilot, "enter")
        assert isinstance(app.screen, TagsDialog)
        assert said(app).startswith("Not added:") and "not changed" in said(app)
        assert app.screen.query_one(Input).value == "new"  # kept, to fix or cancel
        assert "[x] new" not in rows(app)
        await press(app, pilot, "escape")
        assert app.session.labeller.annotation(F1)[1] == ()
    assert (basic / "tags.toml").read_text() == 'tags = ["a", "b"]\nbroken = [\n'
