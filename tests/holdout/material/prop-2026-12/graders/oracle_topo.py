"""Held-out oracle for `topo`: feeds constraints on stdin to topo.py."""
import os
import random
import subprocess
import sys


def solve(lines):
    proc = subprocess.run([sys.executable, os.path.join(os.getcwd(), "topo.py")],
                          input="\n".join(lines) + "\n", capture_output=True,
                          text=True, timeout=20)
    out = {}
    for line in proc.stdout.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            out[key.strip()] = value.strip()
    return out


def check_order(lines, out):
    order = out["order"].split()
    names = set()
    for line in lines:
        names.update(line.split())
    assert sorted(order) == sorted(names), "order must list every task exactly once"
    pos = {name: i for i, name in enumerate(order)}
    for line in lines:
        parts = line.split()
        if len(parts) == 2:
            assert pos[parts[0]] < pos[parts[1]], f"constraint {line!r} violated"


def test_chain():
    lines = ["wash dry", "dry fold", "fold store"]
    out = solve(lines)
    assert out["order"].split() == ["wash", "dry", "fold", "store"]


def test_diamond():
    lines = ["a b", "a c", "b d", "c d"]
    check_order(lines, solve(lines))


def test_isolated_tasks_listed():
    lines = ["x y", "lonely", "y z", "spare"]
    check_order(lines, solve(lines))


def test_random_dags():
    rng = random.Random(2026)
    for _ in range(8):
        names = [f"t{i}" for i in range(rng.randint(5, 25))]
        rng.shuffle(names)
        lines = [f"{names[i]} {names[j]}" for i in range(len(names))
                 for j in range(i + 1, len(names)) if rng.random() < 0.2]
        lines += [n for n in names if rng.random() < 0.3]
        rng.shuffle(lines)
        check_order(lines, solve(lines))


def test_cycle_reported():
    out = solve(["a b", "b c", "c a", "c d"])
    assert out["cyclic"] == "yes"


def test_acyclic_not_reported():
    out = solve(["a b", "a c", "b d", "c d", "e"])
    assert out["cyclic"] == "no"
