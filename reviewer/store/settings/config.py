"""The user's settings file, ``$XDG_CONFIG_HOME/reviewer/config.toml``.

Reading never fails: a missing file gives the defaults, and every unknown key, bad value, unknown
binding id or unreadable key string becomes a warning that names the file and the key, while the
default is kept. Saving the chosen theme keeps the rest of the file, comments included, and never
writes over a file it could not parse.

Example::

    theme = "reviewer-cvd"
    reviewer = "alice"
    auto_advance = true
    blind = true

    [keys]
    label-specification = "1"
    label-capability = "2"
"""

from __future__ import annotations

import difflib
import os
import re
import unicodedata
from dataclasses import field
from pathlib import Path
from typing import Any, Iterable, Mapping

from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.store.fs.atomic import atomic_write
from reviewer.store.fs.nofollow import make_folder
from reviewer.store.fs.tomlfile import BadToml, parse_toml_bytes
from reviewer.store.fs.tomlfile import dumps as toml_dumps
from reviewer.store.fs.untrusted import Unreadable, read_capped

CONFIG_CAP = 256 << 10
THEME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
"""What a theme name may look like (full match)."""

SETTINGS = ("theme", "reviewer", "auto_advance", "blind", "keys")
ALIASES = {"auto-advance": "auto_advance"}
MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
NAMED_KEYS = frozenset(
    {"escape", "enter", "return", "tab", "space", "backspace", "delete", "insert", "home", "end",
     "pageup", "pagedown", "up", "down", "left", "right", "minus", "plus", "slash", "backslash",
     "underscore", "at", "newline"}
    | {f"f{n}" for n in range(1, 25)}
)
KEY_NAME_REPLACEMENTS = {
    "solidus": "slash", "reverse_solidus": "backslash", "commercial_at": "at",
    "hyphen_minus": "minus", "plus_sign": "plus", "low_line": "underscore",
}


def config_home() -> Path:
    """``$XDG_CONFIG_HOME/reviewer`` (``~/.config/reviewer`` when unset or not absolute)."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".config"
    return root / "reviewer"


def config_path() -> Path:
    """The settings file's default location."""
    return config_home() / "config.toml"


@record(slots=False)
class Settings:
    """What the user chose in config.toml.

    Attributes:
        theme: the theme to start with, or None for the default.
        reviewer: who is labelling, or None (then git's user.name, then the login).
        auto_advance: move to the next failure after a label.
        blind: hide other reviewers' labels until adjudication.
        keys: binding id to key string (``"1"``, ``"ctrl+s"``, ``"j,down"``).
    """

    theme: str | None = None
    reviewer: str | None = None
    auto_advance: bool = True
    blind: bool = True
    keys: Mapping[str, str] = field(default_factory=dict)


def shown(value: object, limit: int = 60) -> str:
    """A value from the file, quoted and made safe for a one-line warning."""
    text = plain(value if isinstance(value, str) else repr(value))
    return repr(text if len(text) <= limit else text[:limit] + "…")


def type_name(value: object) -> str:
    """A TOML-ish name for a value's type."""
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
             dict: "a table", list: "an array"}
    return names.get(type(value), "a date or time")


def character_key(ch: str) -> str:
    """Textual's name for a one-character key (``?`` → ``question_mark``)."""
    if ch.isalnum():
        return ch
    try:
        name = unicodedata.name(ch).lower().replace("-", "_").replace(" ", "_")
    except ValueError:
        return ch
    return KEY_NAME_REPLACEMENTS.get(name, name)


def key_problem(key: str) -> str | None:
    """Why one key (``ctrl+s``, ``1``, ``question_mark``) is not a key Textual knows, or None."""
    problem = strict_key_problem(key)
    if problem and key.lower() != key and strict_key_problem(key.lower()) is None:
        return f"is not a key name: key names are lower case ({shown(key.lower())})"
    return problem


def typeable(char: str) -> bool:
    """A character a keyboard has a key for, as Textual names it (``question_mark``, ``euro_sign``):
    punctuation, currency, maths and accent signs, or Latin-1. Not every Unicode name is a key:
    ``banana`` names U+1F34C, which no keyboard sends."""
    category = unicodedata.category(char)
    return ord(char) < 0x100 or category[0] == "P" or category in ("Sc", "Sm", "Sk")


def strict_key_problem(key: str) -> str | None:
    """:func:`key_problem` without the lower-case hint."""
    if len(key) == 1:
        return None if key.isprintable() and not key.isspace() else "is not a printable character"
    *mods, name = key.split("+")
    bad_mods = [m for m in mods if m not in MODIFIERS]
    if bad_mods:
        return f"has an unknown modifier {shown(bad_mods[0])} (use ctrl, shift, alt, meta, super)"
    if len(name) == 1:
        return None if name.isprintable() and not name.isspace() else "is not a printable character"
    if name in NAMED_KEYS:
        return None
    if re.fullmatch(r"[a-z][a-z_]*", name):
        original = {v: k for k, v in KEY_NAME_REPLACEMENTS.items()}.get(name, name)
        try:
            char = unicodedata.lookup(original.replace("_", " ").upper())
        except KeyError:
            char = ""
        if len(char) == 1 and typeable(char):
            return None
    return "is not a key name (examples: 1, s, ctrl+s, f5, space, enter, question_mark)"


