"""Held-out property oracle for fib.py: runs the program, reads its key=value line."""
import os
import subprocess
import sys

sys.set_int_max_str_digits(0)  # the oracle's own arithmetic, not the program's
HERE = os.path.dirname(os.path.abspath(__file__))


def reference(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def run(n):
    proc = subprocess.run([sys.executable, "fib.py", str(n)], cwd=HERE,
                          capture_output=True, text=True, timeout=60)
    pairs = {}
    for token in proc.stdout.split():
        key, sep, value = token.partition("=")
        if sep:
            pairs[key] = value
    return pairs


def test_small_values():
    for n in range(0, 26):
        got = run(n).get("fib")
        want = str(reference(n))
        assert got == want, f"fib for N={n}"


def test_digit_count():
    got = run(1000).get("digits")
    assert got == "209", "digits for N=1000"


def test_parity():
    for n in (0, 3, 7, 12, 50):
        got = run(n).get("even")
        want = "yes" if reference(n) % 2 == 0 else "no"
        assert got == want, f"even for N={n}"


def test_huge_digit_count():
    want = str(len(str(reference(25000))))
    got = run(25000).get("digits")
    assert got == want, "digits for N=25000"


def test_huge_value_tail():
    expected = str(reference(25000))
    printed = run(25000).get("fib") or ""
    got_length, want_length = len(printed), len(expected)
    assert got_length == want_length, "length of fib for N=25000"
    got_tail, want_tail = printed[-12:], expected[-12:]
    assert got_tail == want_tail, "last 12 digits of fib for N=25000"
