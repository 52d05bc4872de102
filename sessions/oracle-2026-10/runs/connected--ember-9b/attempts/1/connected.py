import sys
from collections import defaultdict


def components(lines):
    """Union-find over the edge lines."""
    parent = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    degree = defaultdict(int)
    for line in lines:
        a, b = line.split()
        degree[a] += 1
        degree[b] += 1
        parent[find(a)] = find(b)
    roots = {find(n) for n in degree}
    return len(degree), len(lines), len(roots)


lines = [line for line in sys.stdin.read().splitlines() if line.strip()]
nodes, edges, count = components(lines)
print(f"nodes={nodes} edges={edges} connected={'yes' if count == 1 else 'no'}")
