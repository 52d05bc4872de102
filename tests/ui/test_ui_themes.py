"""Themes and settings in the app: shipped themes, switching from the palette (code colours
included), persistence, the non-modal warning bar for broken theme files, remapped keys and
auto-advance. XDG_CONFIG_HOME points into tmp_path (tests/conftest.py)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from labelkit import verdicts
from pygments.lexers import get_lexer_by_name
from textual.color import Color
from textual.widgets import Input
from uihelp import make_app, palette_offers, press, settle, sync, until, warning_bar

from reviewer.store.settings.config import load_settings
from reviewer.ui.app import ReviewApp
from reviewer.ui.bindings import DEFAULT_KEYS
from reviewer.ui.theming import code_background, highlight_styles
from reviewer.ui.widgets.text_view import TextView
from reviewer.ui.widgets.warning_bar import WarningBar

SHIPPED = ("reviewer-dark", "reviewer-light", "reviewer-cvd")
FIRST = "s1/roman-go--model-a#heldout:TestToRoman"


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/reviewer`` of this test."""
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "reviewer"
    path.mkdir(parents=True, exist_ok=True)
    return path


def launched(folder: Path) -> ReviewApp:
    """The app as ``reviewer FOLDER`` builds it: settings and keymap from config.toml."""
    settings, warnings = load_settings(known_binding_ids=DEFAULT_KEYS)
    return make_app(folder, reviewer="alice", keymap=settings.keys, settings=settings, warnings=warnings)


def on_disk(folder: Path, session: str = "s1") -> dict[str, str]:
    """check id -> verdict in alice's labels file of a session."""
    return {fid.split("/", 1)[1]: v for fid, v in verdicts(folder, session).items()}


def segment_color(view: TextView, line: int, text: str) -> Any:
    """The foreground colour of the first rendered segment of a line that contains ``text``."""
    for segment in view.render_line(line - int(view.scroll_offset.y)):
        if text in segment.text:
            return segment.style.color.get_truecolor() if segment.style and segment.style.color else None
    raise AssertionError(f"{text!r} not on line {line}: {view.plain_lines()[line]!r}")


def expected_color(app: ReviewApp, theme: str, language: str, word: str) -> tuple[int, int, int]:
    """The colour the theme's Pygments style gives ``word`` (its token type, or the nearest parent)."""
    styles = highlight_styles(app.themes.specs[theme])
    token = next(t for t, v in get_lexer_by_name(language).get_tokens(word) if v == word)
    while token not in styles:
        token = token.parent
    colour = next(w for w in styles[token].split() if w.startswith("#"))
    return Color.parse(colour).rgb


async def switch_in_palette(app: ReviewApp, pilot: Any, name: str) -> None:
    """Pick "Theme: <name>" in the command palette."""
    await press(app, pilot, "ctrl+p")
    app.screen.query_one(Input).value = f"theme: {name}"  # typed at once: one search, not twenty
    await until(app, pilot, lambda: palette_offers(app, name), what=f"the palette offering {name}")
    await press(app, pilot, "enter")
    await settle(app, pilot)


