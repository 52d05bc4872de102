import json
import sys


def main():
    balances = {}
    status = []
    rejected = 0
    for raw in sys.stdin:
        parts = raw.split()
        if not parts:
            continue
        op = parts[0]
        if op == "deposit":
            name, amount = parts[1], int(parts[2])
            balances[name] = balances.get(name, 0) + amount
            status.append("applied")
        elif op == "withdraw":
            name, amount = parts[1], int(parts[2])
            balances.setdefault(name, 0)
            if balances[name] - amount < 0:
                rejected += 1
                status.append("rejected")
            else:
                balances[name] -= amount
                status.append("applied")
        elif op == "transfer":
            src, dst, amount = parts[1], parts[2], int(parts[3])
            balances.setdefault(src, 0)
            balances.setdefault(dst, 0)
            if balances[src] - amount < 0:
                rejected += 1
                status.append("rejected")
            else:
                balances[src] -= amount
                balances[dst] += amount
                status.append("applied")
    empty = sorted(name for name, value in balances.items() if value == 0)
    print(json.dumps({"balances": balances, "refused": rejected, "status": status, "empty": empty}))


main()
