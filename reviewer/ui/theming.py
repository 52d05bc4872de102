"""Themes in the app: registration, the start-up choice, switching, persistence and warnings.

Every theme :func:`reviewer.store.themes.load_themes` found becomes a Textual theme (its verdict
colours as ``$verdict-specification`` / ``$verdict-capability``, its code background as
``$code-background``) and a highlight theme with its Pygments colours. A switch of
:attr:`App.theme` (command palette: "Theme: ..." entries or Textual's own "Theme" command)
repaints CSS, re-highlights the Code pane, redraws the verdict badges and saves the choice in
``config.toml`` in a worker. Broken theme files and settings problems are listed in a
non-modal :class:`~reviewer.ui.widgets.warning_bar.WarningBar` until dismissed.
"""

from __future__ import annotations

import re
import threading
from functools import partial
from typing import TYPE_CHECKING, Any, Iterable, cast

from textual import on, work
from textual.app import App
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.highlight import HighlightTheme
from textual.theme import Theme

from reviewer.store.config import Settings, save_theme_choice
from reviewer.store.themes import (
    BUILT_IN,
    DEFAULT_THEME,
    DEFAULT_VERDICT,
    ThemeLoad,
    ThemeProblem,
    ThemeSpec,
    choose_theme,
    code_background,
    highlight_styles,
    load_themes,
    theme_variable_defaults,
    to_textual_kwargs,
)
from reviewer.ui.bindings import BY_ID, key_label
from reviewer.ui.render import one_line
from reviewer.ui.widgets.warning_bar import BarWarning, WarningBar

if TYPE_CHECKING:
    from reviewer.ui.app import ReviewApp

CODE_BACKGROUND = "code-background"
"""The CSS variable holding the code style's background."""
DISMISS_ID = "dismiss-warning"


def highlight_theme(spec: ThemeSpec) -> type[HighlightTheme]:
    """A Textual highlight theme drawing tokens in the theme's Pygments colours."""
    name = re.sub(r"[^A-Za-z0-9]", "", spec.name)
    return type(f"HighlightFor{name}", (HighlightTheme,), {"STYLES": highlight_styles(spec)})


def textual_theme(spec: ThemeSpec) -> Theme:
    """The Textual theme of a spec, with ``$code-background`` added to its variables."""
    kwargs = to_textual_kwargs(spec)
    kwargs["variables"] = {**kwargs["variables"], CODE_BACKGROUND: code_background(spec)}
    return Theme(**kwargs)


def current_highlight(app: App[Any]) -> type[HighlightTheme]:
    """The highlight theme for the app's current theme (Textual's own for Textual's themes)."""
    themes: dict[str, type[HighlightTheme]] = getattr(app, "highlight_themes", {})
    return themes.get(app.theme, HighlightTheme)


def verdict_symbols(app: App[Any]) -> dict[str, str]:
    """The current theme's verdict symbols (the defaults under Textual's own themes)."""
    specs: dict[str, ThemeSpec] = getattr(app, "theme_specs", {})
    spec = specs.get(app.theme)
    if spec is None:
        return {"specification": DEFAULT_VERDICT["specification_symbol"],
                "capability": DEFAULT_VERDICT["capability_symbol"]}
    return {"specification": spec.specification_symbol, "capability": spec.capability_symbol}


def problem_warning(problem: ThemeProblem) -> BarWarning:
    """A broken theme file as a line of the warning bar."""
    return BarWarning("Theme file", problem.path, ("skipped: " if problem.skipped else "") + problem.reason)


def startup_warning(text: str) -> BarWarning:
    """A settings (or other start-up) warning as a line of the warning bar."""
    return BarWarning("Settings" if "config.toml" in text else "Warning", "", text)


