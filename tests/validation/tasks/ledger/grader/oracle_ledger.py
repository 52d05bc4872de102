"""Held-out property oracle for ledger.py: feeds operations on stdin, reads one JSON object."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(lines):
    proc = subprocess.run([sys.executable, "ledger.py"], cwd=HERE, input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=30)
    try:
        document = json.loads(proc.stdout)
    except ValueError:
        document = None
    return document if isinstance(document, dict) else {}


def test_deposits_and_withdrawals():
    out = run(["deposit ann 500", "deposit bob 120", "withdraw ann 130", "deposit ann 5"])
    got = out.get("balances")
    want = {"ann": 375, "bob": 120}
    assert got == want, f"balances after deposits and withdrawals: expected {want}, got {got!r}"


def test_overdraft_refused():
    out = run(["deposit cy 100", "withdraw cy 101", "withdraw cy 40"])
    balances, rejected = out.get("balances"), out.get("refused")
    assert balances == {"cy": 60}, f"an overdrawing withdrawal changes nothing: got {balances!r}"
    assert rejected == 1, f"refused count: expected 1, got {rejected!r}"


def test_exact_balance_withdrawal():
    out = run(["deposit dee 250", "withdraw dee 250"])
    balances, rejected = out.get("balances"), out.get("refused")
    assert balances == {"dee": 0}, f"withdrawing the whole balance is allowed: got {balances!r}"
    assert rejected == 0, f"refused count: expected 0, got {rejected!r}"


def test_transfer():
    out = run(["deposit eve 300", "transfer eve fay 120", "transfer fay eve 500"])
    got = out.get("balances")
    want = {"eve": 180, "fay": 120}
    assert got == want, f"balances after an applied and an overdrawing transfer: expected {want}, got {got!r}"


def test_status_per_line():
    out = run(["deposit gus 50", "", "withdraw gus 80", "withdraw gus 20", "deposit hal 1"])
    got = out.get("status")
    want = ["applied", "rejected", "applied", "applied"]
    assert got == want, f"status list: expected {want}, got {got!r}"


def test_zero_balance_accounts():
    out = run(["deposit kim 10", "transfer kim jo 10", "deposit lu 3", "withdraw ivy 1",
               "transfer jo ivy 10", "withdraw ivy 10"])
    got = out.get("empty")
    want = ["ivy", "jo", "kim"]
    assert got == want, f"accounts with a zero balance: expected {want}, got {got!r}"


def test_refused_count_mixed():
    out = run(["deposit max 100", "withdraw max 150", "transfer max ned 101", "transfer ned max 1",
               "withdraw ned 1", "transfer max ned 60", "withdraw max 41"])
    got = out.get("refused")
    assert got == 5, f"refused count over withdrawals and transfers: expected 5, got {got!r}"
