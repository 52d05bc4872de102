"""Held-out grader for roman-py, in the style of HumanEval's check(candidate)."""

from roman import to_roman


def check(candidate):
    assert candidate(1) == "i", candidate(1)
    assert candidate(3) == "iii", candidate(3)
    assert candidate(4) == "iv", candidate(4)
    assert candidate(9) == "ix", candidate(9)
    assert candidate(58) == "lviii", candidate(58)
    assert candidate(1994) == "mcmxciv", candidate(1994)


check(to_roman)
print("all checks passed")
