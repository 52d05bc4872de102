"""Report whether an undirected graph read from stdin is connected."""

import sys


def main() -> None:
    neighbours: dict[str, set[str]] = {}
    edge_lines = 0
    for line in sys.stdin:
        names = line.split()
        if not names:
            continue
        for name in names:
            neighbours.setdefault(name, set())
        if len(names) == 2:
            a, b = names
            neighbours[a].add(b)
            neighbours[b].add(a)
            edge_lines += 1

    seen: set[str] = set()
    if neighbours:
        stack = [next(iter(neighbours))]
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            stack.extend(neighbours[node] - seen)

    connected = len(seen) == len(neighbours)
    print(f"nodes={len(neighbours)} edges={edge_lines} connected={str(connected).lower()}")


if __name__ == "__main__":
    main()
