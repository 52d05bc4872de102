"""User themes: loaded from the XDG config folder, broken ones reported and skipped, never a crash."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reviewer.store.settings.themes import THEME_CAP, ThemeProblem, choose_theme, load_themes, user_themes_dir
from reviewer.ui.theming import to_textual_kwargs

GOOD = """format = 1
name = "{name}"
dark = {dark}
[colors]
primary = "#112233"
foreground = "#eeeeee"
background = "#000"
"""


def user_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "xdg-config" / "reviewer" / "themes"
    folder.mkdir(parents=True)
    return folder


def write(folder: Path, file: str, text: str) -> Path:
    path = folder / file
    path.write_text(text, encoding="utf-8")
    return path


def only_problem(problems: list[ThemeProblem], path: Path) -> ThemeProblem:
    found = [p for p in problems if p.path == str(path)]
    assert len(found) == 1, problems
    return found[0]


def test_user_folder_follows_xdg_config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert user_themes_dir() == tmp_path / "xdg-config" / "reviewer" / "themes"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_themes_dir() == tmp_path / "home" / ".config" / "reviewer" / "themes"


def test_a_user_theme_loads_with_its_path_as_origin(tmp_path: Path) -> None:
    path = write(user_dir(tmp_path), "mine.toml", GOOD.format(name="mine", dark="false"))
    load = load_themes()
    assert load.problems == []
    assert load.origins["mine"] == str(path)
    spec = load.themes["mine"]
    assert not spec.dark and spec.code_style == "default"
    assert to_textual_kwargs(spec)["background"] == "#000000"
    assert to_textual_kwargs(spec)["panel"] is None
    assert list(load.themes)[-1] == "mine", "user themes come after the shipped ones"


def test_a_user_theme_replaces_a_built_in_one_of_the_same_name(tmp_path: Path) -> None:
    path = write(user_dir(tmp_path), "override.toml", GOOD.format(name="reviewer-dark", dark="true"))
    load = load_themes()
    assert load.origins["reviewer-dark"] == str(path)
    assert load.replaced == {"reviewer-dark": "built-in"}
    assert load.themes["reviewer-dark"].colors["primary"] == "#112233"
    assert load.origins["reviewer-light"] == "built-in"


BROKEN = {
    "syntax.toml": ('name = "x"\ndark = tru\n', "not valid TOML"),
    "noname.toml": ('dark = true\n[colors]\nprimary = "#111111"\n', "name is missing"),
    "nodark.toml": ('name = "nodark"\n[colors]\nprimary = "#111111"\n', "dark is missing"),
    "darktype.toml": ('name = "d"\ndark = "yes"\n[colors]\nprimary = "#111111"\n', "dark must be true or false"),
    "nocolors.toml": ('name = "c"\ndark = true\n', "[colors] is missing"),
    "noprimary.toml": ('name = "p"\ndark = true\n[colors]\nforeground = "#fff"\nbackground = "#000"\n',
                       "[colors] primary is missing"),
    "badhex.toml": (GOOD.format(name="h", dark="true").replace('"#112233"', '"#11223"'), "[colors] primary must be a colour"),
    "named.toml": (GOOD.format(name="n", dark="true").replace('"#112233"', '"red"'), "'red'"),
    "colortype.toml": (GOOD.format(name="t", dark="true").replace('"#112233"', "7"), "[colors] primary must be a colour"),
    "style.toml": (GOOD.format(name="s", dark="true") + '[code]\nstyle = "no-such-style"\n', "not an installed Pygments style"),
    "styleimport.toml": (GOOD.format(name="s2", dark="true") + '[code]\nstyle = "os"\n', "not an installed Pygments style"),
    "token.toml": (GOOD.format(name="k", dark="true") + '[code.tokens]\nKeywrd = "#fff"\n', "not a Pygments token name"),
    "tokenval.toml": (GOOD.format(name="v", dark="true") + '[code.tokens]\nKeyword = "blink #fff"\n', "'blink' is not a colour"),
    "verdict.toml": (GOOD.format(name="vv", dark="true") + '[verdict]\nspecification = "#fff"\ncapability = "#ffffff"\n',
                     "must have different colours"),
    "symbol.toml": (GOOD.format(name="sy", dark="true") + '[verdict]\nspecification_symbol = "\\u001b[2J"\n',
                    "specification_symbol must be 1 to 12 visible characters"),
    "format.toml": (GOOD.format(name="f", dark="true").replace("format = 1", "format = 2"), "format 2"),
    "badname.toml": (GOOD.format(name="has space/slash", dark="true"), "name must be letters"),
    "variables.toml": (GOOD.format(name="va", dark="true") + '[variables]\nx = "red; }"\n', "[variables] x must be"),
    "nul.toml": ('name = "z"\x00\n', "NUL"),
    "conflict.toml": ("<<<<<<< HEAD\nname = \"a\"\n=======\nname = \"b\"\n>>>>>>> x\n", "conflict markers"),
    "deep.toml": ("x = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
}


def test_every_kind_of_broken_file_is_reported_by_name_and_skipped(tmp_path: Path) -> None:
    folder = user_dir(tmp_path)
    paths = {file: write(folder, file, text) for file, (text, _) in BROKEN.items()}
    (folder / "latin1.toml").write_bytes(b'name = "caf\xe9"\n')
    good = write(folder, "zz-good.toml", GOOD.format(name="zz-good", dark="true"))
    load = load_themes()
    for file, (_, reason) in BROKEN.items():
        problem = only_problem(load.problems, paths[file])
        assert problem.skipped and reason in problem.reason, (file, problem.reason)
        assert str(paths[file]) in str(problem)
    assert "not valid UTF-8" in only_problem(load.problems, folder / "latin1.toml").reason
    assert load.origins["zz-good"] == str(good)
    assert {"reviewer-dark", "reviewer-light", "reviewer-cvd", "zz-good"} == set(load.themes)


def test_fifo_huge_file_and_directory_are_reported_without_blocking(tmp_path: Path) -> None:
    folder = user_dir(tmp_path)
    os.mkfifo(folder / "pipe.toml")
    (folder / "huge.toml").write_bytes(b"# " + b"x" * (THEME_CAP + 10) + b"\n")
    (folder / "dir.toml").mkdir()
    load = load_themes()
    assert "FIFO" in only_problem(load.problems, folder / "pipe.toml").reason
    assert "larger than 256 KiB" in only_problem(load.problems, folder / "huge.toml").reason
    assert "directory" in only_problem(load.problems, folder / "dir.toml").reason
    assert len(load.themes) == 3


def test_symlinked_theme_is_read_and_dangling_link_reported(tmp_path: Path) -> None:
    folder = user_dir(tmp_path)
    elsewhere = write(tmp_path, "dotfiles-theme.toml", GOOD.format(name="linked", dark="true"))
    (folder / "linked.toml").symlink_to(elsewhere)
    (folder / "gone.toml").symlink_to(tmp_path / "missing.toml")
    load = load_themes()
    assert "linked" in load.themes
    assert "not found" in only_problem(load.problems, folder / "gone.toml").reason


def test_unknown_keys_are_reported_but_the_theme_is_used(tmp_path: Path) -> None:
    folder = user_dir(tmp_path)
    path = write(folder, "typo.toml", GOOD.format(name="typo", dark="true").replace("[colors]", "primay = 1\n[colors]")
                 + 'succes = "#00ff00"\n')
    load = load_themes()
    assert "typo" in load.themes
    notes = [p for p in load.problems if p.path == str(path)]
    assert [p.skipped for p in notes] == [False, False]
    assert "'primay'" in notes[0].reason and "'succes' in [colors]" in notes[1].reason


def test_two_user_files_with_one_name_keep_the_first(tmp_path: Path) -> None:
    folder = user_dir(tmp_path)
    first = write(folder, "a.toml", GOOD.format(name="same", dark="true"))
    second = write(folder, "b.toml", GOOD.format(name="same", dark="false"))
    load = load_themes()
    assert load.origins["same"] == str(first)
    assert "already defined in" in only_problem(load.problems, second).reason


def test_hidden_and_non_toml_files_are_ignored(tmp_path: Path) -> None:
    folder = user_dir(tmp_path)
    write(folder, ".swap.toml", "garbage [")
    write(folder, "notes.txt", "garbage [")
    load = load_themes()
    assert load.problems == [] and len(load.themes) == 3


def test_a_themes_path_that_is_a_file_is_reported(tmp_path: Path) -> None:
    (tmp_path / "xdg-config" / "reviewer").mkdir(parents=True)
    (tmp_path / "xdg-config" / "reviewer" / "themes").write_text("oops")
    load = load_themes()
    assert len(load.themes) == 3
    assert "is not a folder" in load.problems[0].reason


def test_choose_theme_falls_back_with_a_warning() -> None:
    names = ["reviewer-dark", "reviewer-light"]
    assert choose_theme(None, names) == ("reviewer-dark", None)
    assert choose_theme("reviewer-light", names) == ("reviewer-light", None)
    name, warning = choose_theme("gone", names)
    assert name == "reviewer-dark" and warning and "'gone'" in warning


def test_messages_name_the_table(tmp_path: Path) -> None:
    folder = user_dir(tmp_path)
    tokens = write(folder, "tokens.toml", GOOD.format(name="tk", dark="true") + '[code]\ntokens = 3\n')
    colours = write(folder, "colours.toml", 'name = "c"\ndark = true\n[colors]\nprimary = "#fff"\n')
    load = load_themes()
    assert only_problem(load.problems, tokens).reason == "code.tokens must be a table ([code.tokens]), not '3'"
    assert only_problem(load.problems, colours).reason == "[colors] foreground and background are missing"