def parse_keys(value: str) -> tuple[str, str | None]:
    """Normalise a key string (``" 1 , ctrl+s "`` → ``"1,ctrl+s"``).

    Returns:
        The normalised string and None, or "" and what is wrong (a phrase such as
        "is not a key name", to follow the value in a warning).
    """
    if not value.strip():
        return "", "is empty"
    if len(value) > 200:
        return "", "is too long (at most 200 characters)"
    parts = [p.strip() for p in value.split(",")]
    for part in parts:
        if not part:
            return "", "has an empty key between commas"
        problem = key_problem(part)
        if problem:
            return "", problem if len(parts) == 1 else f"has a key {shown(part)} that {problem}"
    return ",".join(parts), None


def key_set(keys: str) -> set[str]:
    """The normalised keys of a key string, for clash detection."""
    return {character_key(k) if len(k) == 1 else k for k in (p.strip() for p in keys.split(",")) if k}


def keymap_clashes(defaults: Mapping[str, str], remap: Mapping[str, str]) -> list[str]:
    """Bindings that end up on the same key after remapping, as warnings.

    Args:
        defaults: binding id to its default key string (bindings active at the same time).
        remap: the user's ``[keys]`` table (already validated).
    """
    final = {bid: key_set(remap.get(bid, keys)) for bid, keys in defaults.items()}
    warnings = []
    owners: dict[str, str] = {}
    for bid in sorted(final):
        for key in sorted(final[bid]):
            other = owners.setdefault(key, bid)
            if other != bid and (bid in remap or other in remap):
                warnings.append(f"[keys]: {other} and {bid} are both on {shown(key)}; only one of them will work")
    return warnings


def read_small(path: Path, cap: int) -> bytes:
    """A small regular file's bytes (symlinks followed, FIFOs never opened, at most ``cap``).

    Raises:
        Unreadable: missing, not a regular file, unreadable, or larger than ``cap``.
    """
    real = Path(os.path.realpath(path))
    raw = read_capped(real.parent, real.name, cap)
    if raw.truncated:
        raise Unreadable(f"is larger than {cap >> 10} KiB")
    return raw.data


def read_config_bytes(path: Path) -> tuple[bytes | None, str | None]:
    """The file's bytes (None when missing) and, when it cannot be used, why."""
    try:
        return read_small(path, CONFIG_CAP), None
    except Unreadable as exc:
        if str(exc) == "file not found":
            return None, None
        return None, f"{path}: {exc}; using the default settings"


def load_settings(path: Path | None = None, known_binding_ids: Iterable[str] | None = None) -> tuple[Settings, list[str]]:
    """Read the settings; never raises.

    Args:
        path: the settings file (default: :func:`config_path`).
        known_binding_ids: ids a ``[keys]`` entry may name; None accepts any id. A mapping of
            id to default key string also reports remaps that put two bindings on one key.

    Returns:
        The settings (defaults where the file is missing or wrong) and one warning per problem.
    """
    path = path or config_path()
    data, problem = read_config_bytes(path)
    if data is None:
        return Settings(), [problem] if problem else []
    try:
        doc = parse_toml_bytes(data)
    except BadToml as exc:
        return Settings(), [f"{path}: {exc}; using the default settings"]
    warnings: list[str] = []
    values: dict[str, Any] = {}
    for raw_key, value in doc.items():
        key = ALIASES.get(raw_key, raw_key)
        if key not in SETTINGS:
            warnings.append(f"{path}: unknown setting {shown(raw_key)}{did_you_mean(raw_key, SETTINGS)} "
                            f"(ignored; known: {', '.join(SETTINGS)})")
        elif key in values:
            warnings.append(f"{path}: {raw_key} is set twice (as {key} and {raw_key}); the first one is used")
        else:
            values[key] = value
    fields: dict[str, Any] = {}
    for key in ("auto_advance", "blind"):
        if key in values:
            if isinstance(values[key], bool):
                fields[key] = values[key]
            else:
                warnings.append(f"{path}: {key} must be true or false, not {type_name(values[key])} "
                                f"({shown(values[key])}); using {str(getattr(Settings, key)).lower()}")
    if "theme" in values:
        theme = values["theme"]
        if isinstance(theme, str) and THEME_NAME.fullmatch(theme):
            fields["theme"] = theme
        else:
            warnings.append(f"{path}: theme must be a theme name (letters, digits, '.', '_', '-'), "
                            f"not {shown(theme)}; using the default theme")
    if "reviewer" in values:
        name = values["reviewer"]
        if valid_reviewer_name(name):
            fields["reviewer"] = name.strip()
        else:
            warnings.append(f"{path}: reviewer must be a name on one line (at most 100 characters), "
                            f"not {shown(name)}; ignored")
    if "keys" in values:
        fields["keys"] = read_keys(path, values["keys"], known_binding_ids, warnings)
    return Settings(**fields), warnings


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean x?)`` for a near miss, else ""."""
    near = difflib.get_close_matches(word.replace("_", "-"), list(choices), n=1, cutoff=0.75)
    near = near or difflib.get_close_matches(word.replace("-", "_"), list(choices), n=1, cutoff=0.75)
    return f" (did you mean {near[0]}?)" if near else ""


def read_keys(path: Path, table: object, known: Iterable[str] | None, warnings: list[str]) -> dict[str, str]:
    """The valid entries of the ``[keys]`` table; a warning for each bad one."""
    if not isinstance(table, dict):
        warnings.append(f"{path}: keys must be a table ([keys] with binding-id = \"key\" lines), "
                        f"not {type_name(table)}; no keys remapped")
        return {}
    known_ids = None if known is None else dict(known) if isinstance(known, Mapping) else dict.fromkeys(known, "")
    keys: dict[str, str] = {}
    for bid, value in table.items():
        if known_ids is not None and bid not in known_ids:
            warnings.append(f"{path}: [keys] {shown(bid)} is not a binding id{did_you_mean(bid, known_ids)}; ignored "
                            f"(the ? help screen lists every id)")
            continue
        if not isinstance(value, str):
            warnings.append(f"{path}: [keys] {shown(bid)} must be a key string like \"1\" or \"ctrl+s\", "
                            f"not {type_name(value)}; the default key is kept")
            continue
        normal, problem = parse_keys(value)
        if problem:
            warnings.append(f"{path}: [keys] {shown(bid)} = {shown(value)} {problem}; the default key is kept")
            continue
        keys[bid] = normal
    if known_ids is not None and isinstance(known, Mapping):
        warnings.extend(f"{path}: {w}" for w in keymap_clashes(known_ids, keys))
    return keys


def setting_line(key: str) -> re.Pattern[str]:
    """A top-level ``key = value  # comment`` line, with its parts named head, value and tail."""
    return re.compile(
        rf"""^(?P<head>[ \t]*{re.escape(key)}[ \t]*=[ \t]*)"""
        r"""(?P<value>"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^\s#"'\[{][^\s#]*)"""
        r"""(?P<tail>[ \t]*(?:\#.*)?)$"""
    )


