"""The linear reader of recorded lines: tokens, assertions with messages, got/want and
expected/got shapes, JUnit, the cancel check, and lines crafted to make patterns backtrack."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.analysis.evidence.engine import analyse
from reviewer.analysis.reading.pairs import line_pair, pairs_from_message
from reviewer.analysis.reading.scan import Cancelled, assertion, expected_got, got_want, junit, tokens


def test_tokens_keep_quotes_and_groups_whole() -> None:
    assert [t.text for t in tokens("""f(a, b) = "x y", want {'k': 1, 'j': 2}""")] == ["f(a, b)", "=", '"x y",', "want", "{'k': 1, 'j': 2}"]
    assert [t.text for t in tokens("it's wrong, want 'a b'")] == ["it's", "wrong,", "want", "'a b'"]
    assert [t.text for t in tokens("[unclosed want x")] == ["[unclosed", "want", "x"]
    quoted = tokens("'a b' c")[0]
    assert quoted.quoted and not quoted.commas


def test_assertions_with_messages() -> None:
    a = assertion('assert candidate(4) == "IV", candidate(4)')
    assert a is not None and (a.left, a.op, a.right, a.message) == ("candidate(4)", "==", '"IV"', "candidate(4)")
    a = assertion("AssertionError: assert 'a, b' not in 'x'")
    assert a is not None and (a.left, a.op, a.right) == ("'a, b'", "not in", "'x'")
    assert assertion("asserted that x == y") is None
    pair = line_pair('assert to_roman(4) == "iv", "4 should be iv"')
    assert pair is not None and (pair.expected, pair.actual) == ('"iv"', "to_roman(4)")


def test_got_want_and_expected_got_shapes() -> None:
    assert got_want('ToRoman(4) returned "IIII", expected "IV"') == ("ToRoman(4)", '"IIII"', '"IV"')
    assert got_want("got 5, want 6") == ("", "5", "6")
    assert got_want("Abs(-12) = -12, should be 12") == ("Abs(-12)", "-12", "12")
    assert got_want("x = a, b, want c") is None  # the got side is no single value
    assert expected_got("expected 'yes', but got 'true'") == ("'yes'", "'true'")
    assert expected_got("Expected: {'a': 1, 'b': 2} got {'a': 1}") == ("{'a': 1, 'b': 2}", "{'a': 1}")
    assert junit("expected:<connected=yes> but was:<connected=true>") == ("connected=yes", "connected=true")
    assert junit("expected:<a> but") is None


def test_a_bare_traceback_gives_the_programs_value() -> None:
    text = 'Traceback (most recent call last):\n  File "c.py", line 5, in check\n    assert candidate(4) == "iv", candidate(4)\nAssertionError: IV\n'
    [pair] = pairs_from_message(text)
    assert (pair.expected, pair.actual) == ('"iv"', '"IV"')


CRAFTED = [
    "x = " * 240 + "wantx",
    "x = " * 240 + "want y",
    "expected " + "a " * 480,
    '"\\"' * 300 + " want",
    "assert " + "a == " * 200,
    "expected: " + " " * 990 + "x",
    "1" * 990 + "x want",
    "expected:<" * 100 + " but was:<",
]


@pytest.mark.parametrize("line", CRAFTED, ids=range(len(CRAFTED)))
def test_crafted_lines_are_read_to_the_end(line: str) -> None:
    ev = analyse("f", "t", "\n".join([line] * 50), "brief")
    assert ev.failure_id == "f"  # read through (its cost is measured by attacks/f08_evidence_bomb.py)


def test_past_the_budget_lines_are_skipped_with_a_note() -> None:
    notes: list[str] = []
    pairs_from_message("\n".join(["x = 1, want 2 " + "." * 100] * 3000), notes=notes)
    assert notes and "past the reading budget" in notes[0]


def test_the_cancel_check_stops_the_reading() -> None:
    calls = {"n": 0}

    def cancel() -> bool:
        calls["n"] += 1
        return calls["n"] > 100

    with pytest.raises(Cancelled):
        analyse("f", "t", "\n".join(["got 1, want 2"] * 3000), "brief", cancel=cancel)
    assert calls["n"] == 101


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab =,;'\"`[](){}\\<>:-+wantexpectgot")), max_size=200))
def test_readers_never_raise_and_return_parts_of_the_line(line: str) -> None:
    for found in (got_want(line), expected_got(line), junit(line)):
        for part in found or ():
            assert part in line
    a = assertion(line)
    if a is not None:
        assert a.left in line and a.right in line
