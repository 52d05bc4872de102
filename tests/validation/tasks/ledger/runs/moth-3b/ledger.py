import json
import sys

balances = {}
status = []
rejected = 0

for line in sys.stdin:
    words = line.split()
    if len(words) == 0:
        continue
    if words[0] == "deposit":
        balances[words[1]] = balances.get(words[1], 0) + int(words[2])
        status.append(True)
    elif words[0] == "withdraw":
        name = words[1]
        amount = int(words[2])
        current = balances.get(name, 0)
        if amount > current:
            balances[name] = current
            rejected += 1
            status.append(False)
        else:
            balances[name] = current - amount
            status.append(True)
    elif words[0] == "transfer":
        a, b, amount = words[1], words[2], int(words[3])
        balances[a] = balances.get(a, 0) - amount
        balances[b] = balances.get(b, 0) + amount
        status.append(True)

empty = sorted([n for n in balances if balances[n] == 0])
print(json.dumps({"balances": balances, "refused": rejected, "status": status, "empty": empty}))
