"""The file-name table gives Pygments' own answer (every pattern: test_language_all.py, slow)."""

from __future__ import annotations

import pytest
from pygments.lexers import get_lexer_for_filename
from pygments.util import ClassNotFound

from reviewer.ui.render.language import language_for, table


def pygments_says(name: str) -> str | None:
    try:
        lexer = get_lexer_for_filename(name)
    except ClassNotFound:
        return None
    return lexer.aliases[0] if lexer.aliases else None


@pytest.mark.parametrize("name", ["notes", "README", "", "/", "a.", ".", "x.unknownsuffix", "weird\nname.py",
                                  "x.tar.gz", "CMakeLists.txt", "foo.h", "a.pl", "Kconfig.debug",
                                  "main.go", "a.rs", "x.js", "x.ts", "page.html", "a.c", "a.cpp", "a.m", "x.1", "a.sh",
                                  "Dockerfile", "a.toml", "a.yaml", "a.json", "a.md", "a.txt", "x.inc", "a.v"])
def test_odd_names_agree_with_pygments(name: str) -> None:
    assert language_for(name) == pygments_says(name.rsplit("/", 1)[-1] or name)


def test_the_table_knows_suffixes_names_and_globs() -> None:
    known = table()
    assert ("Python", "*.py") in known.suffixes[".py"]
    assert any(lexer == "Makefile" for lexer, _p in known.names["Makefile"])
    assert 0 < len(known.globs) < 50
