"""The footer (KeyBar): Textual Footer's layout from one widget, clicks press keys, it follows the
screen's bindings (remapped keys, the warning bar's key) and lays out again only on a change."""

from __future__ import annotations

import os
from pathlib import Path

from textual.binding import Binding
from uihelp import make_app, press, settle, sync, warning_bar

from reviewer.store.settings.config import load_settings
from reviewer.ui.bindings import DEFAULT_KEYS, TABLE
from reviewer.ui.widgets.keybar import KeyBar, lay_out

MOVE = Binding.Group("move")
LABEL = Binding.Group("label", compact=True)


def line(pieces: list) -> str:  # type: ignore[type-arg]
    return "".join(p.text for p in pieces)


def test_layout_is_the_footers_keys_groups_and_palette() -> None:
    shown = (
        (Binding("ctrl+q", "quit", "Quit"), True, ""),
        (Binding("j", "next", "Next", group=MOVE), True, ""),
        (Binding("k", "prev", "Previous", group=MOVE), False, "back one"),
        (Binding("s", "spec", "Spec", group=LABEL), True, ""),
        (Binding("c", "cap", "Cap", group=LABEL), True, ""),
        (Binding("n", "note", "Note", tooltip="write a note"), True, ""),
    )
    palette = (Binding("ctrl+p", "command_palette", "palette"), True, "")
    left, right, items = lay_out(shown, lambda b: b.key.upper(), palette)
    text = line(left)
    assert text == " CTRL+Q Quit  J K move  SC label  N Note "
    assert line(right) == "\u258fCTRL+P palette "
    assert [i.key for i in items] == ["ctrl+q", "j", "k", "s", "c", "n", "ctrl+p"]
    # each key's columns cover its key (and its description when it has its own)
    assert [text[i.start:i.end] for i in items[:6]] == [" CTRL+Q Quit ", "J", "K", "S", "C", " N Note "]
    assert line(right)[items[6].start:items[6].end] == "CTRL+P palette "
    assert [i.enabled for i in items] == [True, True, False, True, True, True, True]
    assert items[2].tooltip == "back one" and items[1].tooltip == "Next" and items[5].tooltip == "write a note"
    assert [p.kind for p in left if p.text.strip() in ("J", "move")] == ["key", "description"]


def test_a_lone_member_of_a_group_shows_as_a_key_with_its_description() -> None:
    left, _, _ = lay_out(((Binding("j", "next", "Next", group=MOVE), True, ""),), lambda b: b.key)
    assert line(left) == " j Next "


def bar_text(app) -> str:  # type: ignore[no-untyped-def]
    bar = app.review_screen.query_one(KeyBar)
    return line(bar.left) + line(bar.right)


@sync
async def test_the_bar_lists_every_footer_key_and_a_click_presses_it(basic: Path) -> None:
    app = make_app(basic, reviewer="ana")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        text = bar_text(app)
        for e in TABLE:
            b = e.binding
            if b.show and b.id != "dismiss-warning":  # that one only while the warning bar is up
                assert (b.group.description if b.group else b.description) in text, b.id
        assert "\u258f^p palette" in text
        rendered = "".join(s.text for s in app.review_screen.query_one(KeyBar).render_line(0))
        assert rendered.startswith(" ^q Quit  j k failure  sc label  n Note")
        assert rendered.rstrip().endswith("\u258f^p palette") and len(rendered) == 200
        bar = app.review_screen.query_one(KeyBar)
        first = app.session.selection.failure_id
        j = next(i for i in bar.items if i.key == "j")
        await pilot.click(KeyBar, offset=(j.start, 0))
        await settle(app, pilot, 3)
        assert app.session.selection.failure_id != first
        k = next(i for i in bar.items if i.key == "k")
        await pilot.click(KeyBar, offset=(k.start, 0))
        await settle(app, pilot, 3)
        assert app.session.selection.failure_id == first
        help_key = next(i for i in bar.items if i.key == "question_mark")
        await pilot.click(KeyBar, offset=(help_key.end - 2, 0))  # on the word "Help"
        await settle(app, pilot, 3)
        assert app.screen is not app.review_screen  # the help screen


@sync
async def test_hover_highlights_a_key_and_shows_its_tooltip(basic: Path) -> None:
    app = make_app(basic, reviewer="ana")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        bar = app.review_screen.query_one(KeyBar)
        note = next(n for n, i in enumerate(bar.items) if i.key == "n")
        plain = [s.style for s in bar.render_line(0)]
        await pilot.hover(KeyBar, offset=(bar.items[note].start + 1, 0))
        await pilot.pause()
        assert bar.hover == note and bar.tooltip == "Write a note on this failure"
        assert [s.style for s in bar.render_line(0)] != plain
        await pilot.hover(KeyBar, offset=(120, 0))  # between the keys and the palette key: none
        await pilot.pause()
        assert bar.hover == -1 and bar.tooltip is None


@sync
async def test_the_bar_follows_remapped_keys_and_the_warning_bar(basic: Path) -> None:
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "reviewer"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text('theme = "no-such-theme"\n[keys]\nnote = "N"\n')
    settings, warnings = load_settings(known_binding_ids=DEFAULT_KEYS)
    app = make_app(basic, reviewer="ana", keymap=settings.keys, settings=settings, warnings=warnings)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert warning_bar(app) is not None
        text = bar_text(app)
        assert " N Note " in text and " n Note " not in text
        assert "Dismiss warning" in text
        await press(app, pilot, "ctrl+w")
        assert warning_bar(app) is None
        assert "Dismiss warning" not in bar_text(app)


@sync
async def test_moving_focus_lays_the_bar_out_again_only_when_its_keys_change(basic: Path) -> None:
    app = make_app(basic, reviewer="ana")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        bar = app.review_screen.query_one(KeyBar)
        await press(app, pilot, "tab")  # into the panes: the run list's own key (enter) goes
        items = bar.items
        await press(app, pilot, "tab", "tab")  # the focus moves between panes: the same keys show
        assert app.focused is not None and app.focused.id != "runs"
        assert bar.items is items


def test_a_narrow_bar_leaves_off_whole_keys_least_needed_first_and_keeps_help_and_palette() -> None:
    from reviewer.ui.widgets.keybar import fit

    by_id = {e.binding.id: e.binding for e in TABLE}
    shown = tuple((by_id[i], True, "") for i in ("quit", "next-failure", "prev-failure", "label-specification",
                                                  "label-capability", "note", "defer", "rescore", "help"))
    palette = (Binding("ctrl+p", "command_palette", "palette"), True, "")
    wide = fit(shown, lambda b: b.key, palette, 200)
    assert wide[:2] == lay_out(shown, lambda b: b.key, palette)[:2]  # room for everything: nothing left off
    left, right, items = fit(shown, lambda b: b.key, palette, 70)
    text = line(left)
    assert len(text) + len(line(right)) <= 70 and line(right) == "\u258fctrl+p palette "
    assert "Re-score" not in text and " q,ctrl+q Quit " not in text  # the first to go
    assert " question_mark Help " in text and "j k failure" in text and "sc label" in text
    assert [i.key for i in items][-1] == "ctrl+p"
    tiny = line(fit(shown, lambda b: b.key, palette, 40)[0])
    assert tiny == " question_mark Help "  # only the help key is never left off
