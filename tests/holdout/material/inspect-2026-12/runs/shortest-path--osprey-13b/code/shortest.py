import sys
import heapq

def main():
    data = sys.stdin.read().splitlines()
    s, t = data[0].split()
    adj = {}
    for line in data[1:]:
        if not line.strip():
            continue
        u, v, w = line.split()
        adj.setdefault(u, []).append((v, int(w)))
        adj.setdefault(v, []).append((u, int(w)))
    dist = {s: 0}
    parent = {s: None}
    pq = [(0, s)]
    done = set()
    while pq:
        d, u = heapq.heappop(pq)
        if u in done:
            continue
        done.add(u)
        for v, w in adj.get(u, []):
            if v not in dist or d + w < dist[v]:
                dist[v] = d + w
                parent[v] = u
                heapq.heappush(pq, (d + w, v))
    if t not in dist:
        print("distance=none")
        print("path=")
        return
    route = []
    node = t
    while node is not None:
        route.append(node)
        node = parent[node]
    route.reverse()
    print("distance=" + str(dist[t]))
    print("path=" + "->".join(route))

main()
