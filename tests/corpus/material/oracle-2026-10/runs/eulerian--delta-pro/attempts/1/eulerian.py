"""Euler trails and circuits (Hierholzer's algorithm) for an undirected multigraph."""

import sys
from collections import defaultdict


def read_edges(text):
    return [tuple(line.split()) for line in text.splitlines() if line.strip()]


def euler_walk(edges, start):
    incident = defaultdict(list)
    for index, (a, b) in enumerate(edges):
        incident[a].append((b, index))
        incident[b].append((a, index))
    used = [False] * len(edges)
    stack, walk = [start], []
    while stack:
        node = stack[-1]
        while incident[node] and used[incident[node][-1][1]]:
            incident[node].pop()
        if incident[node]:
            other, index = incident[node].pop()
            used[index] = True
            stack.append(other)
        else:
            walk.append(stack.pop())
    return walk[::-1]


def main():
    edges = read_edges(sys.stdin.read())
    degree = defaultdict(int)
    for a, b in edges:
        degree[a] += 1
        degree[b] += 1
    odd = sorted(n for n, d in degree.items() if d % 2)
    print(f"odd_degree={len(odd)}")
    if len(odd) == 0:
        print("result=circuit")
        start = min(degree)
    elif len(odd) == 2:
        print("result=trail")
        start = odd[0]
    else:
        print("result=impossible")
        return
    print("trail=" + "->".join(euler_walk(edges, start)))


if __name__ == "__main__":
    main()
