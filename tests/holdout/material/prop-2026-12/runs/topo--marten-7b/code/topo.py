import sys

graph = {}
for line in sys.stdin:
    p = line.split()
    if not p:
        continue
    for x in p:
        graph.setdefault(x, [])
    if len(p) == 2:
        graph[p[0]].append(p[1])

visited = set()
order = []
cyclic = False


def dfs(u):
    global cyclic
    visited.add(u)
    for v in graph[u]:
        if v in visited:
            cyclic = True
            return
        dfs(v)
    order.append(u)


for node in graph:
    if node not in visited:
        dfs(node)

if cyclic:
    print("order=")
    print("cyclic=yes")
else:
    print("order=" + " ".join(reversed(order)))
    print("cyclic=no")
