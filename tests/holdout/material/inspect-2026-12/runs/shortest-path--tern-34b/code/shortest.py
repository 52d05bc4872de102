"""Dijkstra's shortest route over an undirected weighted road list."""
import heapq
import sys


def main() -> None:
    rows = [line.split() for line in sys.stdin.read().splitlines() if line.strip()]
    start, goal = rows[0]
    graph: dict[str, list[tuple[str, int]]] = {}
    for u, v, w in rows[1:]:
        graph.setdefault(u, []).append((v, int(w)))
        graph.setdefault(v, []).append((u, int(w)))
    dist = {start: 0}
    prev: dict[str, str] = {}
    heap = [(0, start)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in graph.get(u, []):
            if d + w < dist.get(v, float("inf")):
                dist[v] = d + w
                prev[v] = u
                heapq.heappush(heap, (d + w, v))
    if goal not in dist:
        print("distance=none")
        print("path=")
        return
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    print(f"distance={dist[goal]}")
    print("path=" + " ".join(reversed(path)))


if __name__ == "__main__":
    main()
