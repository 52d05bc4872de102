import sys
from collections import defaultdict


def group_anagrams(words):
    index = defaultdict(list)
    for word in words:
        index[tuple(sorted(word.lower()))].append(word)
    return list(index.values())


def main():
    buckets = group_anagrams(sys.stdin.read().split())
    groups = [sorted(b, key=str.lower) for b in buckets if len(b) > 1]
    unmatched = sum(len(b) for b in buckets if len(b) == 1)
    largest = []
    for g in sorted(groups, key=lambda g: g[0].lower()):
        if len(g) > len(largest):
            largest = g
    print(f"groups: {len(groups)}")
    print(f"largest: {','.join(largest)}")
    print(f"unmatched: {unmatched}")


if __name__ == "__main__":
    main()
