import sys
from collections import Counter, defaultdict


def main() -> None:
    pairs = [line.split() for line in sys.stdin if line.strip()]
    adjacency = defaultdict(Counter)
    for a, b in pairs:
        adjacency[a][b] += 1
        adjacency[b][a] += 1

    odd = sorted(node for node, links in adjacency.items() if sum(links.values()) % 2 == 1)
    print(f"odd_degree={len(odd)}")
    if len(odd) not in (0, 2):
        print("result=none")
        return
    print("result=circuit" if not odd else "result=trail")

    # Hierholzer: follow unused edges, back out when stuck, the backing-out order is the walk.
    start = odd[0] if odd else min(adjacency)
    stack, walk = [start], []
    while stack:
        node = stack[-1]
        if adjacency[node]:
            nxt = min(adjacency[node])
            adjacency[node][nxt] -= 1
            adjacency[nxt][node] -= 1
            for x, y in ((node, nxt), (nxt, node)):
                if adjacency[x][y] == 0:
                    del adjacency[x][y]
            stack.append(nxt)
        else:
            walk.append(stack.pop())
    print("path=" + " ".join(reversed(walk)))


if __name__ == "__main__":
    main()
