import sys


def main() -> None:
    seen: dict[str, list[str]] = {}
    order: list[str] = []
    for word in sys.stdin.read().split():
        key = "".join(sorted(word.lower()))
        if key not in seen:
            seen[key] = []
            order.append(key)
        seen[key].append(word)
    groups = [seen[k] for k in order if len(seen[k]) >= 2]
    largest: list[str] = []
    for group in groups:
        if len(group) > len(largest):
            largest = group
    print("groups:", len(groups))
    print("largest:", ", ".join(largest))
    print("singles:", sum(1 for k in order if len(seen[k]) == 1))


main()
