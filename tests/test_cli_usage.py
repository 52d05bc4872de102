"""A mistyped command is named as one, with the nearest command; ``--help`` fits the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer.cli import COMMANDS, PLUGIN_NAMES, main
from reviewer.commands.common import HELP_WIDTH, wrap_line


def test_a_mistyped_command_gets_the_nearest_one(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["faliures"]) == 2
    assert capsys.readouterr().err == "reviewer: unknown command 'faliures', did you mean failures?\n"
    assert main(["faliures", "sessions", "--json"]) == 2  # not "unrecognized arguments: sessions"
    assert "did you mean failures?" in capsys.readouterr().err
    assert main(["stat"]) == 2 and "did you mean stats?" in capsys.readouterr().err
    assert main(["xyzzy"]) == 2
    assert "not a command and there is no folder" in capsys.readouterr().err


def test_a_folder_named_like_a_mistyped_command_still_opens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reviewer.cli import unknown_command

    monkeypatch.chdir(tmp_path)
    (tmp_path / "faliures").mkdir()
    assert unknown_command("faliures") is None  # an existing folder is what the user meant
    assert unknown_command("./missing") is None and unknown_command("a/b") is None  # a path: "not a folder" says it


def help_of(argv: list[str], columns: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    """``reviewer ARGV --help`` on a terminal ``columns`` wide."""
    monkeypatch.setenv("COLUMNS", str(columns))
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("columns", [60, 80, 200])
def test_every_help_fits_the_terminal_at_most_100_columns(columns: int, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    limit = min(columns, HELP_WIDTH)
    for command in ["", *sorted({*COMMANDS, *PLUGIN_NAMES})]:
        text = help_of([command] if command else [], columns, capsys, monkeypatch)
        usage, _, rest = text.partition("\n\n")
        # argparse never breaks a group of options in the usage: only very narrow terminals see one run over
        lines = rest.splitlines() + (usage.splitlines() if columns >= 80 else [])
        long = [line for line in lines if len(line) > limit]
        assert long == [], (command, long)


def test_wrapped_list_rows_continue_under_their_second_column() -> None:
    row = "  stats       per task and model: " + "failures and shares " * 8
    lines = wrap_line(row, 60).splitlines()
    assert len(lines) > 1 and all(len(line) <= 60 for line in lines)
    assert all(line.startswith(" " * 14) and line[14] != " " for line in lines[1:])
    assert wrap_line("  0  success", 60) == "  0  success"
