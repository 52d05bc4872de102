"""Held-out oracle for `luhn`: python3 luhn.py NUMBER, key=value lines."""
import os
import subprocess
import sys

VALID = ["4539148803436467", "5555555555554444", "378282246310005",
         "4222222222222", "6011111111111117", "4012888888881881"]


def luhn(number):
    proc = subprocess.run([sys.executable, os.path.join(os.getcwd(), "luhn.py"), number],
                          capture_output=True, text=True, timeout=10)
    fields = {}
    for line in proc.stdout.splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            fields[k] = v
    return fields


def luhn_ok(number):
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def test_valid_numbers():
    for number in VALID:
        assert luhn(number)["valid"] == "yes", number


def test_invalid_numbers():
    for number in VALID:
        last = str((int(number[-1]) + 3) % 10)
        assert luhn(number[:-1] + last)["valid"] == "no", number


def test_every_single_digit_error_detected():
    base = "4539148803436467"
    for pos in range(0, len(base), 3):
        for delta in (1, 5):
            changed = base[:pos] + str((int(base[pos]) + delta) % 10) + base[pos + 1:]
            assert luhn(changed)["valid"] == "no"


def test_issuer():
    expected = {"4539148803436467": "Visa", "5105105105105100": "Mastercard",
                "378282246310005": "Amex", "6011111111111117": "Unknown",
                "3530111333300000": "Unknown", "341111111111111": "Amex"}
    got = {number: luhn(number)["issuer"] for number in expected}
    assert got == expected


def test_check_digit():
    for number in VALID + ["79927398710", "1234567812345678"]:
        if len(number) < 12:
            number = "00" + number
        want = next(d for d in "0123456789" if luhn_ok(number[:-1] + d))
        assert luhn(number)["check_digit"] == want


def test_grouped_number():
    assert luhn("4539 1488 0343 6467").get("valid") == "yes"
