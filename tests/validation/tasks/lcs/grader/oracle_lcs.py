"""Held-out property oracle for lcs.py: two strings on stdin, two lines on stdout."""
import itertools
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(first, second):
    proc = subprocess.run([sys.executable, "lcs.py"], cwd=HERE, input=f"{first}\n{second}\n",
                          capture_output=True, text=True, timeout=30)
    lines = proc.stdout.rstrip("\n").split("\n")
    subsequence = lines[0] if len(lines) > 0 else None
    length = lines[1].strip() if len(lines) > 1 else None
    return proc.returncode, subsequence, length


def lcs_length(a, b):
    row = [0] * (len(b) + 1)
    for ch in a:
        prev_diag = 0
        for j, other in enumerate(b, 1):
            saved = row[j]
            row[j] = prev_diag + 1 if ch == other else max(row[j], row[j - 1])
            prev_diag = saved
    return row[-1]


def brute_force_length(a, b):
    for size in range(min(len(a), len(b)), 0, -1):
        for picked in itertools.combinations(a, size):
            if is_subsequence("".join(picked), b):
                return size
    return 0


def is_subsequence(small, big):
    rest = iter(big)
    return all(ch in rest for ch in small)


def shorten(text):
    return text if text is None or len(text) <= 40 else text[:37] + "..."


def check_answer(a, b, want):
    status, subsequence, length = run(a, b)
    assert status == 0, f"exit status for {a!r} / {b!r}: expected 0, got {status}"
    assert length == str(want), \
        f"length line for {a!r} / {b!r}: expected {want}, got {shorten(length)!r}"
    got = subsequence if subsequence is not None else ""
    common = is_subsequence(got, a) and is_subsequence(got, b)
    assert common, f"subsequence line is not a subsequence of both {a!r} and {b!r}"
    assert len(got) == want, \
        f"subsequence length for {a!r} / {b!r}: expected {want}, got {len(got)}"


def test_known_pair():
    check_answer("abcbdab", "bdcaba", 4)


def test_no_common_letter():
    check_answer("abc", "xyz", 0)


def test_length_is_optimal():
    rng = random.Random(7)
    for _ in range(6):
        a = "".join(rng.choice("abc") for _ in range(rng.randint(4, 9)))
        b = "".join(rng.choice("abc") for _ in range(rng.randint(4, 9)))
        check_answer(a, b, brute_force_length(a, b))


def test_random_medium():
    rng = random.Random(11)
    for _ in range(4):
        a = "".join(rng.choice("abcdef") for _ in range(rng.randint(20, 60)))
        b = "".join(rng.choice("abcdef") for _ in range(rng.randint(20, 60)))
        check_answer(a, b, lcs_length(a, b))


def test_long_inputs():
    rng = random.Random(23)
    a = "".join(rng.choice("abcd") for _ in range(1000))
    b = "".join(rng.choice("abcd") for _ in range(1000))
    status, subsequence, length = run(a, b)
    want = lcs_length(a, b)
    assert status == 0, f"exit status for two strings of 1000 letters: expected 0, got {status}"
    assert length == str(want), \
        f"length line for two strings of 1000 letters: expected {want}, got {shorten(length)!r}"
    got = subsequence or ""
    common = is_subsequence(got, a) and is_subsequence(got, b)
    assert common, "subsequence line is not a subsequence of both strings of 1000 letters"
    assert len(got) == want, \
        f"subsequence length for two strings of 1000 letters: expected {want}, got {len(got)}"
