"""Property oracle for `eulerian`: a known value (Königsberg) and re-walked trails.

Copied next to the program after the model has stopped; run with pytest.
"""

import subprocess
import sys
from collections import Counter
from pathlib import Path

PROGRAM = Path(__file__).with_name("eulerian.py")

# The seven bridges: A is the island, B and C the two banks, D the eastern land.
KOENIGSBERG = "A B\nA B\nA C\nA C\nA D\nB D\nC D\n"
SQUARE = "P Q\nQ R\nR S\nS P\n"
TRIANGLE_WITH_TAIL = "A B\nA C\nC D\nD A\n"


def run(graph: str) -> tuple[dict, list]:
    """Run the program; return its key=value fields and the walk printed after `path=`."""
    proc = subprocess.run(
        [sys.executable, str(PROGRAM)], input=graph, capture_output=True, text=True, timeout=60
    )
    print(f"input: {graph!r}")
    print(f"stdout: {proc.stdout!r}")
    fields, walk = {}, []
    for line in proc.stdout.splitlines():
        if line.startswith("path="):
            walk = line[len("path="):].split()
            continue
        for token in line.split():
            key, sep, value = token.partition("=")
            if sep:
                fields[key] = value
    return fields, walk


def edge_multiset(graph: str) -> Counter:
    return Counter(frozenset(line.split()) for line in graph.splitlines() if line.strip())


def assert_uses_every_edge_once(graph: str, walk: list) -> None:
    assert len(walk) >= 2, f"no walk read from path=: {walk}"
    used = Counter(frozenset(pair) for pair in zip(walk, walk[1:]))
    assert used == edge_multiset(graph), f"walk {walk} does not use each edge exactly once"


def test_koenigsberg_odd_degree():
    fields, _ = run(KOENIGSBERG)
    assert fields.get("odd_degree") == "4"


def test_koenigsberg_has_no_walk():
    fields, _ = run(KOENIGSBERG)
    assert fields.get("result") == "none"


def test_square_is_a_circuit():
    fields, _ = run(SQUARE)
    assert fields.get("result") == "circuit"


def test_square_walk_closes():
    _, walk = run(SQUARE)
    assert_uses_every_edge_once(SQUARE, walk)
    assert walk[0] == walk[-1]


def test_tail_gives_an_open_trail():
    fields, _ = run(TRIANGLE_WITH_TAIL)
    assert fields.get("result") == "trail"


def test_tail_walk_runs_between_odd_nodes():
    _, walk = run(TRIANGLE_WITH_TAIL)
    assert_uses_every_edge_once(TRIANGLE_WITH_TAIL, walk)
    assert {walk[0], walk[-1]} == {"A", "B"}
