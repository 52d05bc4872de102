import sys


def main():
    neighbours = {}
    edges = 0
    for line in sys.stdin.read().splitlines():
        names = line.split()
        if not names:
            continue
        for name in names:
            neighbours.setdefault(name, set())
        if len(names) == 2:
            a, b = names
            neighbours[a].add(b)
            neighbours[b].add(a)
            edges += 1
    seen, todo = set(), [next(iter(neighbours))] if neighbours else []
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(neighbours[node] - seen)
    connected = "yes" if len(seen) == len(neighbours) else "no"
    print(f"nodes={len(neighbours)}, edges={edges}, connected={connected}")


main()
