"""95% intervals: Wilson's for a proportion, and a large-sample one for Cohen's kappa."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (low, high) of ``successes`` out of ``n``; (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def kappa_interval(ss: int, sc: int, cs: int, cc: int, z: float = Z95) -> tuple[float, float] | None:
    """A 95% interval for Cohen's kappa of a 2x2 table, clipped to [-1, 1]; None when undefined.

    Cohen's (1960) large-sample standard error, ``sqrt(po (1 - po) / (n (1 - pe)^2))``: simple and
    deterministic; it is too narrow for a few dozen items, which the report says beside it. None
    when the table is empty or chance agreement is 1 (kappa is then set, not estimated).
    """
    n = ss + sc + cs + cc
    if n == 0:
        return None
    po = (ss + cc) / n
    a, b = (ss + sc) / n, (ss + cs) / n
    pe = a * b + (1 - a) * (1 - b)
    if pe >= 1.0:
        return None
    kappa = (po - pe) / (1 - pe)
    se = math.sqrt(po * (1 - po) / (n * (1 - pe) ** 2))
    return max(-1.0, kappa - z * se), min(1.0, kappa + z * se)
