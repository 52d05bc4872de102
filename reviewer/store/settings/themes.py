"""Themes: TOML files shipped in ``themes/`` and the user's own in ``$XDG_CONFIG_HOME/reviewer/themes``.

Loading never raises. Every broken file becomes a :class:`ThemeProblem` naming the file and what
is wrong, and is skipped; the other themes still load. This module never imports Textual: the UI
turns a :class:`ThemeSpec` into ``textual.theme.Theme(**to_textual_kwargs(spec))``. The file
format is documented in ``themes/README.md``.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Mapping

import reviewer
from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.store.fs.tomlfile import BadToml, parse_toml_bytes
from reviewer.store.fs.untrusted import Unreadable
from reviewer.store.settings.config import THEME_NAME, config_home, read_small, shown

FORMAT = 1
THEME_CAP = 256 << 10
MAX_USER_THEMES = 200
DEFAULT_THEME = "reviewer-dark"
BUILT_IN = "built-in"
COLOR_KEYS = ("primary", "secondary", "accent", "foreground", "background", "surface", "panel",
              "success", "warning", "error")
REQUIRED_COLORS = ("primary", "foreground", "background")
TOP_KEYS = ("format", "name", "dark", "description", "colors", "code", "verdict", "variables")
VERDICT_KEYS = ("specification", "capability", "specification_symbol", "capability_symbol")
DEFAULT_VERDICT = {"specification": "#0072b2", "capability": "#e69f00",
                   "specification_symbol": "◆", "capability_symbol": "▲"}
HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
VARIABLE_NAME = re.compile(r"[a-z][a-z0-9-]{0,63}")
VARIABLE_VALUE = re.compile(r"[#A-Za-z0-9 %.,()_-]{1,64}")
STYLE_WORDS = frozenset({"bold", "nobold", "italic", "noitalic", "underline", "nounderline", "noinherit"})


class BadTheme(Exception):
    """A theme file that cannot be used; the message says why."""


@record(slots=False)
class ThemeSpec:
    """One theme, validated.

    Attributes:
        name: the theme's name (unique; a user theme replaces a built-in one of the same name).
        dark: a dark theme (light text on a dark background).
        colors: Textual theme colours by key (see ``COLOR_KEYS``), ``#rrggbb``; missing keys are
            derived by Textual.
        code_style: the Pygments style for code highlighting.
        code_tokens: Pygments token name (``"Keyword"``, ``"Name.Function"``) to a Pygments style
            string (``"bold #ff8800"``), applied over ``code_style``.
        specification_color: the colour of the specification verdict.
        capability_color: the colour of the capability verdict.
        specification_symbol: shown with the specification verdict, so colour is never alone.
        capability_symbol: shown with the capability verdict.
        variables: extra Textual CSS variables.
        description: a line about the theme.
        origin: ``"built-in"`` or the file's path.
    """

    name: str
    dark: bool
    colors: Mapping[str, str]
    code_style: str
    code_tokens: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    specification_color: str = DEFAULT_VERDICT["specification"]
    capability_color: str = DEFAULT_VERDICT["capability"]
    specification_symbol: str = DEFAULT_VERDICT["specification_symbol"]
    capability_symbol: str = DEFAULT_VERDICT["capability_symbol"]
    variables: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    description: str = ""
    origin: str = BUILT_IN


@record
class ThemeProblem:
    """Something wrong in a theme file: the file, the reason, and whether the file was skipped."""

    path: str
    reason: str
    skipped: bool = True

    def __str__(self) -> str:
        """``path: skipped: reason`` for a warning line."""
        return f"{self.path}: {'skipped: ' if self.skipped else ''}{self.reason}"


@record(slots=False)
class ThemeLoad:
    """The result of :func:`load_themes`.

    Attributes:
        themes: every usable theme by name, shipped ones first, then the user's.
        origins: name to ``"built-in"`` or the path of the file it came from.
        problems: one entry per broken file (skipped) or ignored part of a file.
        replaced: names of built-in themes a user theme replaced, with the built-in's origin.
    """

    themes: dict[str, ThemeSpec]
    origins: dict[str, str]
    problems: list[ThemeProblem]
    replaced: dict[str, str] = field(default_factory=dict)


def shipped_themes_dir() -> Path:
    """Where the shipped themes are: inside the installed package, else the checkout's ``themes/``."""
    here = Path(reviewer.__file__).resolve().parent
    installed = here / "themes"
    if installed.is_dir() or not (here.parent / "pyproject.toml").is_file():
        return installed
    return here.parent / "themes"


def user_themes_dir() -> Path:
    """``$XDG_CONFIG_HOME/reviewer/themes`` (default ``~/.config/reviewer/themes``)."""
    return config_home() / "themes"


def hex_color(where: str, value: object) -> str:
    """A ``#rgb``/``#rrggbb`` colour, normalised to ``#rrggbb``; BadTheme otherwise."""
    if not isinstance(value, str) or not HEX.fullmatch(value):
        raise BadTheme(f"{where} must be a colour like \"#1e90ff\", not {shown(value)}")
    digits = value[1:].lower()
    return "#" + ("".join(c * 2 for c in digits) if len(digits) == 3 else digits)


