import sys

def main():
    number = sys.argv[1]
    if not number.isdigit() or not 12 <= len(number) <= 19:
        print("error: expected 12 to 19 digits", file=sys.stderr)
        sys.exit(2)
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    print("valid=" + ("yes" if total % 10 == 0 else "no"))
    if number[0] == "4":
        issuer = "Visa"
    elif number[:2] in ("51", "52", "53", "54", "55"):
        issuer = "Mastercard"
    elif number[:2] in ("34", "37"):
        issuer = "Amex"
    else:
        issuer = "Unknown"
    print("issuer=" + issuer)
    # digit to put at the end so that the total becomes a multiple of 10
    print("check_digit=" + str((10 - total % 10) % 10))

main()
