"""Wilson intervals and the chi-square test against values worked out by hand and in tables."""

from __future__ import annotations

import math

import pytest

from projections.statmath import chi_square_p_value, chi_square_uniform, upper_gamma_q, wilson_interval


def test_the_wilson_interval_of_7_wins_in_10_is_0_397_to_0_892() -> None:
    # p = 0.7, z = 1.96: centre (0.7 + 0.19208) / 1.38415 = 0.64450,
    # half 1.96 * sqrt(0.021 + 0.0009604) / 1.38415 = 0.24774
    low, high = wilson_interval(7, 10)
    assert low == pytest.approx(0.39678, abs=1e-4)
    assert high == pytest.approx(0.89221, abs=1e-4)


def test_the_wilson_interval_stays_inside_0_and_1() -> None:
    assert wilson_interval(0, 5)[0] == 0.0
    assert wilson_interval(5, 5)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("statistic", "dof", "p"),
    [
        (3.841, 1, 0.05),
        (5.991, 2, 0.05),
        (11.070, 5, 0.05),
        (15.086, 5, 0.01),
        (0.0, 3, 1.0),
        (2.0, 2, math.exp(-1)),
    ],
)
def test_chi_square_p_values_match_the_printed_tables(statistic: float, dof: int, p: float) -> None:
    assert chi_square_p_value(statistic, dof) == pytest.approx(p, abs=2e-4)


def test_the_upper_gamma_of_a_1_is_the_exponential_tail() -> None:
    for x in (0.1, 1.0, 2.5, 10.0, 40.0):
        assert upper_gamma_q(1.0, x) == pytest.approx(math.exp(-x), rel=1e-9)


def test_a_die_rolled_60_times_is_tested_against_10_per_face() -> None:
    # counts 5 10 15 10 10 10: (25 + 0 + 25 + 0 + 0 + 0) / 10 = 5.0 with 5 degrees of freedom
    statistic, dof, p = chi_square_uniform([5, 10, 15, 10, 10, 10])
    assert statistic == pytest.approx(5.0)
    assert dof == 5
    assert p == pytest.approx(0.4159, abs=1e-4)


def test_no_rolls_is_no_evidence() -> None:
    assert chi_square_uniform([0, 0]) == (0.0, 0, 1.0)


def test_the_wilson_interval_holds_its_proportion_exactly_at_none_and_all() -> None:
    from domain.games.dynasties.stats import wilson_interval as domain_wilson

    for trials in range(1, 60):
        for interval in (wilson_interval, domain_wilson):
            assert interval(0, trials)[0] == 0.0 and interval(trials, trials)[1] == 1.0
            for wins in range(trials + 1):
                low, high = interval(wins, trials)
                assert low <= wins / trials <= high
