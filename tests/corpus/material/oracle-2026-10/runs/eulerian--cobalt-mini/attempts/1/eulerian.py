import sys

edges = [line.split() for line in sys.stdin.read().splitlines() if line.strip()]
degree = {}
for a, b in edges:
    degree[a] = degree.get(a, 0) + 1
    degree[b] = degree.get(b, 0) + 1
odd = sorted(n for n in degree if degree[n] % 2 == 1)

print("odd_degree=%d" % len(odd))
if len(odd) == 0:
    print("result=circuit")
elif len(odd) == 2:
    print("result=trail")
else:
    print("result=none")
    sys.exit(0)

# Walk greedily: from the current node always take the first unused edge in name order.
unused = [tuple(e) for e in edges]
node = odd[0] if odd else min(degree)
path = [node]
while True:
    options = sorted((b if a == node else a, i) for i, (a, b) in enumerate(unused) if node in (a, b))
    if not options:
        break
    nxt, i = options[0]
    unused.pop(i)
    path.append(nxt)
    node = nxt
print("path=" + " ".join(path))
