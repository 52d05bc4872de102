"""Euler walks: count odd nodes, then walk with Hierholzer's algorithm."""

import sys
from collections import defaultdict


def walk_from(edges, start):
    around = defaultdict(list)
    for i, (a, b) in enumerate(edges):
        around[a].append((b, i))
        around[b].append((a, i))
    done = set()
    stack, walk = [start], []
    while stack:
        here = stack[-1]
        while around[here] and around[here][-1][1] in done:
            around[here].pop()
        if around[here]:
            there, i = around[here].pop()
            done.add(i)
            stack.append(there)
        else:
            walk.append(stack.pop())
    return walk[::-1]


edges = [tuple(line.split()) for line in sys.stdin.read().splitlines() if line.strip()]
degree = defaultdict(int)
for a, b in edges:
    degree[a] += 1
    degree[b] += 1
odd = sorted(n for n in degree if degree[n] % 2)
print(f"odd_degree={len(odd)}")
if not odd:
    print("result=circuit")
    print("path=" + ",".join(walk_from(edges, min(degree))))
elif len(odd) == 2:
    print("result=trail")
    print("path=" + ",".join(walk_from(edges, odd[0])))
else:
    print("result=none")
