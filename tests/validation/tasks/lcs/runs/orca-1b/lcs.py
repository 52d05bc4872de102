import sys


def main() -> None:
    a = sys.stdin.readline().strip()
    b = sys.stdin.readline().strip()
    prev = [""] * (len(b) + 1)
    for ch in a:
        cur = [""]
        for j, other in enumerate(b, 1):
            if ch == other:
                cur.append(prev[j - 1] + ch)
            else:
                left, up = cur[j - 1], prev[j]
                cur.append(up if len(up) >= len(left) else left)
        prev = cur
    best = prev[-1]
    sys.stdout.write(best + "\n" + str(len(best)) + "\n")


main()
