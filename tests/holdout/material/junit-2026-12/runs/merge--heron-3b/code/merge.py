import json
import sys


def merge(intervals):
    intervals = sorted(intervals)
    result = []
    for start, end in intervals:
        if result and start <= result[-1][1]:
            result[-1][1] = max(result[-1][1], end)
        else:
            result.append([start, end])
    return result


def main():
    intervals = json.load(sys.stdin)
    merged = merge(intervals)
    length = sum(e - s for s, e in merged)
    print(json.dumps({"merged": merged, "length": length}))


if __name__ == "__main__":
    main()
