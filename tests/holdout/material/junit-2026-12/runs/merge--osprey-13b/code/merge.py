import json
import sys


def main():
    intervals = json.loads(sys.stdin.read())
    merged = []
    for start, end in intervals:
        if merged and start <= merged[-1][1] and end >= merged[-1][0]:
            merged[-1] = [min(merged[-1][0], start), max(merged[-1][1], end)]
        else:
            merged.append([start, end])
    merged.sort()
    total = sum(end - start for start, end in merged)
    print(json.dumps({"merged": merged, "covered": total}))


main()
