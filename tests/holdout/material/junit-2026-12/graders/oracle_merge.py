"""Held-out oracle for `merge`: JSON on stdin, JSON object on stdout."""
import json
import os
import random
import subprocess
import sys


def merge(intervals, timeout=15):
    proc = subprocess.run([sys.executable, os.path.join(os.getcwd(), "merge.py")],
                          input=json.dumps(intervals), capture_output=True,
                          text=True, timeout=timeout)
    return json.loads(proc.stdout)


def reference(intervals):
    out = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def test_brief_example():
    assert merge([[1, 3], [2, 6], [8, 10]])["merged"] == [[1, 6], [8, 10]]


def test_total_covered_known():
    assert merge([[1, 3], [2, 6], [8, 10], [15, 18]])["covered"] == 10


def test_touching_intervals_merge():
    got = merge([[5, 7], [1, 2], [7, 7], [2, 3]])["merged"]
    assert got == [[1, 3], [5, 7]]


def test_input_order_does_not_matter():
    rng = random.Random(11)
    for _ in range(5):
        items = []
        for _ in range(40):
            s = rng.randint(-50, 50)
            items.append([s, s + rng.randint(0, 8)])
        rng.shuffle(items)
        assert merge(items)["merged"] == reference(items)


def test_covered_matches_brute_force():
    rng = random.Random(5)
    for _ in range(5):
        items = []
        for _ in range(rng.randint(1, 15)):
            s = rng.randint(0, 60)
            items.append([s, s + rng.randint(0, 10)])
        cells = set()
        for s, e in items:
            cells.update(range(s, e))
        assert merge(items)["covered"] == len(cells)


def test_large_input():
    rng = random.Random(99)
    items = []
    for _ in range(100_000):
        s = rng.randint(-10**9, 10**9 - 10**4)
        items.append([s, s + rng.randint(0, 10**4)])
    try:
        got = merge(items, timeout=10)
    except subprocess.TimeoutExpired:
        raise AssertionError("no answer within 10 s for 100000 intervals") from None
    assert got["merged"] == reference(items)
