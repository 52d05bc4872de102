"""Go's ``\\tpanic:`` lines in a real terminal: each drawn once, inside the Grader pane's border.

A tab that reaches the terminal moves its cursor to the next tab stop while Textual counts the
tab as no cell: the rest of the row lands where Textual never drew, so the old text stays
("panicpanic: ...", "testi/usr/local/go/...") and the pane's right border is pushed off the row.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from test_screen_sizes import env
from test_terminal import reviewer_command
from tmux_driver import Tmux, tmux_available

from reviewer.store.fs.paths import bundled_sessions

pytestmark = pytest.mark.skipif(not tmux_available(), reason="tmux is not installed")
FAILURE = "pounce-2026-11/roman-go--gale-13b#heldout:TestHeldOutZero"
PANIC_LINES = (
    "panic: roman.ToRoman: 0 is outside 1..3999 [recovered]",
    "    panic: roman.ToRoman: 0 is outside 1..3999",  # recorded as "\tpanic: ...": the tab is 4 columns
)


def grader_rows(screen: str) -> tuple[list[str], int, int]:
    """The rows of the Grader pane's box and the columns of its left and right borders."""
    rows = screen.split("\n")
    top = next(i for i, row in enumerate(rows) if "\u2500 Grader " in row)
    left = rows[top].index("\u256d\u2500 Grader ")
    right = rows[top].index("\u256e", left)
    bottom = next(i for i in range(top + 1, len(rows)) if rows[i][left:left + 1] == "\u2570")
    return [row[left:right + 1] for row in rows[top + 1:bottom]], left, right


def test_the_panic_lines_show_once_each_inside_the_grader_border(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    shutil.copytree(bundled_sessions(), folder)
    raw = (folder / "pounce-2026-11" / "runs" / "roman-go--gale-13b" / "grader" / "heldout.out").read_text()
    assert '"Output":"\\tpanic: roman.ToRoman' in raw  # the recorded output holds the tab this test is about
    command = [*reviewer_command(), str(folder), "--failure", FAILURE]
    with Tmux(command, size=(200, 50), cwd=tmp_path, env=env(tmp_path)) as term:
        term.wait_for(r"failure \d+ of \d+\b(?!\+)", timeout=30)
        screen = term.wait_still(r"TestHeldOutZero  \u25c0[\s\S]*panic: roman", timeout=15)
    box, left, right = grader_rows(screen)
    width = right - left + 1
    for row in box:  # every row of the pane ends at its border: nothing pushed past it
        assert len(row) == width and row[0] == "\u2502" and row[-1] in "\u2502\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588\u2589\u258a\u258b\u258c\u258d\u258e\u258f", (row, screen)
    inside = [row[1:-1] for row in box]
    start = next(i for i, row in enumerate(inside) if "TestHeldOutZero  \u25c0" in row)
    message = inside[start + 1:start + 1 + len(PANIC_LINES)]
    for wanted, row in zip(PANIC_LINES, message):
        assert row.rstrip().endswith(wanted) and row.count("panic") == 1, (wanted, row, screen)
    assert not any(re.search(r"panicpanic|[a-z]/usr/local/go", row) for row in inside), screen
