"""Replay a ledger of deposits, withdrawals and transfers."""
import json
import sys
from collections import defaultdict

APPLIED, REJECTED = "Applied", "Rejected"

balances = defaultdict(int)
statuses = []

for line in sys.stdin.read().splitlines():
    fields = line.split()
    if not fields:
        continue
    kind, args = fields[0], fields[1:]
    if kind == "deposit":
        balances[args[0]] += int(args[1])
        statuses.append(APPLIED)
        continue
    if kind == "withdraw":
        source, target, amount = args[0], None, int(args[1])
    else:
        source, target, amount = args[0], args[1], int(args[2])
        balances[target] += 0
    if balances[source] < amount:
        statuses.append(REJECTED)
        continue
    balances[source] -= amount
    if target is not None:
        balances[target] += amount
    statuses.append(APPLIED)

result = {
    "balances": dict(balances),
    "refused": statuses.count(REJECTED),
    "status": statuses,
    "empty": sorted(name for name, cents in balances.items() if cents == 0),
}
json.dump(result, sys.stdout)
print()