def table(doc: Mapping[str, Any], key: str, required: bool = False, where: str = "") -> dict[str, Any]:
    """A sub-table of the document ({} when absent and optional); ``where`` is its full name."""
    value, where = doc.get(key), where or key
    if value is None and not required:
        return {}
    if not isinstance(value, dict):
        raise BadTheme(f"[{where}] is missing" if value is None else f"{where} must be a table ([{where}]), not {shown(value)}")
    return value


def unknown(where: str, got: Iterable[str], allowed: Iterable[str]) -> list[str]:
    """Notes for keys that the format does not know (they are ignored)."""
    allowed = set(allowed)
    return [f"unknown key {shown(k)} in {where} (ignored)" for k in got if k not in allowed]


@functools.cache
def token_names() -> dict[str, Any]:
    """Pygments' standard token types by name, with and without the ``Token.`` prefix."""
    from pygments.token import STANDARD_TYPES

    names: dict[str, Any] = {}
    for token in STANDARD_TYPES:
        full = str(token)
        names[full] = token
        names[full.removeprefix("Token.")] = token
    return names


def style_string(where: str, value: object) -> str:
    """A Pygments style string limited to hex colours and bold/italic/underline words."""
    if not isinstance(value, str) or not value.strip() or len(value) > 100:
        raise BadTheme(f"{where} must be a style like \"bold #ff8800\", not {shown(value)}")
    for word in value.split():
        colour = word.split(":", 1)[1] if word.startswith(("bg:", "border:")) else word
        if word not in STYLE_WORDS and not HEX.fullmatch(colour):
            raise BadTheme(f"{where}: {shown(word)} is not a colour (#rrggbb, bg:#rrggbb) or one of "
                           + ", ".join(sorted(STYLE_WORDS)))
    return " ".join(value.split())


def read_code(doc: Mapping[str, Any], dark: bool, notes: list[str]) -> tuple[str, dict[str, str]]:
    """The Pygments style name and token overrides of ``[code]``."""
    from pygments.styles import STYLE_MAP, get_all_styles  # names only: never import a module named in a file

    code = table(doc, "code")
    notes += unknown("[code]", code, ("style", "tokens"))
    style = code.get("style", "monokai" if dark else "default")
    # Built-in names first: listing plugin styles scans every installed package's metadata.
    if not isinstance(style, str) or (style not in STYLE_MAP and style not in set(get_all_styles())):
        raise BadTheme(f"[code] style {shown(style)} is not an installed Pygments style "
                       "(for example monokai, one-dark, default, friendly)")
    tokens: dict[str, str] = {}
    known = token_names()
    for name, value in table(code, "tokens", where="code.tokens").items():
        if name not in known:
            raise BadTheme(f"[code.tokens] {shown(name)} is not a Pygments token name "
                           "(for example Keyword, Name.Function, Literal.String, Comment)")
        tokens[name.removeprefix("Token.")] = style_string(f"[code.tokens] {name}", value)
    return style, tokens


def read_verdict(doc: Mapping[str, Any], notes: list[str]) -> dict[str, str]:
    """The verdict colours and symbols of ``[verdict]``, defaults where absent."""
    verdict = table(doc, "verdict")
    notes += unknown("[verdict]", verdict, VERDICT_KEYS)
    out = dict(DEFAULT_VERDICT)
    for key in ("specification", "capability"):
        if key in verdict:
            out[key] = hex_color(f"[verdict] {key}", verdict[key])
    for key in ("specification_symbol", "capability_symbol"):
        if key in verdict:
            sym = verdict[key]
            if not isinstance(sym, str) or not 1 <= len(sym.strip()) <= 12 or not sym.isprintable() or plain(sym) != sym:
                raise BadTheme(f"[verdict] {key} must be 1 to 12 visible characters, not {shown(sym)}")
            out[key] = sym.strip()
    if out["specification"] == out["capability"]:
        raise BadTheme("[verdict] specification and capability must have different colours")
    if out["specification_symbol"] == out["capability_symbol"]:
        raise BadTheme("[verdict] specification_symbol and capability_symbol must differ")
    return out


def read_variables(doc: Mapping[str, Any]) -> dict[str, str]:
    """Extra Textual CSS variables from ``[variables]``."""
    out: dict[str, str] = {}
    for key, value in table(doc, "variables").items():
        if not VARIABLE_NAME.fullmatch(key) or key.startswith("verdict-"):
            raise BadTheme(f"[variables] {shown(key)} is not a usable variable name "
                           "(lower-case words joined by '-'; verdict-* comes from [verdict])")
        if not isinstance(value, str) or not VARIABLE_VALUE.fullmatch(value):
            raise BadTheme(f"[variables] {key} must be a short value like \"#88c0d0\" or \"bold\", not {shown(value)}")
        out[key] = value
    return out


