"""Order tasks under precedence constraints (Kahn's algorithm)."""
import sys
from collections import deque


def main() -> None:
    successors: dict[str, list[str]] = {}
    indegree: dict[str, int] = {}
    for line in sys.stdin:
        names = line.split()
        if not names:
            continue
        for name in names:
            successors.setdefault(name, [])
            indegree.setdefault(name, 0)
        if len(names) == 2:
            before, after = names
            successors[before].append(after)
            indegree[after] += 1
    ready = deque(name for name, d in indegree.items() if d == 0)
    order: list[str] = []
    while ready:
        name = ready.popleft()
        order.append(name)
        for nxt in successors[name]:
            indegree[nxt] -= 1
            if indegree[nxt] == 0:
                ready.append(nxt)
    cyclic = len(order) != len(indegree)
    print(f"order={' '.join(order)}")
    print(f"cyclic={'yes' if cyclic else 'no'}")


if __name__ == "__main__":
    main()
