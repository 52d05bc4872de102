#!/usr/bin/env python3
"""Prime factorisation by trial division with a 2-3-5 wheel."""
import sys


def prime_factors(n: int) -> list[int]:
    out: list[int] = []
    for p in (2, 3, 5):
        while n % p == 0:
            out.append(p)
            n //= p
    step = [4, 2, 4, 2, 4, 6, 2, 6]
    d, i = 7, 0
    while d * d <= n:
        while n % d == 0:
            out.append(d)
            n //= d
        d += step[i]
        i = (i + 1) % 8
    if n > 1:
        out.append(n)
    return out


if __name__ == "__main__":
    n = int(sys.argv[1])
    factors = prime_factors(n)
    print(f"factors: {factors}")
    print(f"distinct: {len(set(factors))}")
