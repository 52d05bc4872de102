"""Minimum spanning tree by Prim's algorithm; prints weight= and edges= (A-B,C-D,...)."""

import heapq
import sys


def main() -> None:
    adjacency: dict[str, list[tuple[int, str]]] = {}
    for line in sys.stdin:
        parts = line.split()
        if len(parts) != 3:
            continue
        a, b, weight = parts[0], parts[1], int(parts[2])
        adjacency.setdefault(a, []).append((weight, b))
        adjacency.setdefault(b, []).append((weight, a))

    start = min(adjacency)
    in_tree = {start}
    heap = [(w, start, b) for w, b in adjacency[start]]
    heapq.heapify(heap)
    chosen: list[str] = []
    total = 0
    while heap and len(in_tree) < len(adjacency):
        w, a, b = heapq.heappop(heap)
        if b in in_tree:
            continue
        in_tree.add(b)
        chosen.append(f"{a}-{b}")
        total += w
        for w2, c in adjacency[b]:
            if c not in in_tree:
                heapq.heappush(heap, (w2, b, c))
    print(f"weight={total} edges={','.join(chosen)}")


if __name__ == "__main__":
    main()
