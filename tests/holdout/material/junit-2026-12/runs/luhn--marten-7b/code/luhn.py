import sys

num = sys.argv[1].replace(" ", "")


def checksum(n):
    s = 0
    for i, c in enumerate(n):
        d = int(c)
        if i % 2 == 0:
            d = d * 2
            if d > 9:
                d = d - 9
        s += d
    return s


print("valid=" + ("yes" if checksum(num) % 10 == 0 else "no"))
if num.startswith("4"):
    print("issuer=Visa")
elif num[:2] in ["51", "52", "53", "54", "55"]:
    print("issuer=Mastercard")
elif num[:2] in ["34", "37"]:
    print("issuer=Amex")
else:
    print("issuer=Unknown")
for d in range(10):
    if checksum(num[:-1] + str(d)) % 10 == 0:
        print("check_digit=" + str(d))
        break
