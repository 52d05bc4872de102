import sys


def table_for(a, b):
    t = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        for j in range(len(b) - 1, -1, -1):
            if a[i] == b[j]:
                t[i][j] = 1 + t[i + 1][j + 1]
            else:
                t[i][j] = max(t[i + 1][j], t[i][j + 1])
    return t


def rebuild(a, b, t, i, j):
    if t[i][j] == 0:
        return ""
    if a[i] == b[j]:
        return a[i] + rebuild(a, b, t, i + 1, j + 1)
    if t[i + 1][j] >= t[i][j + 1]:
        return rebuild(a, b, t, i, j + 1) if t[i][j + 1] == t[i][j] else rebuild(a, b, t, i, j)
    return rebuild(a, b, t, i, j + 1)


def main():
    a = sys.stdin.readline().rstrip("\n")
    b = sys.stdin.readline().rstrip("\n")
    t = table_for(a, b)
    print(rebuild(a, b, t, 0, 0))
    print(t[0][0])


main()
