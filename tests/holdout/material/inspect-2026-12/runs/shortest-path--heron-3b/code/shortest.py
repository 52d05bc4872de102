import heapq
import sys


def read_input():
    lines = sys.stdin.read().split("\n")
    start, goal = lines[0].split()
    graph = {}
    for line in lines[1:]:
        parts = line.split()
        if len(parts) != 3:
            continue
        u, v, w = parts[0], parts[1], int(parts[2])
        graph.setdefault(u, []).append((v, w))
        graph.setdefault(v, []).append((u, w))
    return start, goal, graph


def shortest(start, goal, graph):
    dist = {start: 0}
    prev = {}
    heap = [(0, start)]
    while heap:
        d, u = heapq.heappop(heap)
        if u == goal:
            break
        if d > dist[u]:
            continue
        for v, w in graph.get(u, []):
            nd = d + w
            if nd < dist.get(v, float("inf")):
                dist[v] = nd
                prev[v] = u
                heapq.heappush(heap, (nd, v))
    if goal not in dist:
        return None, []
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    return dist[goal], path[::-1]


def main():
    start, goal, graph = read_input()
    distance, path = shortest(start, goal, graph)
    print(f"distance={distance}")
    print(f"path={' '.join(path)}")


if __name__ == "__main__":
    main()
