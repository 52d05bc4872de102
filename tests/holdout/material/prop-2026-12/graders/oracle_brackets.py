"""Held-out property oracle for the `brackets` task (runs brackets.py)."""
import os
import random
import subprocess
import sys

PROGRAM = os.path.join(os.getcwd(), "brackets.py")


def run(line):
    proc = subprocess.run([sys.executable, PROGRAM], input=line + "\n",
                          capture_output=True, text=True, timeout=20)
    fields = {}
    for raw in proc.stdout.splitlines():
        if ": " in raw:
            key, _, value = raw.partition(": ")
            fields[key.strip()] = value.strip()
    return fields


def reference_depth(s):
    depth = best = 0
    for ch in s:
        depth += 1 if ch in "([{" else -1
        best = max(best, depth)
    return best


def test_simple_balanced():
    out = run("()[]{}")
    assert out["balanced"] == "yes"
    assert int(out["depth"]) == 1


def test_nested_depth():
    out = run("([{}])(())")
    assert out["balanced"] == "yes"
    assert int(out["depth"]) == 3


def test_crossed_pairs_rejected():
    for s in ("([)]", "{(})", "[(])"):
        assert run(s)["balanced"] == "no", s


def test_unclosed_and_unopened():
    for s in ("((", "())", ")(", "]"):
        assert run(s)["balanced"] == "no", s


def test_empty_line():
    out = run("")
    assert out["balanced"] == "yes"
    assert int(out["depth"]) == 0


def test_deep_nesting():
    s = "".join("([{"[i % 3] for i in range(4500))
    closing = {"(": ")", "[": "]", "{": "}"}
    s += "".join(closing[c] for c in reversed(s))
    out = run(s)
    assert out.get("balanced") == "yes", "deep balanced string of 9000 characters"
    assert int(out.get("depth", -1)) == 4500


def test_concatenation_of_balanced_strings():
    rng = random.Random(7)
    for _ in range(6):
        parts = []
        for _ in range(2):
            stack, piece = [], []
            for _ in range(rng.randint(1, 12)):
                c = rng.choice("([{")
                piece.append(c)
                stack.append({"(": ")", "[": "]", "{": "}"}[c])
                if rng.random() < 0.5:
                    piece.append(stack.pop())
            piece.extend(reversed(stack))
            parts.append("".join(piece))
        joined = parts[0] + parts[1]
        out = run(joined)
        assert out["balanced"] == "yes"
        assert int(out["depth"]) == max(reference_depth(parts[0]), reference_depth(parts[1]))
