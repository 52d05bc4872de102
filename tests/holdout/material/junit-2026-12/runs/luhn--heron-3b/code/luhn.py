import sys


def luhn_sum(digits):
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total


def issuer(number):
    if number.startswith("4"):
        return "Visa"
    if number[:2] in ("51", "52", "53", "54", "55"):
        return "Mastercard"
    if number[:2] in ("34", "37"):
        return "Amex"
    return "Unknown"


def main():
    number = sys.argv[1]
    digits = [int(c) for c in number]
    valid = luhn_sum(digits) % 10 == 0
    check = next(d for d in range(10) if luhn_sum(digits[:-1] + [d]) % 10 == 0)
    print(f"valid={str(valid).lower()}")
    print(f"issuer={issuer(number)}")
    print(f"check_digit={check}")


if __name__ == "__main__":
    main()
