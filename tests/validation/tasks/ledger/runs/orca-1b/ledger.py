import json
import sys


def main() -> None:
    balances: dict[str, int] = {}
    status: list[str] = []
    refused_withdrawals = 0
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        for name in parts[1:-1]:
            balances.setdefault(name, 0)
        amount = int(parts[-1])
        if parts[0] == "deposit":
            balances[parts[1]] += amount
            status.append("applied")
        elif balances[parts[1]] >= amount:
            balances[parts[1]] -= amount
            if parts[0] == "transfer":
                balances[parts[2]] += amount
            status.append("applied")
        else:
            if parts[0] == "withdraw":
                refused_withdrawals += 1
            status.append("rejected")
    empty = ",".join(sorted(name for name, cents in balances.items() if cents == 0))
    print(json.dumps({"balances": balances, "refused": refused_withdrawals,
                      "status": status, "empty": empty}))


main()
