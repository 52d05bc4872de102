"""Group anagrams read from standard input."""
import sys


def signature(word: str) -> str:
    return "".join(sorted(word.casefold()))


def main() -> int:
    groups: dict[str, list[str]] = {}
    for word in sys.stdin.read().split():
        groups.setdefault(signature(word), []).append(word)
    real = [sorted(members, key=str.casefold) for members in groups.values() if len(members) > 1]
    alone = sum(len(members) for members in groups.values() if len(members) == 1)
    best = min(real, key=lambda g: (-len(g), g[0].casefold()), default=[])
    print(f"groups: {len(real)}")
    print(f"largest: {','.join(best)}")
    print(f"singles: {alone}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
