import sys
from collections import defaultdict


def main():
    words = sys.stdin.read().split()
    buckets = defaultdict(list)
    for word in words:
        buckets["".join(sorted(word.lower()))].append(word)
    groups = [sorted(ws, key=str.lower) for ws in buckets.values() if len(ws) >= 2]
    loners = sum(1 for ws in buckets.values() if len(ws) == 1)
    groups.sort(key=lambda g: (-len(g), g[0].lower()))
    print(f"groups: {len(groups)}")
    print("largest: " + (" ".join(groups[0]) if groups else ""))
    print(f"singles: {loners}")


main()
