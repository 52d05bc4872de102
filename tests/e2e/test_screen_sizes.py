"""Issue 18's screen in a real terminal at the three sizes reviewers use: 200x50, 120x40, 80x24.

The Grader output starts at its column 0 (nothing of its first line is scrolled away), the
reviewer's name is on screen, and at 200 columns the help cuts no line with an ellipsis.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sessionkit import example_corpus
from test_terminal import reviewer_command
from tmux_driver import Tmux, tmux_available

REPO = Path(__file__).resolve().parents[2]
FAILURE = "heldout-2026-12/roman-py--delta-pro#heldout-script:run"
"""Its grader printed a traceback: the first output line is ``Traceback (most recent call last):``."""
FIRST_LINE = re.compile(r"│ ?Traceback \(most recent call last\):")

pytestmark = pytest.mark.skipif(not tmux_available(), reason="tmux is not installed")


def env(tmp_path: Path) -> dict[str, str]:
    """A private config naming the reviewer, private data and cache folders."""
    config = tmp_path / "xdg-config"
    (config / "reviewer").mkdir(parents=True)
    (config / "reviewer" / "config.toml").write_text('reviewer = "e2e-sizes"\n')
    return {"TERM": "xterm-256color", "COLORTERM": "truecolor", "TEXTUAL_ANIMATIONS": "none",
            "XDG_CONFIG_HOME": str(config), "XDG_DATA_HOME": str(tmp_path / "xdg-data"),
            "XDG_CACHE_HOME": str(tmp_path / "xdg-cache")}


@pytest.mark.parametrize("size", [(200, 50), (120, 40), (80, 24)], ids=["200x50", "120x40", "80x24"])
def test_grader_output_from_column_0_and_the_name_on_screen(tmp_path: Path, size: tuple[int, int]) -> None:
    sessions = example_corpus(tmp_path / "sessions")
    assert (sessions / FAILURE.partition("#")[0].replace("/", "/runs/", 1)).is_dir()
    with Tmux([*reviewer_command(), str(sessions), "--failure", FAILURE], size=size, cwd=REPO, env=env(tmp_path)) as term:
        term.wait_for(r"failure \d+ of \d+\b(?!\+)", timeout=30)
        screen = term.wait_still(FIRST_LINE.pattern, timeout=15)
        assert "e2e-sizes" in screen, screen  # who is labelling
        assert "heldout-script" in screen  # the Grader pane is the one shown (all four when wide)


def test_help_cuts_no_line_at_200_columns(tmp_path: Path) -> None:
    with Tmux([*reviewer_command(), str(example_corpus(tmp_path / "sessions"))], size=(200, 50), cwd=REPO, env=env(tmp_path)) as term:
        term.wait_for(r"failure \d+ of \d+\b(?!\+)", timeout=30)
        term.send("?")
        screen = term.wait_still(r"─ Keys ─", timeout=10)  # the help's box, wholly drawn
        assert "next-failure" in screen and "label-specification" in screen, screen
        assert "\u2026" not in screen, screen  # no description, id or tooltip cut
