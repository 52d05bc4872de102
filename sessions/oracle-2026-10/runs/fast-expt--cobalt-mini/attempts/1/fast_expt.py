import sys


def fast_power(base, exponent):
    """Right-to-left binary exponentiation; returns (result, multiplications used)."""
    result, steps = 1, 0
    while exponent > 0:
        if exponent & 1:
            result *= base
            steps += 1
        exponent >>= 1
        if exponent:
            base *= base
            steps += 1
    return result, steps


a, b = map(int, sys.stdin.read().split())
value, steps = fast_power(a, b)
print(f"value={value} steps={steps}")
