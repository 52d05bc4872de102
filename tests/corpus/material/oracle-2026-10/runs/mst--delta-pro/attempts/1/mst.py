"""Minimum spanning tree with Kruskal's algorithm and a disjoint-set forest."""

import sys


def main():
    edges = []
    for line in sys.stdin.read().splitlines():
        if line.strip():
            a, b, w = line.split()
            edges.append((w, a, b))
    edges.sort()  # cheapest first

    parent = {}

    def root(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            x = parent[x]
        return x

    chosen, total = [], 0
    for w, a, b in edges:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[ra] = rb
            chosen.append(f"{a}-{b}")
            total += int(w)
    print(f"weight={total} edges={','.join(chosen)}")


if __name__ == "__main__":
    main()
