"""Setup of a game with Empires (dominion.md 1.5-1.9, 6.3) and the Empires turn actions that
belong to no one card: paying off debt, the Treasure window, piles named by their top card."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from msgspec.structs import replace

from domain.games.dominion import RULESET
from domain.games.dominion.actions import ChooseKingdom
from domain.games.dominion.data import DATA
from domain.games.dominion.events import Bought, LandscapesSetUp
from domain.games.dominion.turns import game_over
from domain.ruleset import PUBLIC
from tests.unit.dominion.scenarios import Game, config, table

EMPIRES_KINGDOM = [
    "Archive",
    "Castles",
    "Catapult/Rocks",
    "City Quarter",
    "Engineer",
    "Farmers' Market",
    "Gardens",
    "Patrician/Emporium",
    "Remodel",
    "Village",
]


def _random(game_id: str, players: int = 2, **options: Any) -> Game:
    return Game(config(players, game_id=game_id, expansions="base,empires", **options))


def test_a_random_empires_kingdom_takes_ten_of_the_49_piles_and_at_most_two_landscapes() -> None:
    seen: Counter[str] = Counter()
    for k in range(40):
        state = _random(f"mixed-{k}").state
        assert len(set(state.kingdom)) == 10
        assert set(state.kingdom) <= set(DATA.randomizers("base,empires"))
        assert len(state.events) + len(state.landmarks) <= 2
        seen.update(state.kingdom)
        seen.update(state.events + state.landmarks)
    assert any(p in DATA.empires_piles for p in seen) and any(p in DATA.kingdom for p in seen)
    assert any(x in DATA.events for x in seen) and any(x in DATA.landmarks for x in seen)


def test_the_same_seed_deals_the_same_empires_kingdom() -> None:
    a, b = _random("same"), _random("same")
    assert (a.state.kingdom, a.state.events, a.state.landmarks) == (
        b.state.kingdom,
        b.state.events,
        b.state.landmarks,
    )


def test_separate_landscapes_draw_exactly_the_configured_number() -> None:
    for k in range(10):
        state = _random(f"apart-{k}", landscapes="separate", landscape_count=3).state
        assert len(state.events) + len(state.landmarks) == 3


def test_a_base_game_draws_its_kingdom_from_the_base_piles_alone() -> None:
    for k in range(10):
        state = Game(config(2, game_id=f"base-{k}")).state
        assert set(state.kingdom) <= set(DATA.kingdom)
        assert state.events == () and state.landmarks == ()


def test_split_piles_hold_five_cheap_cards_on_five_dear_ones() -> None:
    game = table(kingdom=EMPIRES_KINGDOM)
    assert game.state.supply["Catapult/Rocks"] == ("Catapult",) * 5 + ("Rocks",) * 5
    assert game.state.supply["Patrician/Emporium"][:1] == ("Patrician",)


def test_the_castle_pile_is_sorted_by_cost_with_8_castles_for_two_players_and_12_for_more() -> None:
    two = table(kingdom=EMPIRES_KINGDOM).state.supply["Castles"]
    three = table(players=3, kingdom=EMPIRES_KINGDOM).state.supply["Castles"]
    assert two[0] == "Humble Castle" and two[-1] == "King's Castle" and len(two) == 8
    assert len(three) == 12 and three.count("Small Castle") == 2
    costs = [DATA.cost[c][0] for c in three]
    assert costs == sorted(costs)


def test_the_basic_intro_preset_plays_with_wedding_and_tower() -> None:
    game = Game(config(2, kingdom="basic_intro"))
    assert game.state.events == ("Wedding",) and game.state.landmarks == ("Tower",)
    assert "Castles" in game.state.kingdom and "Patrician/Emporium" in game.state.kingdom


def test_the_advanced_intro_preset_puts_6_vp_per_player_on_arena() -> None:
    game = Game(config(3, kingdom="advanced_intro"))
    assert game.state.landmarks == ("Arena", "Triumphal Arch")
    assert game.state.landmark_vp == {"Arena": 18}


def test_aqueduct_puts_8_vp_on_the_silver_and_gold_piles() -> None:
    game = table(kingdom=EMPIRES_KINGDOM, landscapes=["Aqueduct"])
    assert game.state.pile_vp == {"Silver": 8, "Gold": 8}
    assert game.state.landmark_vp == {"Aqueduct": 0}


def test_defiled_shrine_puts_2_vp_on_each_non_gathering_action_pile() -> None:
    game = table(kingdom=EMPIRES_KINGDOM, landscapes=["Defiled Shrine"])
    assert set(game.state.pile_vp) == {
        "Archive",
        "Catapult/Rocks",
        "City Quarter",
        "Engineer",
        "Patrician/Emporium",
        "Remodel",
        "Village",
    }
    assert set(game.state.pile_vp.values()) == {2}


def test_tax_puts_one_debt_on_all_17_supply_piles() -> None:
    game = table(kingdom=EMPIRES_KINGDOM, landscapes=["Tax"])
    assert len(game.state.pile_debt) == 17 and set(game.state.pile_debt.values()) == {1}


def test_obelisk_draws_its_action_pile_from_the_seed() -> None:
    game = Game(config(2, game_id="obelisk", kingdom="manual", expansions="base,empires"))
    game.do(None, ChooseKingdom(tuple(EMPIRES_KINGDOM), ("Obelisk",)), by="recorder")
    setup = next(f for f in game.facts if isinstance(f, LandscapesSetUp))
    eligible = sorted(p for p in EMPIRES_KINGDOM if "Action" in DATA.pile_types[p])
    assert setup.obelisk in eligible and setup.stream == "obelisk" and setup.faces == len(eligible)
    assert "Castles" not in eligible and "Gardens" not in eligible
    again = Game(config(2, game_id="obelisk", kingdom="manual", expansions="base,empires"))
    again.do(None, ChooseKingdom(tuple(EMPIRES_KINGDOM), ("Obelisk",)), by="recorder")
    assert again.state.obelisk == game.state.obelisk


def test_a_physical_game_with_obelisk_names_the_pile_the_table_drew() -> None:
    game = Game(config(2, mode="physical", kingdom="manual", expansions="base,empires"))
    refused = game.refused(None, ChooseKingdom(tuple(EMPIRES_KINGDOM), ("Obelisk",)), by="recorder")
    assert refused.code == "obelisk_pile"
    wrong = game.refused(None, ChooseKingdom(tuple(EMPIRES_KINGDOM), ("Obelisk",), "Castles"), by="recorder")
    assert wrong.code == "obelisk_pile"
    game.do(None, "kingdom " + ", ".join(EMPIRES_KINGDOM) + "; Obelisk; obelisk Engineer", by="recorder")
    assert game.state.obelisk == "Engineer"


def test_a_manual_kingdom_refuses_unknown_landscapes_and_landscapes_without_empires() -> None:
    game = Game(config(2, kingdom="manual", expansions="base,empires"))
    assert game.refused(None, ChooseKingdom(tuple(EMPIRES_KINGDOM), ("Bogus",)), by="recorder").code == (
        "unknown_landscape"
    )
    base = Game(config(2, kingdom="manual"))
    first_game = tuple(DATA.presets["first_game"])
    assert base.refused(None, ChooseKingdom(first_game, ("Tax",)), by="recorder").code == ("no_landscapes")
    assert (
        base.refused(None, ChooseKingdom((*first_game[:9], "Archive")), by="recorder").code == "unknown_pile"
    )


def test_a_split_pile_is_bought_by_its_top_card_and_not_by_the_card_under_it() -> None:
    game = table(kingdom=EMPIRES_KINGDOM, phase="buy", coins=5, buys=2)
    assert game.refused("p1", "buy Emporium").code == "not_on_top"
    game.do("p1", "buy Patrician")
    assert game.player("p1").discard[-1] == "Patrician"
    game.do("p1", "buy Patrician/Emporium")
    assert game.pile("Patrician/Emporium") == 8


def test_a_split_pile_is_empty_only_when_both_halves_are_gone() -> None:
    game = table(kingdom=EMPIRES_KINGDOM, supply={"Patrician/Emporium": ["Emporium"] * 5})
    assert game_over(replace(game.state, supply={**game.state.supply, "Curse": (), "Village": ()})) is None
    emptied = {**game.state.supply, "Curse": (), "Village": (), "Patrician/Emporium": ()}
    assert game_over(replace(game.state, supply=emptied)) == "piles_empty"


def test_paying_off_debt_is_its_own_action_and_is_logged() -> None:
    game = table(kingdom=EMPIRES_KINGDOM, phase="buy", coins=4, zones={"p1": {"debt": 6}})
    game.do("p1", "pay 3")
    assert (game.player("p1").debt, game.state.coins) == (3, 1)
    assert game.lines()[-1] == "Ann pays off 3 debt."
    assert game.refused("p1", "pay 2").code == "cannot_pay"


def test_a_buy_while_in_debt_is_rejected_with_the_rule() -> None:
    game = table(kingdom=EMPIRES_KINGDOM, phase="buy", coins=4, zones={"p1": {"debt": 1}})
    refused = game.refused("p1", "buy Copper")
    assert (refused.code, refused.rule) == ("in_debt", "dominion 4.2")
    assert "debt" in refused.message


def test_debt_is_paid_only_in_the_buy_phase_unless_pay_debt_any_time() -> None:
    zones = {"p1": {"debt": 2}}
    game = table(kingdom=EMPIRES_KINGDOM, coins=2, zones=zones)
    assert game.refused("p1", "pay 1").code == "wrong_phase"
    anytime = table(kingdom=EMPIRES_KINGDOM, coins=2, zones=zones, pay_debt_any_time=True)
    anytime.do("p1", "pay 2")
    assert anytime.player("p1").debt == 0
    assert "pay 1" in table(kingdom=EMPIRES_KINGDOM, coins=1, zones=zones, pay_debt_any_time=True).legal("p1")


def test_a_buy_phase_begun_after_buying_reopens_the_treasure_window_unless_locked_for_the_turn() -> None:
    for locked in (False, True):
        game = table(kingdom=EMPIRES_KINGDOM, treasures_locked_for_whole_turn=locked)
        game.state = replace(game.state, bought=True)
        game.do("p1", "end")
        assert game.state.window is not locked


def test_remodel_may_gain_a_debt_card_up_to_the_trashed_cards_debt_unless_the_variant_forbids_it() -> None:
    zones = {"p1": {"hand": ["Remodel", "Engineer", "Copper"]}}
    game = table(kingdom=EMPIRES_KINGDOM, zones=zones)
    game.do("p1", "play Remodel")
    game.do("p1", "trash Engineer")
    assert "gain Engineer" in game.legal("p1")
    strict = table(kingdom=EMPIRES_KINGDOM, zones=zones, relative_gain_requires_zero_debt=True)
    strict.do("p1", "play Remodel")
    strict.do("p1", "trash Engineer")
    assert "gain Engineer" not in strict.legal("p1")
    assert strict.refused("p1", "gain Engineer").code == "not_eligible"


def test_the_view_shows_landscapes_and_their_tokens_to_everyone() -> None:
    game = table(kingdom=EMPIRES_KINGDOM, landscapes=["Aqueduct", "Tax", "Basilica"])
    view = RULESET.view(game.state, PUBLIC)
    assert view["events"] == ["Tax"] and view["landmarks"] == ["Aqueduct", "Basilica"]
    assert view["landmark_vp"] == {"Aqueduct": 0, "Basilica": 12}
    assert view["pile_vp"] == {"Silver": 8, "Gold": 8} and view["pile_debt"]["Province"] == 1


def test_five_or_six_players_need_the_variant_players_5_6() -> None:
    refused = RULESET.check_config(config(5))
    assert refused is not None and refused.code == "players_5_6" and refused.rule == "dominion 1.3"
    assert RULESET.check_config(config(6, players_5_6=True)) is None
    assert RULESET.check_config(config(4)) is None


def test_six_players_play_with_two_sets_of_basic_cards() -> None:
    supply = Game(config(6, players_5_6=True)).state.supply
    sizes = {
        name: len(supply[name])
        for name in ("Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse")
    }
    assert sizes == {
        "Copper": 120 - 42,
        "Silver": 80,
        "Gold": 60,
        "Estate": 12,
        "Duchy": 12,
        "Province": 18,
        "Curse": 50,
    }
    assert len(Game(config(5, players_5_6=True)).state.supply["Province"]) == 15


def test_five_players_need_four_empty_piles_and_get_30_vp_on_a_token_landmark() -> None:
    game = table(players=5, kingdom=EMPIRES_KINGDOM, landscapes=["Basilica"], players_5_6=True)
    assert game.state.landmark_vp == {"Basilica": 30}
    assert len(game.state.supply["Castles"]) == 12
    three = {**game.state.supply, "Curse": (), "Village": (), "Engineer": ()}
    assert game_over(replace(game.state, supply=three)) is None
    assert game_over(replace(game.state, supply={**three, "Archive": ()})) == "piles_empty"


def test_a_random_setup_leaves_out_what_the_table_excludes() -> None:
    excluded = "Donate,Tax,Castles,Village"
    for k in range(15):
        state = _random(f"exclude-{k}", exclude=excluded).state
        assert not {"Castles", "Village"} & set(state.kingdom)
        assert not {"Donate", "Tax"} & set(state.events)


def test_exclusions_must_be_known_and_leave_ten_piles() -> None:
    unknown = RULESET.check_config(config(2, exclude="Bogus"))
    assert unknown is not None and unknown.code == "bad_exclude"
    base = ",".join(DATA.kingdom[:16])
    too_many = RULESET.check_config(config(2, exclude=base))
    assert too_many is not None and too_many.code == "bad_exclude"
    assert RULESET.check_config(config(2, exclude=",".join(DATA.kingdom[:15]))) is None


@pytest.mark.parametrize("preset", ["basic_intro", "advanced_intro"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_recommended_empires_sets_play_to_the_end(preset: str, players: int) -> None:
    game = Game(config(players, game_id=f"{preset}-{players}", kingdom=preset))
    bot = random.Random(f"{preset}-{players}")
    steps = 0
    while RULESET.outcome(game.state) is None:
        seat = bot.choice(RULESET.pending(game.state)).seat
        legal = RULESET.legal_actions(game.state, seat)
        game.do(seat, RULESET.bot_choose(game.state, seat, legal, bot.randrange), by="recorder")
        steps += 1
        assert steps < 5_000, "the game did not end"
    outcome = RULESET.outcome(game.state)
    assert outcome is not None and outcome.winners
    assert any(
        isinstance(f, Bought) and f.card in DATA.home and DATA.home[f.card] in DATA.empires_piles
        for f in game.facts
    )
