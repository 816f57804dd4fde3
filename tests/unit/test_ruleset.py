"""Variant options are declared with defaults and validated when a game is created."""

from __future__ import annotations

import pytest

from domain.ruleset import Rejection, RulesetMeta, VariantOption, Viewer, resolve_options

META = RulesetMeta(
    id="example",
    version="1",
    title="Example",
    seat_ids=("A", "B"),
    min_players=2,
    max_players=2,
    options=(
        VariantOption("coin_supply_total", 28, "coins in the bank", minimum=10, maximum=99),
        VariantOption("end_check", "end_of_turn", "when the game ends", choices=("end_of_turn", "immediate")),
        VariantOption("labor_carryover", False, "labor kept between turns"),
    ),
    hidden_information=False,
    chance=True,
    spec="example.md 9",
)


def test_defaults_fill_every_option_not_given() -> None:
    assert resolve_options(META, {"end_check": "immediate"}) == {
        "coin_supply_total": 28,
        "end_check": "immediate",
        "labor_carryover": False,
    }


@pytest.mark.parametrize(
    ("given", "code"),
    [
        ({"no_such_option": 1}, "unknown_option"),
        ({"coin_supply_total": "35"}, "invalid_option"),
        ({"coin_supply_total": 9}, "invalid_option"),
        ({"coin_supply_total": 100}, "invalid_option"),
        ({"end_check": "whenever"}, "invalid_option"),
        ({"labor_carryover": 1}, "invalid_option"),
    ],
)
def test_an_option_out_of_range_is_refused_with_a_stable_code(given: dict[str, object], code: str) -> None:
    result = resolve_options(META, given)
    assert isinstance(result, Rejection) and result.code == code


def test_viewers_parse_from_their_names() -> None:
    assert Viewer.parse("player:A") == Viewer("seat", "A")
    assert str(Viewer.parse("public")) == "public"
    assert Viewer.parse("omniscient").sees_seat("B")
    with pytest.raises(ValueError):
        Viewer.parse("player:")
