#!/usr/bin/env python3
"""N! with its digit count and trailing zeros."""
import sys
from math import factorial


def trailing_zeros(n: int) -> int:
    # Legendre: count the factors of 5 in n!
    count = 0
    power = 5
    while power <= n:
        count += n // power
        power *= 5
    return count


def main() -> None:
    n = int(sys.argv[1])
    print(f"zeros={trailing_zeros(n)}")
    value = factorial(n)
    digits = str(value)
    print(f"digits={len(digits)}")
    print(f"value={digits}")


if __name__ == "__main__":
    main()
