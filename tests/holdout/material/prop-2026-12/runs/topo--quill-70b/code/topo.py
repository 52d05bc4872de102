#!/usr/bin/env python3
"""Topological ordering with Kahn's algorithm."""
import heapq
import sys


def read_graph(stream):
    edges, nodes = [], {}
    for line in stream:
        tokens = line.split()
        if not tokens:
            continue
        for t in tokens:
            nodes.setdefault(t, len(nodes))
        if len(tokens) == 2:
            edges.append((tokens[0], tokens[1]))
    return nodes, edges


def toposort(nodes, edges):
    indegree = {n: 0 for n in nodes}
    out = {n: [] for n in nodes}
    for a, b in edges:
        out[a].append(b)
        indegree[b] += 1
    heap = [(nodes[n], n) for n in nodes if indegree[n] == 0]
    heapq.heapify(heap)
    result = []
    while heap:
        _, n = heapq.heappop(heap)
        result.append(n)
        for m in out[n]:
            indegree[m] -= 1
            if indegree[m] == 0:
                heapq.heappush(heap, (nodes[m], m))
    return result


def main():
    nodes, edges = read_graph(sys.stdin)
    result = toposort(nodes, edges)
    has_cycle = len(result) < len(nodes)
    print("sequence=" + " ".join(result))
    print("cyclic=" + ("yes" if has_cycle else "no"))


if __name__ == "__main__":
    main()
