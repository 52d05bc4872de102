"""Who is labelling, where the name came from, when to ask, and remembering the answer."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.store.settings.config import config_path, load_settings
from reviewer.store.settings.identity import (
    Source,
    current_identity,
    name_question,
    remember_name,
    resolve_identity,
)

F2 = "s2/r3#heldout:test_connected"


@pytest.fixture
def git_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A real global git config (through GIT_CONFIG_GLOBAL) naming ``Git Person``."""
    cfg = tmp_path / "gitconfig"
    subprocess.run(["git", "config", "--file", str(cfg), "user.name", "Git Person"], check=True)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(cfg))
    return "Git Person"


def test_each_source_in_order(git_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_identity("alice", "carol") == resolve_identity("alice")
    assert resolve_identity("alice", "carol").source is Source.FLAG
    assert (resolve_identity(None, "carol").name, resolve_identity(None, "carol").source) == ("carol", Source.CONFIG)
    found = resolve_identity(None)
    assert (found.name, found.source) == (git_name, Source.GIT)
    assert found.describe() == "Git Person (git user.name)"
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    monkeypatch.setenv("LOGNAME", "loginperson")
    monkeypatch.setenv("USER", "loginperson")
    assert resolve_identity("  ").describe() == "loginperson (login name)"


def test_the_name_in_config_toml_is_used_and_remembering_keeps_the_file(git_name: str) -> None:
    path = config_path()
    path.parent.mkdir(parents=True)
    path.write_text('# my settings\ntheme = "reviewer-cvd"   # the cvd one\n\n[keys]\nnext-failure = "j,down"  # keep\n')
    assert current_identity()[0].source is Source.GIT
    identity, problem = remember_name("Zoë Ng")
    assert problem is None and identity is not None and identity.describe() == "Zoë Ng (config.toml)"
    text = path.read_text()
    assert text.startswith('reviewer = "Zoë Ng"\n# my settings\ntheme = "reviewer-cvd"   # the cvd one\n')
    assert 'next-failure = "j,down"  # keep' in text
    settings, warnings = load_settings()
    assert warnings == [] and settings.reviewer == "Zoë Ng" and settings.keys == {"next-failure": "j,down"}
    assert current_identity()[0] == identity
    remember_name("alice")
    assert path.read_text().startswith('reviewer = "alice"\n# my settings\n')  # edited in place, not added twice
    assert remember_name("two\nlines")[1] is not None and load_settings()[0].reviewer == "alice"


def test_a_damaged_config_is_never_overwritten_by_remembering() -> None:
    path = config_path()
    path.parent.mkdir(parents=True)
    path.write_text('theme = "unterminated\n')
    identity, problem = remember_name("alice")
    assert identity is None and problem and "not saved" in problem
    assert path.read_text() == 'theme = "unterminated\n'


def test_ask_only_when_the_name_was_guessed_and_others_have_labels(folder: Path, git_name: str,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    guessed = resolve_identity(None)
    assert name_question(folder, guessed) is None  # nobody has labelled yet
    assert main(["label", str(folder), "--failure", F2, "--verdict", "capability", "--reviewer", "bob"]) == 0
    capsys.readouterr()
    question = name_question(folder, guessed)
    assert question is not None and question.others == ("bob",) and question.suggestion == git_name
    assert "bob" in question.prompt() and "git user.name" in question.prompt()
    assert name_question(folder, resolve_identity(None, "alice")) is None  # a configured name: no question
    assert name_question(folder, resolve_identity("alice")) is None
    assert name_question(folder, resolve_identity("bob", None)) is None


def test_commands_that_label_say_who_and_from_where(folder: Path, git_name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["label", str(folder), "--failure", F2, "--verdict", "capability"]) == 0
    out = capsys.readouterr().out
    assert f"{F2}: capability by Git Person (git user.name)" in out
    assert f"saved in {folder / 's2' / 'labels'}" in out
    assert main(["label", str(folder), "--failure", F2, "--verdict", "specification", "--reviewer", "alice"]) == 0
    assert "by alice (--reviewer)" in capsys.readouterr().out
    remember_name("carol")
    assert main(["label", str(folder), "--failure", F2, "--verdict", "specification"]) == 0
    assert "by carol (config.toml)" in capsys.readouterr().out
    assert (folder / "s2" / "labels" / "carol" / "r3.toml").is_file()
