"""Finding text in a text view (``ctrl+f``): the query, every match, and the match jumped to.

Pure state over the view's lines (no Textual): :class:`~reviewer.ui.widgets.text_view.TextView`
holds one, asks it where to scroll, and marks what it says is a match when it draws a row.
"""

from __future__ import annotations

import re
from typing import Iterable

from reviewer.ui.render.wrap import find_all


class TextFind:
    """A find in some lines: case-insensitive, every match by (line, column), one of them current."""

    def __init__(self) -> None:
        self.query = ""
        """The text being found, "" when find is off."""
        self.matches: list[tuple[int, int]] = []
        """(line, column) of every match of the query."""
        self.current = -1
        """Index into :attr:`matches` of the match jumped to (-1: none)."""
        self.pattern: re.Pattern[str] | None = None

    def search(self, lines: Iterable[str], query: str, from_line: int) -> tuple[int, int] | None:
        """Find ``query`` in the lines; the first match at or after ``from_line`` (wrapping) becomes
        current. Returns where it is, None when nothing matches."""
        self.query = query
        self.pattern = re.compile(re.escape(query), re.IGNORECASE) if query else None
        self.lines_changed(lines)
        if not self.matches:
            return None
        self.current = next((i for i, (line, _) in enumerate(self.matches) if line >= from_line), 0)
        return self.matches[self.current]

    def lines_changed(self, lines: Iterable[str]) -> None:
        """The lines are new: find the query in them again; no match is current."""
        self.matches = find_all(lines, self.query) if self.query else []
        self.current = -1

    def step(self, step: int) -> tuple[int, int] | None:
        """Make the next (+1) or previous (-1) match current, wrapping; where it is (None: no match)."""
        if not self.matches:
            return None
        self.current = (self.current + step) % len(self.matches)
        return self.matches[self.current]

    def clear(self) -> None:
        """Find is off."""
        self.query, self.pattern, self.matches, self.current = "", None, [], -1

    @property
    def current_place(self) -> tuple[int, int] | None:
        """(line, column) of the current match, None when there is none."""
        return self.matches[self.current] if 0 <= self.current < len(self.matches) else None

    def spans(self, text: str, line: int, offset: int) -> list[tuple[int, int, bool]]:
        """The matches in ``text`` (a window of ``line`` starting at column ``offset``): (start, end,
        whether it is the current match), in ``text``'s own columns."""
        if self.pattern is None:
            return []
        current = self.current_place
        return [(found.start(), found.end(), current == (line, found.start() + offset))
                for found in self.pattern.finditer(text)]
