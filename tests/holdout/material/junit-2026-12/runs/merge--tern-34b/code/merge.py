"""Merge intervals that overlap or touch; report the merged list and coverage."""
import json
import sys


def merge(intervals: list[list[int]]) -> list[list[int]]:
    merged: list[list[int]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def main() -> None:
    merged = merge(json.load(sys.stdin))
    json.dump({"merged": merged, "covered": sum(e - s for s, e in merged)}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
