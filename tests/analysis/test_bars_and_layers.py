"""Terminal bars are plain strings of block characters; the analysis layer stays headless."""

from __future__ import annotations

import subprocess
import sys

from reviewer.analysis.stats.bars import bar, bar_rows, interval_line, percent, split_bar


def test_bars_use_eighth_blocks_and_keep_their_width() -> None:
    assert bar(0.0, 8) == " " * 8
    assert bar(1.0, 8) == "█" * 8
    assert bar(0.5, 8) == "████    "
    assert bar(1 / 64, 8) == "▏       "  # one eighth of one cell
    assert bar(0.3, 10) == "███" + " " * 7
    assert bar(0.33, 10) == "███▎      "
    assert bar(2.0, 4) == "████" and bar(-1, 4) == "    "
    for i in range(101):
        assert len(bar(i / 100, 13)) == 13


def test_split_bars_rows_and_intervals() -> None:
    assert split_bar(0.5, 0.25, 8) == "████░░  "
    rows = bar_rows([("alice", 0.5, "5 labelled"), ("bob", None, "none")], width=4)
    assert rows == ["alice  ██    5 labelled", "bob    ····  none"]
    line = interval_line(0.2, 0.5, 0.9, 21)
    assert line.startswith("0% ") and line.endswith(" 100%")
    cells = line[3:-5]
    assert cells.index("├") < cells.index("●") < cells.index("┤")
    assert (percent(None), percent(0.666)) == ("—", "67%")


def test_analysis_imports_neither_textual_nor_git() -> None:
    probe = (
        "import importlib, pkgutil, sys\n"
        "import reviewer.analysis as pkg\n"
        "for m in pkgutil.walk_packages(pkg.__path__, 'reviewer.analysis.'):\n"
        "    importlib.import_module(m.name)\n"
        "import reviewer.commands.analysiscmd\n"
        "print(','.join(sorted(n for n in ('textual', 'git', 'rich') if n in sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
