#!/usr/bin/env python3
"""Luhn validation, issuer detection and the repairing last digit."""
import sys

ISSUERS = [
    (("34", "37"), "Amex"),
    (("51", "52", "53", "54", "55"), "Mastercard"),
    (("4",), "Visa"),
]


def luhn_total(number: str) -> int:
    total = 0
    for position, ch in enumerate(reversed(number)):
        value = int(ch)
        if position % 2:
            value = value * 2
            value = value - 9 if value > 9 else value
        total += value
    return total


def main() -> None:
    number = "".join(sys.argv[1].split())
    valid = luhn_total(number) % 10 == 0
    issuer = next((name for prefixes, name in ISSUERS if number.startswith(prefixes)), "Unknown")
    fix = (10 - luhn_total(number[:-1] + "0") % 10) % 10
    print(f"valid={'yes' if valid else 'no'}")
    print(f"issuer={issuer}")
    print(f"fix={fix}")


if __name__ == "__main__":
    main()
