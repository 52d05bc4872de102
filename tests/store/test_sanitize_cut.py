"""Over-long lines are cut before the sanitiser walks them, with the same result where shown."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.model.sanitize import cap_text, clean, clean_and_cap

PIECES = ["a", "b", " ", "\t", "\n", "\r", "\r\n", "\x1b", "\x1b[31m", "\u2028", "\u2029", "\ufeff", "\u202e",
          "\x00", "\x85", "\u00e9", "x" * 40]
NUMBER = re.compile(r"truncated: [\d,]+ more")


def whole_then_cap(text: str, keep_sgr: bool, max_lines: int, max_line: int, tab: int) -> tuple[str, int, int]:
    """What the panes did before: clean everything (tabs expanded), drop the final newline, cap."""
    cleaned = clean(text, keep_sgr, tab_size=tab).text
    body = cleaned[:-1] if cleaned.endswith("\n") else cleaned
    capped = cap_text(body, max_lines, max_line)
    return capped.text, capped.cut_lines, capped.cut_chars


texts = st.lists(st.sampled_from(PIECES), max_size=80).map("".join)
limits = st.tuples(st.booleans(), st.integers(1, 6), st.integers(1, 8), st.sampled_from([0, 4]))


@settings(max_examples=300, deadline=None)
@given(texts, limits)
def test_shown_text_is_what_cleaning_everything_shows(text: str, limits: tuple[bool, int, int, int]) -> None:
    keep_sgr, max_lines, max_line, tab = limits
    old_text, old_lines, old_chars = whole_then_cap(text, keep_sgr, max_lines, max_line, tab)
    cleaned, capped = clean_and_cap(text, keep_sgr, max_lines, max_line, tab)
    assert NUMBER.sub("", capped.text) == NUMBER.sub("", old_text)
    body = text[:-1] if text.endswith("\n") else text
    if all(len(line) <= max_line * 2 + 64 for line in body.split("\n")[:max_lines]):
        # nothing was cut before cleaning: every figure is exactly the same
        assert (capped.text, capped.cut_lines, capped.cut_chars) == (old_text, old_lines, old_chars)
        assert (cleaned.hidden, cleaned.controls) == (clean(text, keep_sgr).hidden, clean(text, keep_sgr).controls)


def test_a_ten_megabyte_line_is_cut_with_its_length_counted() -> None:
    line = "\x1b]52;c;AAAA\x07" + "z" * 10_000_000 + "\x1b[2J"
    cleaned, capped = clean_and_cap(line + "\nnext\n", keep_sgr=True, max_line=4_000)
    first, second = capped.text.split("\n")
    assert first.startswith("\u241b]52;c;AAAA\u2407zzz") and "\x1b" not in first
    assert first.endswith(f" \u2026[line truncated: {len(line) - 4_000:,} more characters]")
    assert second == "next"
    assert capped.cut_chars == len(line) - 4_000 and cleaned.controls
    # the escape at the far end was never cleaned, and never shown either
    assert "2J" not in capped.text


def test_line_separators_past_the_cut_still_break_lines() -> None:
    text = "y" * 20_000 + "\u2028" + "shown after the separator"
    _, capped = clean_and_cap(text, max_line=100)
    assert capped.text.split("\n")[1] == "shown after the separator"
