"""Tabs never reach a screen: each is expanded to the next tab stop of its line, visibly where a
tab and spaces may differ to a checker."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.model.sanitize import TAB_MARK, cells, clean, clean_and_cap, one_line, plain, plain_line, strip_sgr

GO_PANIC = "panic: roman.ToRoman: 0 is outside 1..3999 [recovered]\n\tpanic: roman.ToRoman: 0 is outside 1..3999\n"


def test_a_tab_goes_to_the_next_stop_of_its_line() -> None:
    assert clean("\tpanic: x").text == "    panic: x"
    assert clean("ab\tc\n\t\td").text == "ab  c\n        d"
    assert clean("abcd\te").text == "abcd    e"  # a tab at a stop goes to the next one
    assert clean(GO_PANIC).text.split("\n")[1] == "    panic: roman.ToRoman: 0 is outside 1..3999"
    assert clean("x\ty", tab_size=8).text == "x       y"


def test_stops_count_cells_not_characters() -> None:
    assert clean("\u65e5\u672c\tx").text == "\u65e5\u672c    x"  # two wide characters: 4 cells
    assert clean("e\u0301\tx").text == "e\u0301   x"  # a combining accent takes no cell
    assert cells("\u65e5a") == 3


def test_colour_sequences_take_no_column() -> None:
    shown = clean("\x1b[31mab\x1b[0m\tc", keep_sgr=True).text
    assert "\t" not in shown and strip_sgr(shown) == "ab  c"


def test_marked_tabs_show_an_arrow_after_the_indentation_only() -> None:
    shown = clean("\t\tgot\t'a\tb'", mark_tabs=True).text
    assert shown == f"        got{TAB_MARK}'a{TAB_MARK} b'"  # 11 cells: one to the stop at 12; then 14 to 16
    assert one_line("name\twith tab") == f"name{TAB_MARK}   with tab"
    assert plain_line("x\ty\nz") == f"x{TAB_MARK}  y\u240az"


def test_tabs_are_kept_only_when_asked() -> None:
    assert plain("a\tb") == "a   b"
    assert plain("a\tb\x1b", tab_size=0) == "a\tb\u241b"


def test_the_long_line_path_expands_like_the_short_one() -> None:
    long = "x" * 10_000 + "\ty"
    cleaned, capped = clean_and_cap("\tshort\n" + long + "\n", max_line=20)
    first = capped.text.split("\n")[0]
    assert first == "    short" and "\t" not in capped.text and "\t" not in cleaned.text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "\u65e5", " ", "\t", "\n", "\x1b[1m", "\x1b", "\u0301"]), max_size=60).map("".join),
       st.booleans(), st.booleans(), st.sampled_from([1, 4, 8]))
def test_no_tab_survives_and_every_expanded_tab_ends_on_a_stop(text: str, keep_sgr: bool, mark: bool, size: int) -> None:
    shown = clean(text, keep_sgr, tab_size=size, mark_tabs=mark).text
    assert "\t" not in shown
    for raw, line in zip(text.replace("\r\n", "\n").split("\n"), shown.split("\n")):
        if raw.endswith("\t"):  # the line ends with its last tab's padding: it ends on a stop
            assert cells(strip_sgr(line)) % size == 0, (raw, line)
