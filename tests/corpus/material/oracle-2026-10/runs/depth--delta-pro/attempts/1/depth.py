import sys
from collections import defaultdict


def longest(graph, node):
    """Longest path down from node, following every neighbour."""
    best = 0
    for other in graph[node]:
        best = max(best, 1 + longest(graph, other))
    return best


edges = [line.split() for line in sys.stdin.read().splitlines() if line.strip()]
graph = defaultdict(list)
for a, b in edges:
    graph[a].append(b)
    graph[b].append(a)
root = edges[0][0]
leaves = sum(1 for n in graph if len(graph[n]) == 1 and n != root)
print(f"depth={longest(graph, root)} leaves={leaves}")
