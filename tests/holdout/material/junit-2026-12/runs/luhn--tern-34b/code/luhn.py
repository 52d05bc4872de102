"""Luhn check, issuer and check digit for a card number given as argv[1]."""
import sys


def luhn_total(digits: str) -> int:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return total


def issuer_of(digits: str) -> str:
    if digits.startswith("4"):
        return "Visa"
    if digits[:2] in {"51", "52", "53", "54", "55"}:
        return "Mastercard"
    if digits[:2] in {"34", "37"}:
        return "Amex"
    return "Unknown"


def main() -> None:
    digits = "".join(ch for ch in sys.argv[1] if ch.isdigit())
    valid = luhn_total(digits) % 10 == 0
    check = (10 - luhn_total(digits[:-1] + "0") % 10) % 10
    print(f"valid={'yes' if valid else 'no'}")
    print(f"issuer={issuer_of(digits)}")
    print(f"check_digit={check}")


if __name__ == "__main__":
    main()
