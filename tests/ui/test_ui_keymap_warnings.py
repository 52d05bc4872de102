"""A [keys] table the app cannot use is reported where the reviewer looks, and the default keys
keep working: an unknown key name (``ctrl+shift+banana``) and an unknown action (binding id)."""

from __future__ import annotations

import os
from pathlib import Path

from clikit import cli
from uihelp import make_app, press, settle, sync, warning_bar

from reviewer.store.settings.config import load_settings
from reviewer.ui.bindings import DEFAULT_KEYS
from reviewer.ui.widgets.keybar import KeyBar

BAD_KEYS = '[keys]\nnext-failure = "ctrl+shift+banana"\nnext-falure = "n"\nlabel-capability = "w"\n'


def write_config(text: str) -> Path:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "reviewer" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@sync
async def test_unknown_key_names_and_actions_are_in_the_warning_bar_and_the_defaults_work(basic: Path) -> None:
    path = write_config(BAD_KEYS)
    settings, warnings = load_settings(known_binding_ids=DEFAULT_KEYS)  # as `reviewer FOLDER` starts the app
    assert settings.keys == {"label-capability": "w"}  # the good remap is kept
    app = make_app(basic, reviewer="alice", keymap=settings.keys, settings=settings, warnings=warnings)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        bar = warning_bar(app)
        assert bar is not None and bar.display
        text = bar.text()
        assert str(path) in text
        assert "'next-failure' = 'ctrl+shift+banana'" in text and "not a key name" in text
        assert "'next-falure' is not a binding id (did you mean next-failure?)" in text
        bar_widget = app.review_screen.query_one(KeyBar)
        footer = "".join(p.text for p in (*bar_widget.left, *bar_widget.right))
        assert "banana" not in footer and " j k " in footer  # the footer shows the default key, no garbage
        first = app.session.selection.failure_id
        await press(app, pilot, "j")  # the default key of next-failure still works
        here = app.session.selection.failure_id
        assert here != first
        await press(app, pilot, "w")  # and the valid remap applies
        label = app.session.decisions.label(here)
        assert label is not None and label.verdict.value == "capability"


def test_reviewer_check_reports_the_settings_problems(basic: Path) -> None:
    path = write_config(BAD_KEYS)
    done = cli("check", str(basic))
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any(ln.startswith(f"{path}: [keys] 'next-failure' = 'ctrl+shift+banana'") for ln in lines), lines
    assert any("'next-falure' is not a binding id" in ln for ln in lines), lines
    assert "settings problem" in lines[-1]
    write_config('[keys]\nlabel-capability = "w"\n')
    assert cli("check", str(basic)).returncode == 0
