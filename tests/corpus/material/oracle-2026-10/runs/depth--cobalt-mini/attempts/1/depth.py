import sys
from collections import defaultdict


def height(children, node):
    """Edges on the longest downward path from node (recursive)."""
    kids = children[node]
    return 1 + max(height(children, k) for k in kids) if kids else 0


edges = [line.split() for line in sys.stdin.read().splitlines() if line.strip()]
children = defaultdict(list)
for parent, child in edges:
    children[parent].append(child)
root = edges[0][0]
nodes = {n for edge in edges for n in edge}
print(f"depth={height(children, root)} leaves={sum(1 for n in nodes if not children[n])}")
