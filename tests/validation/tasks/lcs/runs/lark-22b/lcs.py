"""Longest common subsequence by memoised recursion."""
import sys


def solve(a: str, b: str) -> str:
    memo: dict[tuple[int, int], int] = {}

    def best(i: int, j: int) -> int:
        if i == len(a) or j == len(b):
            return 0
        key = (i, j)
        if key not in memo:
            if a[i] == b[j]:
                memo[key] = 1 + best(i + 1, j + 1)
            else:
                memo[key] = max(best(i + 1, j), best(i, j + 1))
        return memo[key]

    best(0, 0)
    picked = []
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            picked.append(a[i])
            i, j = i + 1, j + 1
        elif best(i + 1, j) >= best(i, j + 1):
            i += 1
        else:
            j += 1
    return "".join(picked)


def main() -> None:
    data = sys.stdin.read().split("\n")
    a = data[0].strip() if data else ""
    b = data[1].strip() if len(data) > 1 else ""
    answer = solve(a, b)
    print(answer)
    print(len(answer))


main()
