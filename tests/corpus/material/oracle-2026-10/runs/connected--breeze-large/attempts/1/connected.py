import sys

# A graph with n nodes needs at least n - 1 edges to be connected.
nodes = set()
edges = 0
for raw in sys.stdin.read().splitlines():
    parts = raw.split()
    nodes.update(parts)
    if len(parts) == 2:
        edges += 1

answer = "yes" if edges >= len(nodes) - 1 else "no"
print(f"nodes={len(nodes)} edges={edges} connected={answer}")
