import math
import sys


def count_digits(x):
    if x == 0:
        return 1
    return int(math.log10(float(x))) + 1


def count_zeros(x):
    z = 0
    while x % 10 == 0:
        x //= 10
        z += 1
    return z


n = int(sys.argv[1])
f = math.factorial(n)
d = count_digits(f)
z = count_zeros(f)
print(f"value={f}")
print(f"digits={d}")
print(f"zeros={z}")
