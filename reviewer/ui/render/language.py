"""Which Pygments language a file name means, without Pygments' scan of every lexer.

``pygments.lexers.get_lexer_for_filename`` matches the name against all ~900 filename patterns of
all ~600 lexers, compiling a regular expression for each on first use, and asks the installed
packages for plugin lexers: about 150 ms on the first file shown, on the path to the first screen.
Here the patterns are read once from Pygments' table (:func:`pygments.lexers.get_all_lexers`, no
lexer module loaded) into a name table and a suffix table; the dozen patterns that are neither
(``Makefile.*``, ``*.[1-9]``) are matched as globs. When several lexers claim a name, Pygments'
own rule picks one (its priority, with a bonus for a pattern without ``*``), so the answer is the
one ``get_lexer_for_filename`` gives for built-in lexers. Plugin lexers are not consulted: a file
name in a recorded run never selects code from another installed package.
"""

from __future__ import annotations

import fnmatch
import re
from functools import lru_cache

GLOB = re.compile(r"[*?\[]")


class Table:
    """Pygments' filename patterns, by kind."""

    def __init__(self) -> None:
        self.names: dict[str, list[tuple[str, str]]] = {}
        """Exact file names (``Makefile``) -> (lexer name, pattern)."""
        self.suffixes: dict[str, list[tuple[str, str]]] = {}
        """``.py`` (from ``*.py``) -> (lexer name, pattern)."""
        self.globs: list[tuple[re.Pattern[str], str, str]] = []
        """The rest, as compiled globs -> lexer name, pattern."""
        self.aliases: dict[str, str] = {}
        """Lexer name -> its first alias."""
        from pygments.lexers import get_all_lexers  # with the first file looked up, after the first screen

        for name, aliases, patterns, _mimetypes in get_all_lexers(plugins=False):
            if aliases:
                self.aliases[name] = aliases[0]
            for pattern in patterns:
                if not GLOB.search(pattern):
                    self.names.setdefault(pattern, []).append((name, pattern))
                elif pattern.startswith("*.") and not GLOB.search(pattern[2:]):
                    self.suffixes.setdefault(pattern[1:], []).append((name, pattern))
                else:
                    self.globs.append((re.compile(fnmatch.translate(pattern)), name, pattern))

    def candidates(self, name: str) -> list[tuple[str, str]]:
        """Every (lexer name, pattern) whose pattern matches the file name."""
        found = list(self.names.get(name, ()))
        dot = name.find(".")
        while dot >= 0:  # "a.tar.gz" ends in ".tar.gz" and in ".gz"
            found.extend(self.suffixes.get(name[dot:], ()))
            dot = name.find(".", dot + 1)
        found.extend((lexer, pattern) for glob, lexer, pattern in self.globs if glob.match(name))
        return found


@lru_cache(maxsize=1)
def table() -> Table:
    """The table, read once."""
    return Table()


def rating(candidate: tuple[str, str]) -> tuple[float, str]:
    """Pygments' rule for a name several lexers claim: priority, +0.5 for an exact pattern."""
    from pygments.lexers import find_lexer_class

    lexer, pattern = candidate
    cls = find_lexer_class(lexer)
    if cls is None:
        return (-1.0, lexer)
    return (cls.priority + (0.5 if "*" not in pattern else 0), cls.__name__)


@lru_cache(maxsize=4096)
def language_for(path: str) -> str | None:
    """The Pygments language for a file name, or None (plain text). Never guesses from content."""
    name = path.rsplit("/", 1)[-1] or path
    try:
        found = table().candidates(name)
        if not found:
            return None
        lexer = found[0][0] if len({x[0] for x in found}) == 1 else max(found, key=rating)[0]
    except Exception:  # a hostile name must never break the pane
        return None
    return table().aliases.get(lexer)
