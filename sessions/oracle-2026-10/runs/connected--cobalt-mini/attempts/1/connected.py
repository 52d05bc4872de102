import sys


def find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def main():
    parent = {}
    edges = 0
    for line in sys.stdin:
        words = line.split()
        for w in words:
            parent.setdefault(w, w)
        if len(words) == 2:
            edges += 1
            ra, rb = find(parent, words[0]), find(parent, words[1])
            if ra != rb:
                parent[ra] = rb
    roots = {find(parent, n) for n in parent}
    print("nodes=%d edges=%d connected=%s" % (len(parent), edges, "yes" if len(roots) <= 1 else "no"))


main()