def parse_theme(doc: Mapping[str, Any], origin: str = BUILT_IN) -> tuple[ThemeSpec, list[str]]:
    """Validate a parsed theme document.

    Returns:
        The theme and notes about ignored keys.

    Raises:
        BadTheme: the document is not a usable theme; the message says why.
    """
    notes = unknown("the file", doc, TOP_KEYS)
    fmt = doc.get("format", FORMAT)
    if type(fmt) is not int or fmt < 1:
        raise BadTheme(f"format must be {FORMAT}, not {shown(fmt)}")
    if fmt > FORMAT:
        raise BadTheme(f"uses theme format {fmt}; this reviewer reads format {FORMAT} (upgrade reviewer)")
    name = doc.get("name")
    if name is None:
        raise BadTheme("name is missing (name = \"my-theme\")")
    if not isinstance(name, str) or not THEME_NAME.fullmatch(name):
        raise BadTheme(f"name must be letters, digits, '.', '_' or '-' (at most 64), not {shown(name)}")
    dark = doc.get("dark")
    if not isinstance(dark, bool):
        raise BadTheme("dark is missing (dark = true or false)" if dark is None else
                       f"dark must be true or false, not {shown(dark)}")
    description = doc.get("description", "")
    if not isinstance(description, str) or len(description) > 200 or plain(description) != description:
        raise BadTheme("description must be one line of text (at most 200 characters)")
    colors_in = table(doc, "colors", required=True)
    notes += unknown("[colors]", colors_in, COLOR_KEYS)
    missing = [k for k in REQUIRED_COLORS if k not in colors_in]
    if missing:
        raise BadTheme(f"[colors] {' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing")
    colors = {k: hex_color(f"[colors] {k}", colors_in[k]) for k in COLOR_KEYS if k in colors_in}
    style, tokens = read_code(doc, dark, notes)
    verdict = read_verdict(doc, notes)
    spec = ThemeSpec(
        name, dark, MappingProxyType(colors), style, MappingProxyType(tokens),
        specification_color=verdict["specification"], capability_color=verdict["capability"],
        specification_symbol=verdict["specification_symbol"], capability_symbol=verdict["capability_symbol"],
        variables=MappingProxyType(read_variables(doc)), description=description, origin=origin,
    )
    return spec, notes


def read_theme_file(path: Path, origin: str = BUILT_IN) -> tuple[ThemeSpec, list[str]]:
    """Read and validate one theme file (never blocks on a FIFO, never reads past the cap).

    Raises:
        BadTheme: the file cannot be read or is not a usable theme.
    """
    try:
        doc = parse_toml_bytes(read_small(path, THEME_CAP))
    except (Unreadable, BadToml) as exc:
        raise BadTheme(str(exc)) from None
    return parse_theme(doc, origin)


def theme_files(folder: Path, problems: list[ThemeProblem], limit: int) -> list[Path]:
    """The ``*.toml`` files of a folder, sorted; hidden files are left out."""
    try:
        names = sorted(e.name for e in os.scandir(folder) if e.name.endswith(".toml") and not e.name.startswith("."))
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        problems.append(ThemeProblem(str(folder), "is not a folder; no user themes loaded"))
        return []
    except OSError as exc:
        problems.append(ThemeProblem(str(folder), f"cannot be listed: {exc.strerror or exc}"))
        return []
    if len(names) > limit:
        problems.append(ThemeProblem(str(folder), f"holds {len(names)} theme files; only the first {limit} were read"))
    return [folder / n for n in names[:limit]]


def load_folder(folder: Path, builtin: bool, load: ThemeLoad, limit: int) -> None:
    """Add the themes of one folder to ``load``; later names replace built-in ones."""
    seen: dict[str, str] = {}
    for path in theme_files(folder, load.problems, limit):
        origin = BUILT_IN if builtin else str(path)
        try:
            spec, notes = read_theme_file(path, origin)
        except BadTheme as exc:
            load.problems.append(ThemeProblem(str(path), str(exc)))
            continue
        load.problems.extend(ThemeProblem(str(path), n, skipped=False) for n in notes)
        if spec.name in seen:
            load.problems.append(ThemeProblem(str(path), f"theme {spec.name!r} is already defined in {seen[spec.name]}"))
            continue
        seen[spec.name] = str(path)
        if spec.name in load.themes:
            load.replaced[spec.name] = load.origins[spec.name]
            del load.themes[spec.name]
        load.themes[spec.name] = spec
        load.origins[spec.name] = origin


def load_themes(user_dir: Path | None = None, shipped_dir: Path | None = None) -> ThemeLoad:
    """Load the shipped themes, then the user's (replacing shipped ones of the same name).

    Never raises: each broken file is a :class:`ThemeProblem` and is skipped.
    """
    load = ThemeLoad({}, {}, [])
    load_folder(shipped_dir or shipped_themes_dir(), True, load, MAX_USER_THEMES)
    load_folder(user_dir or user_themes_dir(), False, load, MAX_USER_THEMES)
    return load


def choose_theme(requested: str | None, available: Iterable[str], default: str = DEFAULT_THEME) -> tuple[str, str | None]:
    """The theme to start with, and a warning when the requested one is not available."""
    names = set(available)
    fallback = default if default in names else (sorted(names)[0] if names else default)
    if requested is None or requested in names:
        return (requested or fallback), None
    return fallback, f"theme {shown(requested)} from the settings is not available; using {fallback}"
