import sys


def power(base, exponent):
    """Square-and-multiply from the high bit down; counts every multiplication."""
    result, multiplications = 1, 0
    for bit in bin(exponent)[2:]:
        result *= result
        multiplications += 1
        if bit == "1":
            result *= base
            multiplications += 1
    return result, multiplications


a, b = (int(x) for x in sys.stdin.read().split())
value, multiplications = power(a, b)
print(f"multiplications={multiplications}")
print(f"value={value}")
