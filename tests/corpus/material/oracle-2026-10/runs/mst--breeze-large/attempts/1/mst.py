import heapq
import sys

# Output: weight=<total> edges=<number of tree edges> tree=<A-B,C-D,...>
# [b]Prim's algorithm[/b] from the alphabetically first node.


def main():
    graph = {}
    for line in sys.stdin:
        if not line.strip():
            continue
        a, b, w = line.split()
        graph.setdefault(a, []).append((int(w), b))
        graph.setdefault(b, []).append((int(w), a))

    start = min(graph)
    visited = {start}
    frontier = [(w, start, b) for w, b in graph[start]]
    heapq.heapify(frontier)
    tree, total = [], 0
    while frontier and len(visited) < len(graph):
        w, a, b = heapq.heappop(frontier)
        if b in visited:
            continue
        visited.add(b)
        tree.append(f"{a}-{b}")
        total += w
        for w2, c in graph[b]:
            if c not in visited:
                heapq.heappush(frontier, (w2, b, c))

    print(f"weight={total} edges={len(tree)} tree={','.join(tree)}")


main()
