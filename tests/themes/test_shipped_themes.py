"""The themes that ship: they load cleanly, make valid Textual themes and name real Pygments styles."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path

import pytest
from pygments.styles import get_style_by_name
from textual.app import App, ComposeResult
from textual.theme import Theme
from textual.widgets import Static

from reviewer.store.settings.themes import COLOR_KEYS, DEFAULT_THEME, load_themes, shipped_themes_dir
from reviewer.ui.theming import (
    code_background,
    highlight_styles,
    pygments_style,
    theme_variable_defaults,
    to_textual_kwargs,
)

REPO = Path(__file__).resolve().parents[2]
SHIPPED = sorted(p.stem for p in (REPO / "themes").glob("*.toml"))


def test_at_least_three_shipped_themes_a_dark_a_light_and_the_colour_safe_one() -> None:
    load = load_themes()
    assert load.problems == []
    assert shipped_themes_dir() == REPO / "themes"
    assert {"reviewer-dark", "reviewer-light", "reviewer-cvd"} <= set(load.themes)
    assert len(load.themes) >= 3 and len(SHIPPED) >= 3
    assert set(SHIPPED) == set(load.themes), "each file is named after its theme"
    assert all(origin == "built-in" for origin in load.origins.values())
    assert load.themes["reviewer-dark"].dark and not load.themes["reviewer-light"].dark
    assert DEFAULT_THEME in load.themes


@pytest.mark.parametrize("name", SHIPPED)
def test_kwargs_build_a_textual_theme(name: str) -> None:
    spec = load_themes().themes[name]
    kwargs = to_textual_kwargs(spec)
    params = set(inspect.signature(Theme).parameters)
    assert set(kwargs) == {"name", *COLOR_KEYS, "dark", "variables"} and set(kwargs) <= params
    assert all(kwargs[k] for k in COLOR_KEYS), "shipped themes set every colour"
    theme = Theme(**kwargs)
    generated = theme.to_color_system().generate()
    assert generated["background"].lower() == spec.colors["background"]
    assert generated["primary"].lower() == spec.colors["primary"]
    assert theme.variables["verdict-specification"] == spec.specification_color
    assert theme.variables["verdict-capability"] == spec.capability_color


@pytest.mark.parametrize("name", SHIPPED)
def test_code_style_is_a_real_pygments_style(name: str) -> None:
    spec = load_themes().themes[name]
    base = get_style_by_name(spec.code_style)
    style = pygments_style(spec)
    assert issubclass(style, base)
    styles = highlight_styles(spec)
    assert styles and all(isinstance(v, str) and v for v in styles.values())
    assert code_background(spec).startswith("#")


def test_token_overrides_change_the_highlighting() -> None:
    from pygments.token import Keyword

    spec = load_themes().themes["reviewer-cvd"]
    assert spec.code_tokens["Keyword"] == "bold #56b4e9"
    assert highlight_styles(spec)[Keyword] == "bold #56b4e9"
    assert get_style_by_name(spec.code_style).style_for_token(Keyword)["color"] != "56b4e9"


def test_verdicts_never_rely_on_colour_alone() -> None:
    for spec in load_themes().themes.values():
        assert spec.specification_symbol and spec.capability_symbol
        assert spec.specification_symbol != spec.capability_symbol


def test_readme_documents_every_shipped_theme() -> None:
    readme = (REPO / "themes" / "README.md").read_text()
    for name in SHIPPED:
        assert f"`{name}`" in readme


class ThemedApp(App[None]):
    """A tiny app whose CSS uses the verdict variables the themes provide."""

    CSS = "#spec { color: $verdict-specification; } #cap { color: $verdict-capability; }"

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**super().get_theme_variable_defaults(), **theme_variable_defaults()}

    def compose(self) -> ComposeResult:
        yield Static("◆ specification", id="spec")
        yield Static("▲ capability", id="cap")


def test_every_theme_switches_a_running_app() -> None:
    async def scenario() -> list[tuple[str, str, str, str]]:
        app = ThemedApp()
        seen = []
        async with app.run_test() as pilot:
            for spec in load_themes().themes.values():
                app.register_theme(Theme(**to_textual_kwargs(spec)))
            for spec in load_themes().themes.values():
                app.theme = spec.name
                await pilot.pause()
                colour = app.query_one("#spec").styles.color.hex.lower()
                cap = app.query_one("#cap").styles.color.hex.lower()
                seen.append((spec.specification_color, colour, spec.capability_color, cap))
        return seen

    results = asyncio.run(scenario())
    assert len(results) == len(SHIPPED)
    for spec_want, spec_got, cap_want, cap_got in results:
        assert (spec_got, cap_got) == (spec_want, cap_want)
