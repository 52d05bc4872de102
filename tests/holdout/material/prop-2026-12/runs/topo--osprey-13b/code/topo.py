import sys
from collections import deque


def main():
    adj = {}
    indeg = {}
    for line in sys.stdin:
        parts = line.strip().split(" ")
        if len(parts) != 2:
            continue  # not a constraint
        a, b = parts
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, [])
        indeg[a] = indeg.get(a, 0)
        indeg[b] = indeg.get(b, 0) + 1
    q = deque(sorted(n for n in indeg if indeg[n] == 0))
    res = []
    while q:
        u = q.popleft()
        res.append(u)
        for v in adj[u]:
            indeg[v] -= 1
            if indeg[v] == 0:
                q.append(v)
    print("order=" + " ".join(res))
    print("cyclic=" + ("yes" if len(res) < len(indeg) else "no"))


main()
