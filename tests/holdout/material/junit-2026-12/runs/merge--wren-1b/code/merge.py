import json
import sys

def overlaps(a, b):
    return a[0] <= b[1] and b[0] <= a[1]

def main():
    intervals = [list(x) for x in json.load(sys.stdin)]
    changed = True
    while changed:
        changed = False
        result = []
        for iv in intervals:
            for other in result:
                if overlaps(iv, other):
                    other[0] = min(other[0], iv[0])
                    other[1] = max(other[1], iv[1])
                    changed = True
                    break
            else:
                result.append(iv)
        intervals = result
    intervals.sort()
    print(json.dumps({"merged": intervals, "covered": sum(e - s for s, e in intervals)}))

main()
