"""config.toml: settings, warnings instead of crashes, key remapping, and the saved theme."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import tomli

from reviewer.store.settings.config import (
    Settings,
    config_path,
    keymap_clashes,
    load_settings,
    parse_keys,
    save_theme_choice,
)

IDS = ["label-specification", "label-capability", "next-failure", "help", "quit"]
DEFAULTS = {"label-specification": "s", "label-capability": "c", "next-failure": "j", "help": "question_mark", "quit": "q,ctrl+q"}


def config(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "xdg-config" / "reviewer" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_default_path_and_missing_file_give_defaults_silently(tmp_path: Path) -> None:
    assert config_path() == tmp_path / "xdg-config" / "reviewer" / "config.toml"
    assert load_settings() == (Settings(), [])
    assert Settings().auto_advance and Settings().blind and Settings().theme is None


def test_every_setting_is_read(tmp_path: Path) -> None:
    config(tmp_path, 'theme = "reviewer-cvd"\nreviewer = " alice "\nauto_advance = false\nblind = false\n'
                     '[keys]\nlabel-specification = "a"\nlabel-capability = " z , ctrl+shift+c "\nhelp = "?"\n')
    settings, warnings = load_settings(known_binding_ids=IDS)
    assert warnings == []
    assert settings == Settings("reviewer-cvd", "alice", False, False,
                                {"label-specification": "a", "label-capability": "z,ctrl+shift+c", "help": "?"})


def test_crlf_and_bom_files_are_read_and_edited(tmp_path: Path) -> None:
    path = config(tmp_path, b'\xef\xbb\xbftheme = "reviewer-dark"\r\nblind = false\r\n')
    assert load_settings() == (Settings(theme="reviewer-dark", blind=False), [])
    assert save_theme_choice("reviewer-cvd") is None
    assert path.read_bytes() == b'theme = "reviewer-cvd"\r\nblind = false\r\n'


def test_auto_advance_may_be_spelled_with_a_hyphen(tmp_path: Path) -> None:
    config(tmp_path, "auto-advance = false\n")
    assert load_settings() == (Settings(auto_advance=False), [])


def test_unknown_keys_and_bad_types_warn_and_keep_defaults(tmp_path: Path) -> None:
    path = config(tmp_path, 'thme = "x"\nauto_advance = "yes"\nblind = 1\ntheme = "bad name!"\nreviewer = 3\nkeys = 5\n'
                            '[extra]\na = 1\n')
    settings, warnings = load_settings(known_binding_ids=IDS)
    assert settings == Settings()
    assert len(warnings) == 7
    assert all(w.startswith(f"{path}: ") for w in warnings)
    text = "\n".join(warnings)
    for needle in ("unknown setting 'thme' (did you mean theme?)", "unknown setting 'extra'", "auto_advance must be true or false, not a string",
                   "blind must be true or false, not an integer", "theme must be a theme name", "reviewer must be a name",
                   "keys must be a table"):
        assert needle in text


def test_key_remapping_warnings_name_the_binding(tmp_path: Path) -> None:
    path = config(tmp_path, '[keys]\nlabel-specification = "a"\nlabel_capability = "z"\nno-such-binding = "3"\n'
                            'next-failure = 4\nhelp = "Ctrl+H"\nquit = "ctrl+"\n"label-capability" = "hyper+kp_enter"\n')
    settings, warnings = load_settings(known_binding_ids=IDS)
    assert settings.keys == {"label-specification": "a"}
    assert len(warnings) == 6
    joined = "\n".join(warnings)
    assert all(w.startswith(f"{path}: [keys] ") for w in warnings)
    assert "'label_capability' is not a binding id (did you mean label-capability?)" in joined
    assert "'no-such-binding' is not a binding id" in joined
    assert "'next-failure' must be a key string" in joined
    assert "'help' = 'Ctrl+H' is not a key name: key names are lower case ('ctrl+h')" in joined
    assert "'quit' = 'ctrl+' is not a key name" in joined
    assert "'hyper+kp_enter' is not a key name" in joined


def test_without_known_ids_any_id_is_accepted(tmp_path: Path) -> None:
    config(tmp_path, '[keys]\nsomething-new = "f5"\n')
    assert load_settings() == (Settings(keys={"something-new": "f5"}), [])


@pytest.mark.parametrize("keys", ["1", "s", "?", "ctrl+s", "shift+tab", "f12", "space", "question_mark",
                                  "right_square_bracket", "j,down", "ctrl+shift+1", "é", "slash",
                                  "euro_sign", "section_sign", "ctrl+plus_sign"])
def test_valid_key_strings(keys: str) -> None:
    assert parse_keys(keys) == (keys, None)


@pytest.mark.parametrize("keys", ["", "  ", "a,,b", "ctrl+", "foo+a", "Enter", "not_a_key", "\x1b", "x" * 300,
                                  "ctrl+shift+banana", "snowman", "j,grinning_face"])
def test_invalid_key_strings(keys: str) -> None:
    normal, problem = parse_keys(keys)
    assert normal == "" and problem


def test_problems_name_the_bad_key_of_a_list() -> None:
    assert parse_keys("j,foo+a")[1] == "has a key 'foo+a' that has an unknown modifier 'foo' (use ctrl, shift, alt, meta, super)"
    assert parse_keys("foo+a")[1] == "has an unknown modifier 'foo' (use ctrl, shift, alt, meta, super)"


def test_remaps_that_put_two_bindings_on_one_key_are_reported(tmp_path: Path) -> None:
    path = config(tmp_path, '[keys]\nlabel-specification = "c"\nhelp = "/"\n')
    settings, warnings = load_settings(known_binding_ids=DEFAULTS)
    assert settings.keys == {"label-specification": "c", "help": "/"}
    assert warnings == [f"{path}: [keys]: label-capability and label-specification are both on 'c'; only one of them will work"]
    assert keymap_clashes(DEFAULTS, {"label-specification": "a"}) == []
    assert keymap_clashes(DEFAULTS, {"help": "q"}) != []
    assert keymap_clashes({"a": "?", "b": "x"}, {"b": "question_mark"}) != []


@pytest.mark.parametrize("data, reason", [
    (b"theme = \n", "not valid TOML"),
    (b"theme = \"a\"\x00", "NUL"),
    (b"\xff\xfe", "not valid UTF-8"),
    (b"x = " + b"[" * 3000 + b"]" * 3000, "nested too deeply"),
    (b"# " + b"x" * (300 << 10), "larger than 256 KiB"),
])
def test_unreadable_files_warn_and_use_defaults(tmp_path: Path, data: bytes, reason: str) -> None:
    path = config(tmp_path, data)
    settings, warnings = load_settings()
    assert settings == Settings()
    assert len(warnings) == 1 and warnings[0].startswith(str(path)) and reason in warnings[0]


def test_a_fifo_is_never_opened(tmp_path: Path) -> None:
    path = tmp_path / "xdg-config" / "reviewer" / "config.toml"
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    settings, warnings = load_settings()
    assert settings == Settings() and "FIFO" in warnings[0]
    assert save_theme_choice("reviewer-light") is not None
    assert path.is_fifo()


def test_saving_a_theme_creates_the_file(tmp_path: Path) -> None:
    assert save_theme_choice("reviewer-light") is None
    assert load_settings() == (Settings(theme="reviewer-light"), [])


def test_saving_a_theme_keeps_everything_else_and_the_comments(tmp_path: Path) -> None:
    original = ('# my settings\nreviewer = "alice"  # me\ntheme = "reviewer-dark"   # the default\n'
                'auto_advance = false\n\n[keys]\n# numbers are quicker\nlabel-specification = "a"\n')
    path = config(tmp_path, original)
    os.chmod(path, 0o600)
    assert save_theme_choice("reviewer-cvd") is None
    assert path.read_text() == original.replace('"reviewer-dark"', '"reviewer-cvd"')
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    settings, warnings = load_settings(known_binding_ids=IDS)
    assert warnings == []
    assert settings == Settings("reviewer-cvd", "alice", False, True, {"label-specification": "a"})


def test_saving_adds_a_theme_line_at_the_top_level(tmp_path: Path) -> None:
    path = config(tmp_path, '# hi\nblind = false\n[keys]\nhelp = "h"\n')
    assert save_theme_choice("reviewer-light") is None
    text = path.read_text()
    assert "# hi" in text and tomli.loads(text) == {"theme": "reviewer-light", "blind": False, "keys": {"help": "h"}}


def test_saving_falls_back_to_a_rewrite_when_the_line_cannot_be_edited(tmp_path: Path) -> None:
    path = config(tmp_path, 'theme = """\nreviewer-dark"""\nblind = false\n')
    assert save_theme_choice("reviewer-light") is None
    assert tomli.loads(path.read_text()) == {"theme": "reviewer-light", "blind": False}


def test_a_theme_line_inside_a_table_is_not_the_setting(tmp_path: Path) -> None:
    path = config(tmp_path, '[keys]\ntheme = "t"\n')
    assert save_theme_choice("reviewer-light") is None
    assert tomli.loads(path.read_text()) == {"theme": "reviewer-light", "keys": {"theme": "t"}}


def test_an_unparseable_file_is_never_overwritten(tmp_path: Path) -> None:
    original = b'theme = "reviewer-dark"\nreviewer = "alice\n'
    path = config(tmp_path, original)
    warning = save_theme_choice("reviewer-light")
    assert warning and str(path) in warning and "not valid TOML" in warning
    assert path.read_bytes() == original


def test_saving_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "reviewer.toml"
    real.parent.mkdir()
    real.write_text('reviewer = "bob"\n')
    link = tmp_path / "xdg-config" / "reviewer" / "config.toml"
    link.parent.mkdir(parents=True)
    link.symlink_to(real)
    assert save_theme_choice("reviewer-cvd") is None
    assert link.is_symlink()
    assert tomli.loads(real.read_text()) == {"reviewer": "bob", "theme": "reviewer-cvd"}


def test_a_bad_theme_name_is_not_saved(tmp_path: Path) -> None:
    assert save_theme_choice('x"\n[keys]') is not None
    assert not config_path().exists()
