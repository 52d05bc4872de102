import sys


def luhn_valid(number):
    digits = [int(c) for c in number]
    odd = digits[-1::-2]
    even = digits[-2::-2]
    total = sum(odd)
    for d in even:
        total += sum(divmod(d * 2, 10))
    return total % 10 == 0


def card_issuer(number):
    if number[0] == "4":
        return "Visa"
    if 51 <= int(number[:2]) <= 55:
        return "MasterCard"
    if number[:2] in ("34", "37"):
        return "Amex"
    return "Unknown"


def main():
    number = sys.argv[1].replace(" ", "").replace("-", "")
    print("valid=" + ("yes" if luhn_valid(number) else "no"))
    print("issuer=" + card_issuer(number))
    for d in "0123456789":
        if luhn_valid(number[:-1] + d):
            print("check_digit=" + d)
            break


if __name__ == "__main__":
    main()
