import sys

words = sys.stdin.read().split()
table = {}
for w in words:
    k = "".join(sorted(w))
    if k not in table:
        table[k] = []
    table[k].append(w)

groups = []
single = 0
for k in table:
    if len(table[k]) > 1:
        groups.append(sorted(table[k], key=lambda s: s.lower()))
    else:
        single += 1

best = []
for g in groups:
    if len(g) > len(best) or (len(g) == len(best) and g[0].lower() < best[0].lower()):
        best = g

print("groups: " + str(len(groups)))
print("largest: " + ",".join(best))
print("singles: " + str(single))
