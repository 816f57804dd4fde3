"""The arithmetic of the statistics: Wilson score intervals (domain/stat_tables.py, which the
games' tables use too) and Pearson's chi-square test of dice against fair dice, in plain Python.

The chi-square p-value is the regularized upper incomplete gamma function Q(k/2, x/2), by its
power series below a+1 and by its continued fraction (modified Lentz) above.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from domain.stat_tables import Z95, wilson_interval

__all__ = ["Z95", "chi_square_p_value", "chi_square_uniform", "upper_gamma_q", "wilson_interval"]


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its series (x < a + 1)."""
    term = total = 1.0 / a
    denominator = a
    for _ in range(10_000):
        denominator += 1
        term *= x / denominator
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (x >= a + 1)."""
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def upper_gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 1.0
    if x < a + 1:
        return max(0.0, 1.0 - _lower_series(a, x))
    return min(1.0, _upper_fraction(a, x))


def chi_square_p_value(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square distributed with `dof` degrees of freedom."""
    return upper_gamma_q(dof / 2, statistic / 2)


def chi_square_uniform(counts: Sequence[int]) -> tuple[float, int, float]:
    """Pearson's test of face counts against a fair die: (statistic, degrees of freedom,
    p-value). No rolls, or a one-faced die, gives (0, 0, 1)."""
    total = sum(counts)
    faces = len(counts)
    if total == 0 or faces < 2:
        return (0.0, 0, 1.0)
    expected = total / faces
    statistic = sum((c - expected) ** 2 for c in counts) / expected
    return (statistic, faces - 1, chi_square_p_value(statistic, faces - 1))
