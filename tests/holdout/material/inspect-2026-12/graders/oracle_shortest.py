"""Held-out oracle for `shortest-path`: graph on stdin, key=value on stdout."""
import heapq
import os
import random
import subprocess
import sys


def run(start, goal, roads):
    text = f"{start} {goal}\n" + "".join(f"{u} {v} {w}\n" for u, v, w in roads)
    proc = subprocess.run([sys.executable, os.path.join(os.getcwd(), "shortest.py")],
                          input=text, capture_output=True, text=True, timeout=20)
    return dict(line.split("=", 1) for line in proc.stdout.splitlines() if "=" in line)


def dijkstra(start, goal, roads):
    adj = {}
    for u, v, w in roads:
        adj.setdefault(u, []).append((v, w))
        adj.setdefault(v, []).append((u, w))
    dist = {start: 0}
    heap = [(0, start)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in adj.get(u, []):
            if d + w < dist.get(v, float("inf")):
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    return dist.get(goal)


def assert_route(start, goal, roads, out):
    best = {}
    for u, v, w in roads:
        for a, b in ((u, v), (v, u)):
            best[a, b] = min(best.get((a, b), w), w)
    places = out["path"].split()
    assert places[0] == start and places[-1] == goal
    assert all((a, b) in best for a, b in zip(places, places[1:]))
    assert sum(best[a, b] for a, b in zip(places, places[1:])) == int(out["distance"])


ROADS = [("A", "B", 7), ("A", "C", 2), ("C", "D", 2), ("D", "B", 2),
         ("B", "E", 1), ("C", "E", 9)]


def test_known_distance():
    assert int(run("A", "E", ROADS)["distance"]) == 7


def test_route_is_a_real_shortest_route():
    assert_route("A", "E", ROADS, run("A", "E", ROADS))


def test_same_place():
    out = run("C", "C", ROADS)
    assert int(out["distance"]) == 0


def test_unreachable():
    roads = ROADS + [("X", "Y", 3)]
    assert run("A", "Y", roads)["distance"] == "none"


def test_random_graphs():
    rng = random.Random(31)
    for _ in range(6):
        names = [f"p{i}" for i in range(12)]
        roads = [(rng.choice(names), rng.choice(names), rng.randint(1, 20)) for _ in range(30)]
        roads = [r for r in roads if r[0] != r[1]]
        start, goal = names[0], names[1]
        want = dijkstra(start, goal, roads)
        if want is None:
            continue
        out = run(start, goal, roads)
        assert int(out["distance"]) == want
        assert_route(start, goal, roads, out)
