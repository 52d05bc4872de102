import sys
from collections import defaultdict, deque


def main():
    succ = defaultdict(list)
    indeg = {}
    seen_order = []
    for raw in sys.stdin:
        parts = raw.split()
        if not parts:
            continue
        for name in parts:
            if name not in indeg:
                indeg[name] = 0
                seen_order.append(name)
        if len(parts) == 2:
            a, b = parts
            succ[a].append(b)
            indeg[b] += 1
    queue = deque(n for n in seen_order if indeg[n] == 0)
    order = []
    while queue:
        n = queue.popleft()
        order.append(n)
        for m in succ[n]:
            indeg[m] -= 1
            if indeg[m] == 0:
                queue.append(m)
    cyclic = len(order) != len(seen_order)
    print("order=" + ",".join(order))
    print("cyclic=" + ("yes" if cyclic else "no"))


main()
