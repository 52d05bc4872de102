"""The file-name table gives Pygments' own answer for every filename pattern Pygments knows
(slow: Pygments takes about 5 ms a name)."""

from __future__ import annotations

import fnmatch

from pygments.lexers import get_all_lexers
from test_language import pygments_says

from reviewer.ui.render.language import language_for


def names_for(pattern: str) -> list[str]:
    """File names a pattern matches: its literal form, with a stem, and a doubled suffix."""
    literal = pattern.replace("*", "x").replace("?", "a")
    while "[" in literal:  # [ch] -> c, [1-9] -> 1
        start = literal.index("[")
        end = literal.index("]", start)
        literal = literal[:start] + literal[start + 1] + literal[end + 1:]
    names = [literal, "dir/" + literal, "a.b" + literal if literal.startswith(".") else literal]
    return [n for n in names if fnmatch.fnmatchcase(n.rsplit("/", 1)[-1], pattern)]


PATTERNS = sorted({p for _n, _a, patterns, _m in get_all_lexers(plugins=False) for p in patterns})


def test_every_pattern_of_pygments_gives_its_answer() -> None:
    wrong = [(name, language_for(name), pygments_says(name))
             for pattern in PATTERNS for name in names_for(pattern)
             if language_for(name) != pygments_says(name)]
    assert len(PATTERNS) > 500
    assert wrong == []
