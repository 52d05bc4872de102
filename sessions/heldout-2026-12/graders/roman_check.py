"""Held-out grader for roman-py (pytest). Copied next to roman.py after the model stopped."""

from roman import to_roman

CASES = [(1, "i"), (4, "iv"), (9, "ix"), (14, "xiv"), (40, "xl"), (90, "xc"), (400, "cd"), (1994, "mcmxciv")]


def test_table():
    for n, want in CASES:
        assert to_roman(n) == want, f"to_roman({n})"


def test_four():
    assert to_roman(4) == "iv", "4 should be iv"


def test_nineteen():
    assert to_roman(19) == "xix", to_roman(19)


def test_returns_a_string():
    assert isinstance(to_roman(7), str)
