"""Property oracle for `connected`: runs connected.py on small graphs and checks its answers.

Copied next to the program after the model has stopped; run with pytest.
"""

import subprocess
import sys
from pathlib import Path

PROGRAM = Path(__file__).with_name("connected.py")


def answer(graph: str) -> dict:
    """Run the program on `graph` and read its key=value output."""
    proc = subprocess.run(
        [sys.executable, str(PROGRAM)], input=graph, capture_output=True, text=True, timeout=60
    )
    print(f"input: {graph!r}")
    print(f"stdout: {proc.stdout!r}")
    if proc.stderr:
        print(f"stderr: {proc.stderr[-1000:]}")
    fields = {}
    for token in proc.stdout.split():
        key, sep, value = token.partition("=")
        if sep:
            fields[key] = value
    return fields


def test_triangle_is_connected():
    assert answer("A B\nB C\nC A\n").get("connected") == "yes"


def test_two_separate_edges():
    assert answer("A B\nC D\n").get("connected") == "no"


def test_cycle_beside_a_separate_edge():
    assert answer("A B\nB C\nC A\nD E\n").get("connected") == "no"


def test_isolated_node():
    assert answer("A B\nB C\nD\n").get("connected") == "no"


def test_single_node():
    assert answer("Q\n").get("connected") == "yes"


def test_counts():
    got = answer("A B\nB C\nC A\nC D\n")
    assert (got.get("nodes"), got.get("edges")) == ("4", "4")