TABLE_HEADER = re.compile(r"^[ \t]*\[")


def edit_setting_line(text: str, key: str, value: str) -> str:
    """The text with its top-level ``key = ...`` line set to ``value`` (added at the top when absent)."""
    pattern = setting_line(key)
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if TABLE_HEADER.match(line):
            break
        body = line.rstrip("\r\n")
        m = pattern.match(body)
        if m:
            lines[i] = m["head"] + value + m["tail"] + line[len(body):]
            return "".join(lines)
    return f"{key} = {value}\n" + text


def save_setting(key: str, value: str, path: Path | None = None) -> str | None:
    """Set one top-level string setting in the settings file; returns why it was not saved, or None.

    The rest of the file is kept: the ``key = ...`` line is edited in place (comments survive)
    and the result is checked by parsing it again; only when that fails is the file rewritten
    from its parsed content. A file that cannot be read or parsed is never overwritten.
    """
    path = path or config_path()
    target = Path(os.path.realpath(path))
    data, problem = read_config_bytes(path)
    if problem:
        return problem.removesuffix("; using the default settings")
    literal = toml_dumps({key: value}).split("=", 1)[1].strip()
    if data is None:
        new = f"{key} = {literal}\n".encode()
    else:
        try:
            doc = parse_toml_bytes(data)
        except BadToml as exc:
            return f"{path}: {exc}; fix or remove that file"
        if doc.get(key) == value:
            return None
        text = data.decode("utf-8").removeprefix("\ufeff")
        expected = {**doc, key: value}
        new = edit_setting_line(text, key, literal).encode()
        try:
            ok = parse_toml_bytes(new) == expected
        except BadToml:
            ok = False
        if not ok:
            new = toml_dumps(expected).encode()
    try:
        make_folder(config_home().parent, target.parent)
        atomic_write(target, new)
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    return None


def save_theme_choice(name: str, path: Path | None = None) -> str | None:
    """Remember the chosen theme in the settings file; returns a warning when it was not saved.

    The rest of the file, comments included, is kept (see :func:`save_setting`).
    """
    if not THEME_NAME.fullmatch(name):
        return f"theme {shown(name)} not saved: not a valid theme name"
    problem = save_setting("theme", name, path)
    return f"theme not saved: {problem}" if problem else None


def valid_reviewer_name(name: object) -> bool:
    """A name on one line, at most 100 characters, with no control characters."""
    return isinstance(name, str) and bool(name.strip()) and plain(name) == name and len(name) <= 100 and "\n" not in name


def save_reviewer_choice(name: str, path: Path | None = None) -> str | None:
    """Remember who is labelling (``reviewer = "..."``); returns why it was not saved, or None."""
    if not valid_reviewer_name(name):
        return f"reviewer name {shown(name)} not saved: a name is one line of at most 100 characters"
    problem = save_setting("reviewer", name.strip(), path)
    return f"reviewer name not saved: {problem}" if problem else None
