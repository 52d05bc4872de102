"""Held-out oracle for `bigfact`: python3 fact.py N, key=value lines."""
import math
import os
import subprocess
import sys

sys.set_int_max_str_digits(0)


def fact(n):
    proc = subprocess.run([sys.executable, "fact.py", str(n)], cwd=os.getcwd(),
                          capture_output=True, text=True, timeout=30)
    return dict(line.split("=", 1) for line in proc.stdout.splitlines() if "=" in line)


def legendre_zeros(n):
    total, p = 0, 5
    while p <= n:
        total += n // p
        p *= 5
    return total


def test_small_values():
    assert fact(0)["value"] == "1"
    assert fact(1)["value"] == "1"
    assert fact(12)["value"] == "479001600"
    assert fact(20)["value"] == "2432902008176640000"


def test_small_digits_and_zeros():
    out = fact(25)
    assert int(out["digits"]) == 26
    assert int(out["zeros"]) == 6


def test_zeros_large():
    for n in (1000, 3125):
        assert int(fact(n)["zeros"]) == legendre_zeros(n), f"zeros for N={n}"


def test_digits_large():
    n = 3000
    assert int(fact(n)["digits"]) == len(str(math.factorial(n)))


def test_value_large():
    n = 2200
    got = fact(n)["value"]
    assert got == str(math.factorial(n)), f"value of {n}! differs ({len(got)} digits printed)"
