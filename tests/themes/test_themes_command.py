"""``reviewer themes`` through the real entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.cli import main

MINE = 'name = "mine"\ndark = false\n[colors]\nprimary = "#123456"\nforeground = "#000000"\nbackground = "#ffffff"\n'


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def user_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "xdg-config" / "reviewer" / "themes"
    folder.mkdir(parents=True)
    return folder


def test_lists_the_shipped_themes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "themes")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["THEME", "KIND", "FROM"]
    assert lines[1:4] == [
        "  reviewer-cvd    dark   built-in",
        "* reviewer-dark   dark   built-in",
        "  reviewer-light  light  built-in",
    ]
    assert lines[-1] == "3 themes (* in use)"


def test_user_themes_show_their_file_and_broken_ones_go_to_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = user_dir(tmp_path)
    (folder / "mine.toml").write_text(MINE)
    (folder / "broken.toml").write_text(MINE.replace('"mine"', '"broken"').replace('"#123456"', '"blue"'))
    (folder / "dark.toml").write_text(MINE.replace('"mine"', '"reviewer-dark"').replace("false", "true"))
    (tmp_path / "xdg-config" / "reviewer" / "config.toml").write_text('theme = "mine"\n')
    code, out, err = run(capsys, "themes")
    assert code == 0
    assert f"* mine            light  {folder / 'mine.toml'}" in out
    assert f"  reviewer-dark   dark   {folder / 'dark.toml'} (replaces the built-in one)" in out
    assert "broken" not in out.replace("file skipped", "")
    assert out.splitlines()[-1] == "4 themes (* in use), 1 file skipped (reasons on stderr)"
    assert err == (f"reviewer themes: {folder / 'broken.toml'}: skipped: "
                   "[colors] primary must be a colour like \"#1e90ff\", not 'blue'\n")


def test_json_lists_name_kind_and_origin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = user_dir(tmp_path)
    (folder / "mine.toml").write_text(MINE)
    (folder / "bad\x1b]0;pwned\x07.toml").write_text("garbage = [")
    code, out, err = run(capsys, "themes", "--json")
    rows = json.loads(out)
    assert code == 0
    assert [r["name"] for r in rows] == ["mine", "reviewer-cvd", "reviewer-dark", "reviewer-light"]
    assert rows[0] == {"name": "mine", "dark": False, "origin": str(folder / "mine.toml"), "replaces": None,
                       "code_style": "default", "description": "", "current": False}
    assert rows[2]["current"] and rows[2]["origin"] == "built-in"
    assert "\x1b" not in err and "\x07" not in err and "not valid TOML" in err


def test_settings_warnings_are_reported_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "xdg-config" / "reviewer").mkdir(parents=True)
    (tmp_path / "xdg-config" / "reviewer" / "config.toml").write_text('theme = "gone"\n')
    code, out, err = run(capsys, "themes")
    assert code == 0 and "* reviewer-dark" in out
    assert "theme 'gone' from the settings is not available; using reviewer-dark" in err


def test_help_documents_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["themes", "--help"])
    text = capsys.readouterr().out
    assert exc.value.code == 0
    assert "exit status:" in text and "--json" in text
