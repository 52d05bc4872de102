"""End to end: the installed ``reviewer`` in a real terminal, read back with tmux."""

from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path

import pytest
from sessionkit import example_corpus, example_corpus_built
from tmux_driver import Tmux, tmux_available

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not tmux_available(), reason="tmux is not installed")


def reviewer_command() -> list[str]:
    """The console script next to this Python, else on PATH, else ``python -m reviewer.cli``."""
    beside = Path(sys.executable).with_name("reviewer")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("reviewer")
    return [found] if found else [sys.executable, "-m", "reviewer.cli"]


def corpus(tmp_path: Path) -> Path:
    """A copy of the example corpus when it has runs, else a small folder of the tests' own."""
    if example_corpus_built():
        return example_corpus(tmp_path / "sessions")
    sys.path.insert(0, str(REPO / "tests" / "ui"))
    from uikit import basic_folder

    return basic_folder(tmp_path / "sessions")


def failure_number(screen: str) -> int:
    """The N of ``failure N of M`` on the status line."""
    found = re.search(r"failure (\d+) of \d+", screen)
    assert found, screen
    return int(found.group(1))


def test_the_app_shows_four_panes_and_j_moves_on(tmp_path: Path) -> None:
    folder = corpus(tmp_path)
    env = {"TERM": "xterm-256color", "COLORTERM": "truecolor", "TEXTUAL_ANIMATIONS": "none"}
    with Tmux([*reviewer_command(), str(folder)], size=(200, 50), cwd=REPO, env=env) as term:
        term.wait_for(r"failure \d+ of \d+\b(?!\+)", timeout=30)
        screen = term.wait_still(r"│\s*1  \S", timeout=10)  # line 1 of the code, numbered
        for title in ("Runs", "Brief", "Code", "Grader", "Transcript"):
            assert re.search(rf"[─╭]\s?{title}\s?[─╮]", screen), f"no {title} pane:\n{screen}"
        assert re.search(r"attempt \d+/\d+", screen), screen  # the Code pane's header
        assert re.search(r"exit \d+", screen), screen  # the Grader pane's header
        assert re.search(r"turn [\d–]+/\d+", screen), screen  # the Transcript pane's header
        assert "✗" in screen, screen  # a failed check (or run)
        first = failure_number(screen)
        term.send("j")
        screen = term.wait_for(rf"failure (?!{first}\b)\d+ of", timeout=10)
        assert failure_number(screen) == first + 1
        term.send("q")
        assert term.exit_status() == 0


def test_hostile_text_shows_literally_and_never_reaches_the_terminal(tmp_path: Path) -> None:
    sys.path.insert(0, str(REPO / "tests" / "ui"))
    from uikit import HOSTILE_SHOWN, hostile_folder

    folder = hostile_folder(tmp_path / "sessions")
    env = {"TERM": "xterm-256color", "TEXTUAL_ANIMATIONS": "none"}
    with Tmux([*reviewer_command(), str(folder)], size=(200, 50), cwd=REPO, env=env) as term:
        screen = term.wait_for(r"failure \d+ of \d+\b(?!\+)", timeout=30)
        screen = term.wait_still(re.escape("␛]0;PWNED"), timeout=10)
        assert HOSTILE_SHOWN in screen
        term.send("Tab", "Tab", "Enter", "d", "l", "j", "Space")
        time.sleep(1)
        assert term.alive()
        assert "PWNED" not in term.title()
        assert "failure" in term.screen()
