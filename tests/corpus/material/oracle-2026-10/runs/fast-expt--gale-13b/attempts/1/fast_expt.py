import sys


def power(base, exponent):
    """Right-to-left square-and-multiply."""
    result, mults = 1, 0
    while exponent:
        if exponent & 1:
            result *= base
            mults += 1
        exponent >>= 1
        if exponent:
            base *= base
            mults += 1
    return result, mults


a, b = map(int, sys.stdin.read().split())
result, mults = power(a, b)
print(f"mults={mults} result={result}")
