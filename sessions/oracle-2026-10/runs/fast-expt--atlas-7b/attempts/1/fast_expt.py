import sys


def fast_pow(a, b):
    """Recursive halving: a^b = (a^(b//2))^2, times a when b is odd."""
    if b == 0:
        return 1, 0
    half, count = fast_pow(a, b // 2)
    square = half * half
    count += 1
    if b % 2:
        square *= a
        count += 1
    return square, count


a, b = map(int, sys.stdin.read().split())
result, count = fast_pow(a, b)
print(f"value={result} mult_count={count}")
