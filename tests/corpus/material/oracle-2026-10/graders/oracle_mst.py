"""Property oracle for `mst`: total weight against brute force, and the tree re-walked.

Copied next to the program after the model has stopped; run with pytest.
"""

import itertools
import subprocess
import sys
from pathlib import Path

PROGRAM = Path(__file__).with_name("mst.py")

SQUARE = "A B 1\nB C 2\nC D 3\nD A 4\nA C 5\n"
SIX_NODES = (
    "A B 7\nA C 9\nA F 14\nB C 10\nB D 15\nC D 11\nC F 2\nD E 6\nE F 9\nB E 3\n"
)


def run(graph: str) -> dict:
    proc = subprocess.run(
        [sys.executable, str(PROGRAM)], input=graph, capture_output=True, text=True, timeout=60
    )
    print(f"input: {graph!r}")
    print(f"stdout: {proc.stdout!r}")
    fields = {}
    for token in proc.stdout.split():
        key, sep, value = token.partition("=")
        if sep:
            fields[key] = value
    return fields


def parse(graph: str) -> dict:
    weights = {}
    for line in graph.splitlines():
        a, b, w = line.split()
        weights[frozenset((a, b))] = int(w)
    return weights


def spans(nodes: set, edges: list) -> bool:
    parent = {n: n for n in nodes}

    def root(n):
        while parent[n] != n:
            n = parent[n]
        return n

    for a, b in edges:
        ra, rb = root(a), root(b)
        if ra == rb:
            return False
        parent[ra] = rb
    return len(edges) == len(nodes) - 1


def brute_force_weight(graph: str) -> int:
    weights = parse(graph)
    nodes = set().union(*weights)
    best = None
    for subset in itertools.combinations(weights, len(nodes) - 1):
        if spans(nodes, [tuple(e) for e in subset]):
            total = sum(weights[e] for e in subset)
            best = total if best is None else min(best, total)
    return best


def listed_edges(fields: dict) -> list:
    return [tuple(item.split("-")) for item in fields.get("edges", "").split(",") if item]


def test_square_weight():
    assert run(SQUARE).get("weight") == "6"


def test_six_nodes_weight_is_minimal():
    assert run(SIX_NODES).get("weight") == str(brute_force_weight(SIX_NODES))


def test_six_nodes_edges_form_a_spanning_tree():
    weights = parse(SIX_NODES)
    edges = listed_edges(run(SIX_NODES))
    unknown = [e for e in edges if frozenset(e) not in weights]
    assert unknown == [], f"edges= lists pairs that are not edges of the graph: {edges}"
    is_tree = spans(set().union(*weights), edges)
    assert is_tree, f"{edges} is not a spanning tree"


def test_six_nodes_edges_add_up_to_weight():
    weights = parse(SIX_NODES)
    fields = run(SIX_NODES)
    edges = listed_edges(fields)
    listed_total = sum(weights.get(frozenset(e), 0) for e in edges)
    printed = int(fields.get("weight", "-1"))
    assert listed_total == printed, f"edges {edges} weigh {listed_total}, weight= says {printed}"
