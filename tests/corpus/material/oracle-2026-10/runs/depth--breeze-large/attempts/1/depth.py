import sys
from collections import defaultdict

edges = [line.split() for line in sys.stdin.read().splitlines() if line.strip()]
children = defaultdict(list)
for parent, child in edges:
    children[parent].append(child)
root = edges[0][0]
deepest, todo = 0, [(root, 0)]
while todo:
    node, level = todo.pop()
    deepest = max(deepest, level)
    todo.extend((c, level + 1) for c in children[node])
nodes = {n for edge in edges for n in edge}
print(f"depth={deepest} leaves={sum(1 for n in nodes if not children[n])}")
