"""Property oracle for `depth`: small trees, and a long chain.

Copied next to the program after the model has stopped; run with pytest.
"""

import subprocess
import sys
from pathlib import Path

PROGRAM = Path(__file__).with_name("depth.py")


def run(tree: str) -> tuple[dict, str]:
    proc = subprocess.run(
        [sys.executable, str(PROGRAM)], input=tree, capture_output=True, text=True, timeout=60
    )
    print(f"input: {len(tree.splitlines())} edge lines")
    print(f"stdout: {proc.stdout!r}")
    fields = {}
    for token in proc.stdout.split():
        key, sep, value = token.partition("=")
        if sep:
            fields[key] = value
    return fields, proc.stderr


def last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else "(empty)"


def chain(n: int) -> str:
    return "".join(f"n{i} n{i + 1}\n" for i in range(n))


def test_small_tree():
    fields, _ = run("r a\nr b\na c\na d\nd e\n")
    assert (fields.get("depth"), fields.get("leaves")) == ("3", "3")


def test_star():
    fields, _ = run("".join(f"hub s{i}\n" for i in range(6)))
    assert (fields.get("depth"), fields.get("leaves")) == ("1", "6")


def test_long_chain():
    fields, stderr = run(chain(3000))
    assert fields.get("depth") == "3000", f"stderr: {last_line(stderr)}"
