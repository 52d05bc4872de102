import json
import sys

data = json.load(sys.stdin)
data.sort()
out = []
for s, e in data:
    if out and s < out[-1][1]:
        if e > out[-1][1]:
            out[-1][1] = e
    else:
        out.append([s, e])
print(json.dumps({"merged": out, "covered": sum(b - a for a, b in out)}))