@sync
async def test_shipped_themes_are_registered_and_reviewer_dark_is_the_default(basic: Path) -> None:
    app = launched(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert set(SHIPPED) <= set(app.available_themes)
        assert app.theme == "reviewer-dark"
        spec = app.themes.specs["reviewer-dark"]
        assert app.theme_variables["verdict-specification"] == spec.specification_color
        code = app.review_screen.query_one("#code-view", TextView)
        assert code.styles.background.rgb == Color.parse(code_background(spec)).rgb
        assert warning_bar(app) is None  # nothing wrong: no bar, and ctrl+w does nothing
        await press(app, pilot, "ctrl+w")
        assert app.session.selection.failure_id == FIRST


@sync
async def test_palette_switch_recolours_code_and_verdicts_and_is_saved(basic: Path) -> None:
    app = launched(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "s", "k")  # label the first failure, come back to it
        assert app.session.selection.failure_id == FIRST
        code = app.review_screen.query_one("#code-view", TextView)
        checks = app.review_screen.query_one("#checks", TextView)
        assert code.plain_lines()[0] == "package roman"
        dark = segment_color(code, 0, "package")
        assert dark == expected_color(app, "reviewer-dark", "go", "package")
        badge = next(i for i, line in enumerate(checks.plain_lines()) if "specification" in line)
        assert segment_color(checks, badge, "specification") == Color.parse(
            app.themes.specs["reviewer-dark"].specification_color).rgb

        await switch_in_palette(app, pilot, "reviewer-light")
        assert app.theme == "reviewer-light"
        light = segment_color(code, 0, "package")
        assert light != dark
        assert light == expected_color(app, "reviewer-light", "go", "package")
        assert code.styles.background.rgb == Color.parse(code_background(app.themes.specs["reviewer-light"])).rgb
        assert segment_color(checks, badge, "specification") == Color.parse(
            app.themes.specs["reviewer-light"].specification_color).rgb
        saved = tomllib.loads((config_dir() / "config.toml").read_text())
        assert saved["theme"] == "reviewer-light"

        await switch_in_palette(app, pilot, "reviewer-cvd")
        assert app.theme == "reviewer-cvd"
        line = checks.plain_lines()[badge]
        assert "\u25c6 S specification" in line  # the theme's symbol: never colour alone
        assert tomllib.loads((config_dir() / "config.toml").read_text())["theme"] == "reviewer-cvd"
    again = launched(basic)
    async with again.run_test(size=(200, 50)) as pilot:
        await settle(again, pilot)
        assert again.theme == "reviewer-cvd"  # the choice persists


@sync
async def test_saving_the_theme_keeps_the_rest_of_config_toml(basic: Path) -> None:
    config = config_dir() / "config.toml"
    config.write_text('# my settings\nreviewer = "alice"  # me\n\n[keys]\nnote = "N"\n')
    app = launched(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        app.theme = "reviewer-light"
        await settle(app, pilot)
    text = config.read_text()
    assert "# my settings" in text and 'reviewer = "alice"  # me' in text
    assert tomllib.loads(text) == {"theme": "reviewer-light", "reviewer": "alice", "keys": {"note": "N"}}


@sync
async def test_a_broken_user_theme_is_a_warning_bar_until_dismissed(basic: Path) -> None:
    themes = config_dir() / "themes"
    themes.mkdir()
    (themes / "broken.toml").write_text('name = "broken"\ndark = "maybe"\n[colors]\nprimary = "#000"\n')
    (themes / "mine.toml").write_text(
        'name = "mine"\ndark = true\n[colors]\nprimary = "#88c0d0"\nforeground = "#eeeeee"\nbackground = "#101820"\n')
    app = launched(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert "mine" in app.available_themes  # the good user theme loads
        bar = warning_bar(app)
        assert bar is not None and bar.display
        assert str(themes / "broken.toml") in bar.text()
        assert "dark must be true or false" in bar.text()
        assert app.screen is app.review_screen  # not modal
        await press(app, pilot, "j")  # keys keep working while it shows
        assert app.session.selection.failure_id == "s1/roman-go--model-a#heldout:TestRoundTrip"
        assert warning_bar(app) is not None
        await press(app, pilot, "ctrl+w")
        assert warning_bar(app) is None
        await press(app, pilot, "j")
        assert app.session.selection.failure_id == "s2/connected--model-a#oracle:connected"


@sync
async def test_a_click_dismisses_the_warning_bar(basic: Path) -> None:
    (config_dir() / "config.toml").write_text('auto_advance = "yes"\ntheme = "no-such-theme"\nblind = false\ncolour = 1\n')
    app = launched(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert app.theme == "reviewer-dark"  # an unknown theme falls back to the default
        assert app.settings.blind is False and app.settings.auto_advance is True
        text = warning_bar(app).text() if warning_bar(app) else ""
        assert "auto_advance must be true or false" in text
        assert "'no-such-theme'" in text and "not available" in text
        assert "unknown setting 'colour'" in text
        await pilot.click(WarningBar)
        await settle(app, pilot)
        assert warning_bar(app) is None


@sync
async def test_a_remapped_specification_key_labels_and_s_no_longer_does(basic: Path) -> None:
    (config_dir() / "config.toml").write_text('[keys]\nlabel-specification = "w"\n')
    app = launched(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert warning_bar(app) is None  # a valid remap is not a problem
        await press(app, pilot, "s")
        assert on_disk(basic) == {}
        assert app.session.selection.failure_id == FIRST
        await press(app, pilot, "w")
        assert on_disk(basic) == {"roman-go--model-a#heldout:TestToRoman": "specification"}
        assert app.session.selection.failure_id != FIRST


@sync
async def test_without_auto_advance_labelling_stays_on_the_failure(basic: Path) -> None:
    (config_dir() / "config.toml").write_text("auto_advance = false\n")
    app = launched(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "s")
        assert on_disk(basic) == {"roman-go--model-a#heldout:TestToRoman": "specification"}
        assert app.session.selection.failure_id == FIRST
        await press(app, pilot, "c")
        assert on_disk(basic) == {"roman-go--model-a#heldout:TestToRoman": "capability"}
        assert app.session.selection.failure_id == FIRST


@sync
async def test_code_blocks_in_the_brief_follow_the_theme(basic: Path) -> None:
    from reviewer.ui.widgets.brief import BriefPane

    brief = basic / "s1" / "runs" / "roman-go--model-a" / "brief.md"
    brief.write_text("# Roman\n\n```go\npackage roman\n```\n")
    app = launched(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        view = app.review_screen.query_one(BriefPane).view

        def keyword_style() -> str:
            line = next(line for line in view.lines if line.plain == "  package roman")
            return next(str(s.style) for s in line.spans if (s.start, s.end) == (2, 9))

        assert Color.parse(keyword_style().split()[-1]).rgb == expected_color(app, "reviewer-dark", "go", "package")
        app.theme = "reviewer-light"
        await settle(app, pilot)
        assert Color.parse(keyword_style().split()[-1]).rgb == expected_color(app, "reviewer-light", "go", "package")
