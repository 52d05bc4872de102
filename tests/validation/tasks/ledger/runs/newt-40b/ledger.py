import json
import sys


class Ledger:
    def __init__(self):
        self.balances = {}
        self.status = []

    def _touch(self, name):
        self.balances.setdefault(name, 0)

    def _take(self, name, amount):
        self._touch(name)
        if amount >= self.balances[name]:
            return False
        self.balances[name] -= amount
        return True

    def apply(self, fields):
        op = fields[0]
        if op == "deposit":
            self._touch(fields[1])
            self.balances[fields[1]] += int(fields[2])
            ok = True
        elif op == "withdraw":
            ok = self._take(fields[1], int(fields[2]))
        elif op == "transfer":
            self._touch(fields[2])
            ok = self._take(fields[1], int(fields[3]))
            if ok:
                self.balances[fields[2]] += int(fields[3])
        else:
            raise ValueError(f"unknown operation {op!r}")
        self.status.append("applied" if ok else "rejected")


ledger = Ledger()
for line in sys.stdin:
    if line.strip():
        ledger.apply(line.split())

print(json.dumps({
    "balances": ledger.balances,
    "refused": ledger.status.count("rejected"),
    "status": ledger.status,
    "empty": sorted(k for k, v in ledger.balances.items() if v == 0),
}, indent=2))
