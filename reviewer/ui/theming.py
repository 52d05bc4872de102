"""Themes in the app: every theme file as a Textual theme and a highlight theme, and the palette.

Every theme :func:`reviewer.store.settings.themes.load_themes` found becomes a Textual theme (its verdict
colours as ``$verdict-specification`` / ``$verdict-capability``, its code background as
``$code-background``) and a highlight theme with its Pygments colours. The app switches, renders
and saves the choice; broken theme files are listed in the warning bar.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, Mapping

from textual.app import App
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.theme import Theme

from reviewer.model.sanitize import one_line
from reviewer.store.settings.config import save_theme_choice
from reviewer.store.settings.themes import (
    BUILT_IN,
    COLOR_KEYS,
    DEFAULT_THEME,
    DEFAULT_VERDICT,
    ThemeLoad,
    ThemeProblem,
    ThemeSpec,
    choose_theme,
    load_themes,
    token_names,
)
from reviewer.ui.widgets.warning_bar import BarWarning

if TYPE_CHECKING:
    from pygments.style import Style
    from textual.highlight import HighlightTheme

CODE_BACKGROUND = "code-background"
"""The CSS variable holding the code style's background."""
DISMISS_ID = "dismiss-warning"


def to_textual_kwargs(theme: ThemeSpec) -> dict[str, Any]:
    """Keyword arguments for ``textual.theme.Theme(**kwargs)``.

    The verdict colours travel as the CSS variables ``$verdict-specification`` and
    ``$verdict-capability``.
    """
    variables = dict(theme.variables)
    variables["verdict-specification"] = theme.specification_color
    variables["verdict-capability"] = theme.capability_color
    kwargs: dict[str, Any] = {"name": theme.name}
    kwargs.update({key: theme.colors.get(key) for key in COLOR_KEYS})
    kwargs["dark"] = theme.dark
    kwargs["variables"] = variables
    return kwargs


def with_code_background(variables: dict[str, str], theme_variables: Mapping[str, str]) -> dict[str, str]:
    """Textual's CSS variables, with ``$code-background`` falling back to ``$surface`` when the
    theme does not set it."""
    if CODE_BACKGROUND not in theme_variables:
        variables[CODE_BACKGROUND] = variables.get("surface") or variables.get("background") or "#1e1e1e"
    return variables


def theme_variable_defaults() -> dict[str, str]:
    """Fallbacks for the CSS variables these themes add, for ``App.get_theme_variable_defaults``.

    Textual refuses CSS that names a variable the active theme lacks; with these defaults the
    app's CSS also works under Textual's own themes (textual-dark, nord, ...).
    """
    return {
        "verdict-specification": DEFAULT_VERDICT["specification"],
        "verdict-capability": DEFAULT_VERDICT["capability"],
    }


def pygments_style(theme: ThemeSpec) -> type[Style]:
    """The theme's Pygments style class: ``code_style`` with ``code_tokens`` applied over it
    (made once per theme: Pygments builds a style class in milliseconds)."""
    return style_class(theme.code_style, tuple(sorted(theme.code_tokens.items())), theme.name)


@lru_cache(maxsize=64)
def style_class(code_style: str, tokens: tuple[tuple[str, str], ...], name: str) -> type[Style]:
    """A Pygments style with token styles applied over it."""
    from pygments.styles import get_style_by_name

    base = get_style_by_name(code_style)
    if not tokens:
        return base
    known = token_names()
    styles = dict(base.styles)
    styles.update({known[token]: value for token, value in tokens})
    return type(f"{base.__name__}For{re.sub(r'[^A-Za-z0-9]', '', name)}", (base,), {"styles": styles})


def highlight_styles(theme: ThemeSpec) -> dict[Any, str]:
    """Token type to a Rich/Textual style string (``"bold #ff8800 on #272822"``), for every styled token."""
    out: dict[Any, str] = {}
    for token, style in pygments_style(theme):
        words = [w for w in ("bold", "italic", "underline") if style.get(w)]
        if style.get("color"):
            words.append(f"#{style['color']}")
        if style.get("bgcolor"):
            words.append(f"on #{style['bgcolor']}")
        if words:
            out[token] = " ".join(words)
    return out


def code_background(theme: ThemeSpec) -> str:
    """The background colour of the theme's code style (``#rrggbb``)."""
    return str(pygments_style(theme).background_color)


def highlight_theme(spec: ThemeSpec) -> type[HighlightTheme]:
    """A Textual highlight theme drawing tokens in the theme's Pygments colours (Textual's module
    loads Pygments' lexers: with the first colours, after the first screen)."""
    from textual.highlight import HighlightTheme

    name = re.sub(r"[^A-Za-z0-9]", "", spec.name)
    return type(f"HighlightFor{name}", (HighlightTheme,), {"STYLES": highlight_styles(spec)})


def textual_theme(spec: ThemeSpec) -> Theme:
    """The Textual theme of a spec, with ``$code-background`` added to its variables."""
    kwargs = to_textual_kwargs(spec)
    kwargs["variables"] = {**kwargs["variables"], CODE_BACKGROUND: code_background(spec)}
    return Theme(**kwargs)