class ThemingMixin(App[int]):
    """Themes, the theme choice and the warning bar, for :class:`ReviewApp`."""

    theme_specs: dict[str, ThemeSpec]
    highlight_themes: dict[str, type[HighlightTheme]]

    def setup_theming(self, settings: Settings, themes: ThemeLoad | None = None) -> None:
        """Register every theme and switch to the configured one (call from ``__init__``).

        Args:
            settings: the user's settings (``theme`` is the one to start with).
            themes: the themes to offer (default: :func:`load_themes`, shipped and the user's).
        """
        self._theming_ready = False
        self._save_lock = threading.Lock()
        load = themes if themes is not None else load_themes()
        self.theme_load = load
        self.theme_specs = {}
        self.highlight_themes = {}
        self.theme_warnings: list[BarWarning] = [problem_warning(p) for p in load.problems]
        """Broken theme files (and unusable themes), for the warning bar."""
        for name, spec in load.themes.items():
            try:
                theme, highlight = textual_theme(spec), highlight_theme(spec)
            except Exception as exc:  # a theme that passed validation but Textual refuses
                self.theme_warnings.append(BarWarning("Theme", name, f"cannot be used: {one_line(str(exc))}"))
                continue
            self.register_theme(theme)
            self.theme_specs[name] = spec
            self.highlight_themes[name] = highlight
        # Textual's own themes stay available too (theme_variable_defaults() gives them verdict colours).
        default = DEFAULT_THEME if DEFAULT_THEME in self.theme_specs else "textual-dark"
        chosen, missing = choose_theme(settings.theme, self.available_themes, default)
        if missing:
            self.theme_warnings.append(BarWarning("Settings", "", missing))
        self.theme = chosen
        self._saved_theme = chosen

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """Fallbacks for the variables the reviewer's CSS uses beyond Textual's own."""
        return {**super().get_theme_variable_defaults(), **theme_variable_defaults()}

    def get_css_variables(self) -> dict[str, str]:
        """Textual's variables, with ``$code-background`` falling back to ``$surface``."""
        variables = super().get_css_variables()
        if CODE_BACKGROUND not in self.current_theme.variables:
            variables[CODE_BACKGROUND] = variables.get("surface") or variables.get("background") or "#1e1e1e"
            self.theme_variables = variables
        return variables

    # ---- switching ------------------------------------------------------------------------

    def watch_theme(self, old: str, new: str) -> None:
        """A new theme: re-highlight the code, redraw the verdicts, remember the choice."""
        if not getattr(self, "_theming_ready", False) or old == new:
            return
        app = cast("ReviewApp", self)
        from reviewer.ui.widgets.brief import BriefPane
        from reviewer.ui.widgets.code import CodePane

        for pane in app.review_screen.query(CodePane):
            pane.rehighlight()
        for brief in app.review_screen.query(BriefPane):
            brief.rehighlight()
        if app.detail is not None:
            app.detail = app.detail
        if new != self._saved_theme:
            self._saved_theme = new
            self.persist_theme()

    def set_theme(self, name: str) -> None:
        """Switch to a registered theme (from the palette)."""
        if name in self.available_themes:
            self.theme = name

    @work(thread=True, exclusive=True, group="settings")
    def persist_theme(self) -> None:
        """Save the latest chosen theme in config.toml (worker thread); warn when it cannot be."""
        with self._save_lock:
            name = self._saved_theme
            try:
                warning = save_theme_choice(name)
            except Exception as exc:  # the choice is a comfort: never let it break the app
                warning = f"theme not saved: {exc}"
        if warning:
            self.call_from_thread(self.notify, one_line(warning, 400), title="Theme", severity="warning",
                                  timeout=15, markup=False)

    # ---- the warning bar ------------------------------------------------------------------

    def start_theming(self, startup_warnings: Iterable[str] = ()) -> None:
        """The review screen is up: show broken theme files and settings problems in the bar."""
        self._theming_ready = True
        warnings = [*self.theme_warnings, *(startup_warning(w) for w in startup_warnings)]
        if not warnings:
            return
        app = cast("ReviewApp", self)
        screen = app.review_screen
        bar = WarningBar(warnings, key_label(self, BY_ID[DISMISS_ID].binding))
        main = screen.query("#main")
        screen.mount(bar, before=main.first() if main else None)
        self.refresh_bindings()

    @property
    def warning_bar(self) -> WarningBar | None:
        """The warning bar while it shows."""
        app = cast("ReviewApp", self)
        if getattr(app, "_review_screen", None) is None:
            return None
        bars = app.review_screen.query(WarningBar)
        return bars.first() if bars else None

    def action_dismiss_warning(self) -> None:
        """Hide the warning bar."""
        bar = self.warning_bar
        if bar is not None:
            bar.remove()
        self.call_after_refresh(self.refresh_bindings)

    @on(WarningBar.Dismissed)
    def warning_bar_clicked(self) -> None:
        """The bar was clicked."""
        self.action_dismiss_warning()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The dismiss key only acts (and shows in the footer) while the bar is up."""
        if action == "dismiss_warning":
            return self.warning_bar is not None
        return super().check_action(action, parameters)


class ThemeCommands(Provider):
    """One palette command per reviewer theme: "Theme: reviewer-light"."""

    def commands(self) -> list[tuple[str, str, str]]:
        """(title, theme name, help) per theme, sorted by name."""
        specs: dict[str, ThemeSpec] = getattr(self.app, "theme_specs", {})
        out = []
        for name in sorted(specs):
            spec = specs[name]
            origin = "built-in" if spec.origin == BUILT_IN else "from your themes folder"
            current = " (in use)" if name == self.app.theme else ""
            out.append((f"Theme: {name}{current}", name, f"{'Dark' if spec.dark else 'Light'} theme, {origin}"))
        return out

    def pick(self, name: str) -> None:
        """Switch to the theme."""
        cast(ThemingMixin, self.app).set_theme(name)

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
