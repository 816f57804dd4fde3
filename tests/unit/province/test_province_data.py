"""Loading and validating the rules data file (province.md section 10)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from domain.games.province.data import DATA, RulesDataError, load_packaged, parse_rules_data

Raw = dict[str, Any]


def raw() -> Raw:
    from importlib import resources

    text = resources.files("domain.games.province").joinpath("ks2014-v1.json").read_text()
    loaded: Raw = json.loads(text)
    return loaded


def building(data: Raw, building_id: str) -> Raw:
    found: Raw = next(b for b in data["buildings"] if b["id"] == building_id)
    return found


def test_the_packaged_file_loads_every_value_of_section_10() -> None:
    data = load_packaged()
    assert data == DATA
    assert data.version == "province-ks2014-v1"
    assert [b.id for b in data.buildings] == [
        "lender",
        "bank",
        "camp",
        "village",
        "mill",
        "smithy",
        "union",
        "harbor",
    ]
    camp = next(b for b in data.buildings if b.id == "camp")
    assert (camp.cost_labor, camp.cost_coins, camp.vp, camp.requires, camp.effect) == (
        2,
        3,
        1,
        (),
        "worker:camp",
    )
    assert [(s.id, s.resource, s.next) for s in data.spaces] == [
        ("top", "coin", "right"),
        ("right", "labor", "left"),
        ("left", "labor", "top"),
    ]
    assert (data.coin_supply_total, data.start_coins_first, data.start_coins_second, data.goals_in_play) == (
        28,
        2,
        3,
        5,
    )
    assert (data.grind.labor, data.grind.coins, data.union.coins, data.union.labor) == (2, 1, 2, 1)
    assert [g.id for g in data.pool("ks5")] == ["workers2", "labor5", "buildings4", "coins5", "twovp2"]


def _cycle_in_requires(data: Raw) -> None:
    building(data, "lender")["requires"]["value"] = ["bank"]


def _unknown_effect(data: Raw) -> None:
    building(data, "mill")["effect"]["value"] = "double_labor"


def _two_space_cycle(data: Raw) -> None:
    data["work_cycle"]["spaces"] = data["work_cycle"]["spaces"][:2]
    data["work_cycle"]["spaces"][1]["next"] = "top"


def _broken_loop(data: Raw) -> None:
    data["work_cycle"]["spaces"][0]["next"] = "left"  # top -> left -> top, right is left out


def _unknown_requirement(data: Raw) -> None:
    building(data, "bank")["requires"]["value"] = ["castle"]


def _duplicate_id(data: Raw) -> None:
    building(data, "harbor")["id"] = "union"


def _seven_buildings(data: Raw) -> None:
    data["buildings"].pop()


def _two_harbors(data: Raw) -> None:
    building(data, "union")["effect"]["value"] = "harbor"


def _unknown_condition(data: Raw) -> None:
    data["goal_pools"]["ks5"][0]["condition"]["type"] = "is_lucky"


def _unknown_placement(data: Raw) -> None:
    data["work_cycle"]["placement_space"]["value"] = "centre"


def _missing_constant(data: Raw) -> None:
    del data["constants"]["sailor_cost"]


@pytest.mark.parametrize(
    ("spoil", "check"),
    [
        (_cycle_in_requires, "requires_acyclic"),
        (_unknown_effect, "effect_keys"),
        (_two_space_cycle, "cycle_length"),
        (_broken_loop, "cycle_loop"),
        (_unknown_requirement, "requires_known"),
        (_duplicate_id, "unique_building_ids"),
        (_seven_buildings, "building_count"),
        (_two_harbors, "single_effect_holder"),
        (_unknown_condition, "condition_types"),
        (_unknown_placement, "placement_space"),
        (_missing_constant, "schema"),
    ],
)
def test_a_bad_rules_data_file_is_refused_naming_the_failed_check(
    spoil: Callable[[Raw], None], check: str
) -> None:
    data = raw()
    spoil(data)
    with pytest.raises(RulesDataError, match=rf"\[{check}\]"):
        parse_rules_data(json.dumps(data).encode())


def test_a_prerequisite_cycle_is_named_in_the_error() -> None:
    data = raw()
    _cycle_in_requires(data)
    with pytest.raises(RulesDataError, match=r"lender -> bank -> lender|bank -> lender -> bank"):
        parse_rules_data(json.dumps(data).encode())