def problem_warning(problem: ThemeProblem) -> BarWarning:
    """A broken theme file as a line of the warning bar."""
    return BarWarning("Theme file", problem.path, ("skipped: " if problem.skipped else "") + problem.reason)


def startup_warning(text: str) -> BarWarning:
    """A settings (or other start-up) warning as a line of the warning bar."""
    return BarWarning("Settings" if "config.toml" in text else "Warning", "", text)


class Themes:
    """Every theme the app offers, as Textual themes and highlight themes, and what went wrong.

    Built once from :func:`load_themes` (shipped and the user's); :meth:`register` hands them to
    the app and picks the configured one.
    """

    def __init__(self, load: ThemeLoad | None = None) -> None:
        self.load = load if load is not None else load_themes()
        self.specs: dict[str, ThemeSpec] = {}
        self.highlights: dict[str, type[HighlightTheme]] = {}
        self.textual: dict[str, Theme] = {}
        self.warnings: list[BarWarning] = [problem_warning(p) for p in self.load.problems]
        """Broken theme files (and unusable themes), for the warning bar."""
        self.saved = ""
        """The theme config.toml names (the start's, then each one saved)."""
        self.lock = threading.Lock()
        """Held while config.toml is rewritten with a new choice."""
        for name, spec in self.load.themes.items():
            try:
                theme = textual_theme(spec)
            except Exception as exc:  # a theme that passed validation but Textual refuses
                self.warnings.append(BarWarning("Theme", name, f"cannot be used: {one_line(str(exc))}"))
                continue
            self.textual[name], self.specs[name] = theme, spec

    def register(self, app: App[Any], wanted: str | None) -> str:
        """Register every theme with the app; the theme to start with (a missing one is warned about)."""
        for theme in self.textual.values():
            app.register_theme(theme)
        # Textual's own themes stay available too (theme_variable_defaults() gives them verdict colours).
        default = DEFAULT_THEME if DEFAULT_THEME in self.specs else "textual-dark"
        chosen, missing = choose_theme(wanted, app.available_themes, default)
        if missing:
            self.warnings.append(BarWarning("Settings", "", missing))
        return chosen

    def start(self, app: App[Any], wanted: str | None) -> None:
        """Register every theme and start the app with the configured one. Textual starts dark and
        parses its style sheet as it starts: a dark theme is set with its variables but without the
        theme's watcher, whose restyle parsed the whole sheet a second time before the first frame
        (a light one takes the watcher: its ANSI colours are mapped differently)."""
        name = self.saved = self.register(app, wanted)
        theme = app.get_theme(name)
        if theme is not None and theme.dark:
            app.set_reactive(App.theme, name)
            app.set_class(True, f"-theme-{name}", update=False)
            app.stylesheet.set_variables(app.get_css_variables())  # the sheet is not parsed yet
        else:
            app.theme = name

    def highlight(self, name: str) -> type[HighlightTheme]:
        """The highlight theme of a theme (Textual's own for Textual's themes), made when first asked
        for: the start needs only the current theme's."""
        found = self.highlights.get(name)
        if found is None:
            from textual.highlight import HighlightTheme

            spec = self.specs.get(name)
            try:
                found = highlight_theme(spec) if spec is not None else HighlightTheme
            except Exception:  # the theme's colours cannot be used for code: Textual's own
                found = HighlightTheme
            self.highlights[name] = found
        return found

    def symbols(self, name: str) -> dict[str, str]:
        """A theme's verdict symbols (the defaults under Textual's own themes)."""
        spec = self.specs.get(name)
        if spec is None:
            return {"specification": DEFAULT_VERDICT["specification_symbol"],
                    "capability": DEFAULT_VERDICT["capability_symbol"]}
        return {"specification": spec.specification_symbol, "capability": spec.capability_symbol}


def save_theme(name: str, lock: threading.Lock) -> str:
    """Save a chosen theme in config.toml (worker thread); a warning, or "" when saved."""
    with lock:
        try:
            return save_theme_choice(name) or ""
        except Exception as exc:  # the choice is a comfort: never let it break the app
            return f"theme not saved: {exc}"


class ThemeCommands(Provider):
    """One palette command per reviewer theme: "Theme: reviewer-light"."""

    def commands(self) -> list[tuple[str, str, str]]:
        """(title, theme name, help) per theme, sorted by name."""
        specs: dict[str, ThemeSpec] = getattr(getattr(self.app, "themes", None), "specs", {})
        out = []
        for name in sorted(specs):
            spec = specs[name]
            origin = "built-in" if spec.origin == BUILT_IN else "from your themes folder"
            current = " (in use)" if name == self.app.theme else ""
            out.append((f"Theme: {name}{current}", name, f"{'Dark' if spec.dark else 'Light'} theme, {origin}"))
        return out

    def pick(self, name: str) -> None:
        """Switch to the theme."""
        if name in self.app.available_themes:
            self.app.theme = name

    async def discover(self) -> Hits:
        """Every theme."""
        for title, name, help_text in self.commands():
            yield DiscoveryHit(Content(title), partial(self.pick, name), help=help_text)

    async def search(self, query: str) -> Hits:
        """Themes matching the query."""
        matcher = self.matcher(query)
        for title, name, help_text in self.commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), partial(self.pick, name), help=help_text)
