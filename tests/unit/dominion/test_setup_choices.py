"""Dominion's `setup_choices` hook (domain/games/dominion/setup_choices.py): what a New game form
offers for a game's options is what the engine itself takes: the presets `check_config` accepts
for those sets and that edition, every pile a `manual` kingdom may name, and with Empires its
Events and Landmarks, each with its cost and types from the card data."""

from __future__ import annotations

from typing import Any

from domain.games.dominion import RULESET
from domain.games.dominion.data import DATA
from domain.ruleset import GameConfig, Seat, get_ruleset, resolve_options, setup_choices


def _kingdom(**given: Any) -> dict[str, Any]:
    options = resolve_options(RULESET.meta, given)
    assert isinstance(options, dict)
    choices = setup_choices(RULESET, options)
    assert set(choices) == {"kingdom"}
    kingdom: dict[str, Any] = choices["kingdom"]
    return kingdom


def _creatable(preset: str, **given: Any) -> bool:
    seats = (Seat("p1", "Ann"), Seat("p2", "Ben"))
    config = GameConfig("g", "dominion", "digital", seats, {**given, "kingdom": preset})
    return RULESET.check_config(config) is None


def test_the_first_edition_base_game_offers_its_five_presets_and_all_32_base_piles() -> None:
    kingdom = _kingdom()
    assert kingdom["size"] == 10 and kingdom["landscapes"] == []
    names = [p["name"] for p in kingdom["presets"]]
    assert names == ["big_money", "first_game", "interaction", "size_distortion", "village_square"]
    assert all(_creatable(name) for name in names)
    first = next(p for p in kingdom["presets"] if p["name"] == "first_game")
    assert first["piles"] == list(DATA.presets["first_game"]) and first["landscapes"] == []
    piles = {p["name"]: p for p in kingdom["piles"]}
    assert set(piles) == set(DATA.base_all) and len(piles) == 32
    assert piles["Witch"] == {
        "name": "Witch",
        "cost": 5,
        "debt": 0,
        "types": ["Action", "Attack"],
        "set": "base",
        "random": True,
    }
    # a 2nd-edition card may be named in a 1st-edition game, but is never drawn at random in one
    assert piles["Artisan"]["set"] == "base 2nd edition" and not piles["Artisan"]["random"]
    assert piles["Feast"]["set"] == "base 1st edition" and piles["Feast"]["random"]
    costs = [p["cost"] for p in kingdom["piles"]]
    assert costs == sorted(costs)  # cheapest first


SIX_2E = ["deck_top", "first_game", "improvements", "silver_and_silver", "size_distortion", "sleight_of_hand"]


def test_the_2nd_edition_offers_its_six_presets_and_no_1st_edition_one() -> None:
    alone = _kingdom(base_edition=2)
    assert [p["name"] for p in alone["presets"]] == SIX_2E
    assert all(_creatable(name, base_edition=2) for name in SIX_2E)
    removed = set(DATA.raw.removed_in_2e)
    for preset in alone["presets"]:
        # the 2016 sets: no removed card, first_game and size_distortion no longer the 2008 ones
        assert preset["piles"] == list(DATA.presets_2e[preset["name"]]) and preset["landscapes"] == []
        assert len(set(preset["piles"])) == 10 and not set(preset["piles"]) & removed
    first = next(p for p in alone["presets"] if p["name"] == "first_game")
    assert "Merchant" in first["piles"] and "Woodcutter" not in first["piles"]
    first_edition_only = ("big_money", "interaction", "village_square")
    assert not any(_creatable(name, base_edition=2) for name in first_edition_only)
    # and the 1st edition is offered none of the 2nd edition's own names
    assert not {p["name"] for p in _kingdom()["presets"]} & {"deck_top", "improvements"}
    assert not _creatable("deck_top")


def test_the_2nd_edition_with_empires_adds_its_presets_and_its_landscapes() -> None:
    alone = _kingdom(base_edition=2)
    assert not next(p for p in alone["piles"] if p["name"] == "Feast")["random"]
    empires = _kingdom(base_edition=2, expansions="base,empires")
    names = [p["name"] for p in empires["presets"]]
    assert names == sorted([*SIX_2E, "advanced_intro", "basic_intro"])
    assert all(_creatable(name, base_edition=2, expansions="base,empires") for name in names)
    basic = next(p for p in empires["presets"] if p["name"] == "basic_intro")
    assert basic["landscapes"] == ["Wedding", "Tower"]
    piles = {p["name"]: p for p in empires["piles"]}
    assert len(piles) == 32 + 24
    assert piles["Engineer"]["cost"] == 0 and piles["Engineer"]["debt"] == 4
    assert piles["Castles"]["types"] == ["Castle", "Victory"]
    assert piles["Patrician/Emporium"]["cost"] == 2  # a split pile shows its top card
    scapes = {s["name"]: s for s in empires["landscapes"]}
    assert len(scapes) == 34
    assert scapes["Wedding"] == {"name": "Wedding", "kind": "Event", "cost": 4, "debt": 3}
    assert scapes["Tower"] == {"name": "Tower", "kind": "Landmark", "cost": None, "debt": None}


def test_a_ruleset_without_the_hook_offers_nothing() -> None:
    province = get_ruleset("province")
    assert province is not None and not hasattr(province, "setup_choices")
    options = resolve_options(province.meta, {})
    assert isinstance(options, dict)
    assert setup_choices(province, options) == {}
