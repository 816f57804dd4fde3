"""What the games' `stats` modules share for their tables (domain/ruleset.py StatisticsHooks):
the column descriptions, ratios of counts, and the Wilson score interval, which the server's
own tables (projections/statmath.py) use as well."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) when there are no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    # Rounding may put a bound a hair past the proportion itself (5.6e-17 above 0 wins): the
    # interval always holds p, and 0 or 1 exactly at an all-or-nothing count.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def column(id: str, label: str, kind: str, description: str) -> dict[str, str]:
    """One column of a game's table: its id (the row's key), heading, kind and meaning."""
    return {"id": id, "label": label, "kind": kind, "description": description}


INTERVAL_COLUMNS = (
    column("ci_low", "95% low", "ratio", "the low end of the win rate's 95% Wilson interval"),
    column("ci_high", "95% high", "ratio", "the high end of the win rate's 95% Wilson interval"),
)
"""The two columns of a win rate's 95% Wilson interval (`wilson_interval`)."""


def ratio(part: int, whole: int) -> float | None:
    """`part / whole`, or None (no value) when `whole` is 0."""
    return part / whole if whole else None
