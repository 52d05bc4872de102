"""Notation near-misses: flagged only when the values are equal once notation is set aside."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reviewer.analysis.reading.nearmiss import near_miss, near_misses_in
from reviewer.analysis.reading.notation import FALSE_WORDS, NULL_WORDS, TRUE_WORDS


@pytest.mark.parametrize(
    ("expected", "actual", "notation"),
    [
        ("connected=yes", "connected=true", "vocabulary: true for yes"),
        ("'yes'", "'true'", "vocabulary: true for yes"),
        ("no", "false", "vocabulary: false for no"),
        ("1", "on", "vocabulary: on for 1"),
        ("path=A B C", "trail=A,B,C", "key renamed: trail for path"),
        ("path=A B C", "route=A->B->C", "separator"),
        ("A B C", "A,B,C", "separator"),
        ("A-B,B-C", "A B;B C", "separator"),
        ('"foo bar"', '"foo  bar"', "whitespace"),
        ("IV", "iv", "case"),
        ("a=1 b=2", "b=2 a=1", "field order"),
        ('{"a": true, "b": 2}', '{"b": 2, "a": "yes"}', "field order"),
        ("map[connected:yes]", "map[connected:true]", "vocabulary: true for yes"),
        ("1024", "1024.0", "number format"),
        ("33.33", "33.33333333333333", "precision: 14 decimals for 2"),
        ("'x'", '"x"', "quoting"),
    ],
)
def test_notation_only_differences_are_flagged(expected: str, actual: str, notation: str) -> None:
    nm = near_miss(expected, actual)
    assert nm is not None, (expected, actual)
    assert notation in nm.notations
    assert (nm.expected, nm.actual) == (expected, actual)


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        ('"IV"', '"IIII"'),  # a wrong Roman numeral is a wrong answer
        ('"MMMCMXCIX"', '"MMMDCCCCLXXXXVIIII"'),
        ("12", "-12"),
        ("33.33", "-33.33"),
        ("27", "40"),
        ("none", "impossible"),  # another word, not another notation
        ("hello-world", "--hello-world-"),
        ("a-b", "a--b"),
        ("a-b", "a_b"),
        ('""', '"N"'),
        ("connected=yes", "connected=no"),
        ("path=A B C", "trail=A C B"),
        ("yes", "yes"),  # equal is not a near-miss
        ("", "true"),
    ],
)
def test_real_differences_are_not_flagged(expected: str, actual: str) -> None:
    assert near_miss(expected, actual) is None


def test_contained_values_compare_inside_prose() -> None:
    nm = near_miss("per day", "DVDs cost 1.00 Per Day when late.", "contains")
    assert nm is not None and nm.notations == ("case",)
    assert near_miss("District of Columbia", "Maryland honors a valid D.C. license", "contains") is None
    assert near_miss("15", "Park at least 10 feet from a hydrant.", "contains") is None


def test_messages_of_several_graders() -> None:
    pytest_msg = (
        '>       assert answer("A B\\n").get("connected") == "yes"\n'
        "E       AssertionError: assert 'true' == 'yes'\n"
        "E         - yes\nE         + true\n"
    )
    [nm] = near_misses_in(pytest_msg)
    assert (nm.expected, nm.actual) == ("'yes'", "'true'")
    [nm] = near_misses_in('    graph_test.go:12: Describe(g) = "nodes=3 connected=true", want "nodes=3 connected=yes"')
    assert nm.notations == ("vocabulary: true for yes",)
    [nm] = near_misses_in("expected:<connected=yes> but was:<connected=true>")
    assert nm.expected == "connected=yes"
    truncated = (
        "E       AssertionError: assert 'nodes=3 edge...nnected=true\\n' == 'nodes=3 edge...onnected=yes\\n'\n"
        "E         - nodes=3 edges=3 connected=yes\n"
        "E         + nodes=3 edges=3 connected=true\n"
    )
    [nm] = near_misses_in(truncated)
    assert nm.expected == "nodes=3 edges=3 connected=yes"
    assert near_misses_in('    roman_test.go:24: ToRoman(4) returned "IIII", expected "IV"') == ()
    assert near_misses_in("    calc_test.go:19: Abs(-12) = -12, want 12") == ()


WORD = st.text(alphabet=string.ascii_lowercase, min_size=2, max_size=12).filter(
    lambda w: w not in TRUE_WORDS | FALSE_WORDS | NULL_WORDS
)


@given(WORD)
def test_a_value_never_near_misses_itself(word: str) -> None:
    assert near_miss(word, word) is None
    assert near_miss(f"key={word}", f"key={word}") is None


@given(WORD, WORD)
def test_different_words_are_never_flagged(a: str, b: str) -> None:
    if a != b:
        assert near_miss(a, b) is None
        assert near_miss(f"k={a}", f"k={b}") is None


@given(WORD)
def test_case_alone_is_always_flagged(word: str) -> None:
    nm = near_miss(word, word.upper())
    assert nm is not None and nm.notations == ("case",)


def test_a_rename_needs_one_unambiguous_value() -> None:
    nm = near_miss("value=1024 mults=4", "a=2 b=10 value=1024 steps=4")
    assert nm is not None and nm.notations == ("key renamed: steps for mults",)
    assert near_miss("k1=v k2=v", "j1=v j2=v") is None  # every printed value would do
    assert near_miss("mults=4", "a=4 steps=4") is None


def test_unified_diffs_of_expected_and_actual_output() -> None:
    diff = "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n nodes=3\n-connected=yes\n+connected=true\n"
    [nm] = near_misses_in(diff)
    assert (nm.expected, nm.actual, nm.notations) == ("connected=yes", "connected=true", ("vocabulary: true for yes",))
    [nm] = near_misses_in("--- want\n+++ got\n@@ -1 +1 @@\n-path=A B C\n+trail=A->B->C\n")
    assert set(nm.notations) == {"separator", "key renamed: trail for path"}
    assert near_misses_in("--- want\n+++ got\n-IV\n+IIII\n") == ()
    assert near_misses_in("E       assert 0 >= 2\nE        +  where 0 = len([])\n") == ()
