"""Held-out oracle for `factor`: python3 factor.py N, `key: value` lines."""
import math
import os
import random
import subprocess
import sys


def factor(n):
    proc = subprocess.run([sys.executable, "factor.py", str(n)], cwd=os.getcwd(),
                          capture_output=True, text=True, timeout=10)
    result = {}
    for line in proc.stdout.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            result[key.strip()] = value.strip()
    return result


def factors_of(out):
    return [int(tok) for tok in out["factors"].split()]


def is_prime(p):
    if p < 2:
        return False
    return all(p % d for d in range(2, math.isqrt(p) + 1))


def test_small_known():
    assert factors_of(factor(12)) == [2, 2, 3]
    assert factors_of(factor(97)) == [97]
    assert factors_of(factor(360)) == [2, 2, 2, 3, 3, 5]


def test_large_prime():
    assert factors_of(factor(999_999_999_989)) == [999_999_999_989]


def test_square_of_large_prime():
    assert factors_of(factor(999_983 ** 2)) == [999_983, 999_983]


def test_distinct_count():
    for n, want in ((12, 2), (97, 1), (2 ** 39, 1), (510510, 7)):
        assert int(factor(n)["distinct"]) == want


def test_random_products():
    rng = random.Random(4242)
    for _ in range(6):
        n = rng.randint(2, 10 ** 12)
        fs = factors_of(factor(n))
        assert math.prod(fs) == n
        assert fs == sorted(fs)
        assert all(is_prime(p) for p in fs)
