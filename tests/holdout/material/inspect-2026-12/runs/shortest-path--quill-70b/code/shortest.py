#!/usr/bin/env python3
"""Shortest route between two places (breadth-first search)."""
import sys
from collections import deque


def main() -> None:
    lines = [line.split() for line in sys.stdin if line.strip()]
    start, goal = lines[0]
    neighbours: dict[str, list[tuple[str, int]]] = {}
    for u, v, w in lines[1:]:
        neighbours.setdefault(u, []).append((v, int(w)))
        neighbours.setdefault(v, []).append((u, int(w)))
    previous: dict[str, str | None] = {start: None}
    cost = {start: 0}
    queue = deque([start])
    while queue:
        place = queue.popleft()
        if place == goal:
            break
        for nxt, w in neighbours.get(place, []):
            if nxt not in previous:
                previous[nxt] = place
                cost[nxt] = cost[place] + w
                queue.append(nxt)
    if goal not in previous:
        print("distance=none")
        print("path=")
        return
    route = [goal]
    while previous[route[-1]] is not None:
        route.append(previous[route[-1]])
    print(f"distance={cost[goal]}")
    print("path=" + " ".join(reversed(route)))


if __name__ == "__main__":
    main()
