#!/usr/bin/env python3
"""Merge overlapping or touching integer intervals read as JSON from stdin."""
import json
import sys
from dataclasses import dataclass, asdict


@dataclass
class Interval:
    start: int
    end: int


def merge(raw):
    items = sorted((Interval(s, e) for s, e in raw), key=lambda iv: (iv.start, iv.end))
    merged: list[Interval] = []
    for iv in items:
        if merged and iv.start <= merged[-1].end:
            merged[-1].end = max(merged[-1].end, iv.end)
        else:
            merged.append(Interval(iv.start, iv.end))
    return merged


def main() -> None:
    merged = merge(json.load(sys.stdin))
    covered = sum(iv.end - iv.start for iv in merged)
    json.dump({"merged": [asdict(iv) for iv in merged], "covered": covered}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
