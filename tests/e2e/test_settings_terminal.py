"""End to end, in a real terminal: a broken theme file is reported on screen and a remapped key labels.

The installed ``reviewer`` runs in tmux with ``XDG_CONFIG_HOME`` pointing to a folder holding a
broken theme file and a ``config.toml`` that moves label-specification to ``1``, on a copy of
the example corpus in tmp.
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path

import pytest
from sessionkit import example_corpus
from tmux_driver import Tmux, tmux_available

from reviewer.store.labels import parse_labels

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not tmux_available(), reason="tmux is not installed")


def reviewer_command() -> list[str]:
    """The console script next to this Python, else on PATH, else ``python -m reviewer.cli``."""
    beside = Path(sys.executable).with_name("reviewer")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("reviewer")
    return [found] if found else [sys.executable, "-m", "reviewer.cli"]


def corpus_copy(tmp_path: Path) -> Path:
    """A copy of the bundled example corpus (or of the tests' small folder when it has no runs)."""
    target = tmp_path / "work" / "sessions"
    bundled = REPO / "sessions"
    if any(bundled.glob("*/runs/*/run.toml")):
        return example_corpus(target)
    sys.path.insert(0, str(REPO / "tests" / "ui"))
    from uikit import basic_folder

    return basic_folder(target)


def labels_on_disk(folder: Path) -> dict[str, str]:
    """failure id -> verdict over every reviewer labels file of the folder."""
    out: dict[str, str] = {}
    for path in sorted(folder.glob("*/labels/*/*.toml")):
        session, reviewer = path.parent.parent.parent.name, path.parent.name
        parsed = parse_labels(path.read_bytes(), session, reviewer)
        out.update({f"{session}/{lab.run}#{lab.check}": lab.verdict.value for lab in parsed.labels})
    return out


def test_broken_theme_is_reported_and_a_remapped_key_labels(tmp_path: Path) -> None:
    folder = corpus_copy(tmp_path)
    config = tmp_path / "xdg-config"
    (config / "reviewer" / "themes").mkdir(parents=True)
    (config / "reviewer" / "themes" / "broken-theme.toml").write_text('name = "broken"\ndark = true\n[colors\n')
    (config / "reviewer" / "config.toml").write_text('reviewer = "e2e"\n\n[keys]\nlabel-specification = "1"\n')
    env = {"TERM": "xterm-256color", "COLORTERM": "truecolor", "TEXTUAL_ANIMATIONS": "none",
           "XDG_CONFIG_HOME": str(config), "XDG_DATA_HOME": str(tmp_path / "xdg-data")}
    with Tmux([*reviewer_command(), str(folder)], size=(200, 50), cwd=tmp_path, env=env) as term:
        screen = term.wait_for(r"failure 1 of \d+\b(?!\+)", timeout=30)
        assert re.search(r"⚠ Theme file \S*broken-theme\.toml: skipped: is not valid TOML", screen), screen
        assert "dismiss" in screen

        term.send("s")
        time.sleep(1.5)
        screen = term.screen()
        assert re.search(r"failure 1 of \d+", screen), screen  # s moved nothing on
        assert re.search(r"\b0/\d+ labelled", screen), screen
        assert labels_on_disk(folder) == {}

        term.send("1")
        screen = term.wait_for(r"\b1/\d+ labelled", timeout=10)
        labels = labels_on_disk(folder)
        assert list(labels.values()) == ["specification"], labels
        assert (next(iter(folder.glob("*/labels/*/*.toml")))).parent.name == "e2e"
        assert "broken-theme.toml" in screen  # the warning stays until dismissed

        term.send("C-w")
        deadline = time.monotonic() + 10
        while "broken-theme.toml" in term.screen() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "broken-theme.toml" not in term.screen(), term.screen()
        term.send("q")
        assert term.exit_status() == 0
