"""The Empires Action cards (dominion.md 5.3) and the worked examples S5, S8, S9, S10, S11,
S14 and S16 of section 9."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games.dominion.engine import ON_TRASH
from tests.unit.dominion.scenarios import Game, table

KINGDOM = [
    "City Quarter",
    "Catapult/Rocks",
    "Chariot Race",
    "Encampment/Plunder",
    "Engineer",
    "Farmers' Market",
    "Forum",
    "Gladiator/Fortune",
    "Groundskeeper",
    "Legionary",
]
MORE = [
    "Patrician/Emporium",
    "Royal Blacksmith",
    "Sacrifice",
    "Settlers/Bustling Village",
    "Temple",
    "Wild Hunt",
    "Throne Room",
    "Remodel",
    "Workshop",
    "Village",
]
S8 = [
    "Remodel",
    "Engineer",
    "City Quarter",
    "Patrician/Emporium",
    "Village",
    "Workshop",
    "Throne Room",
    "Temple",
    "Sacrifice",
    "Castles",
]


def turn_of(game: Game, seat: str, **fields: object) -> None:
    """Hand the turn to `seat` with the given counters (a later turn of the example)."""
    state = game.state
    window = fields.get("phase") == "buy"
    game.state = replace(state, current=state.index(seat), window=window, **fields)


def gladiator_pile() -> list[str]:
    return ["Gladiator"] * 4 + ["Fortune"] * 5


# --- S5 Gladiator -------------------------------------------------------------------------------


def gladiator_table(pile: list[str], p2_hand: list[str], p2_deck: list[str] | None = None) -> Game:
    p2: dict[str, Any] = {"hand": p2_hand} | ({"deck": p2_deck} if p2_deck is not None else {})
    return table(
        kingdom=KINGDOM,
        landscapes=["Tomb"],
        supply={"Gladiator/Fortune": pile},
        zones={"p1": {"hand": ["Gladiator", "Estate", "Copper", "Copper", "Silver"], "vp": 0}, "p2": p2},
    )


def test_s5a_an_unmatched_gladiator_gives_three_coins_and_trashes_the_top_gladiator_for_tomb() -> None:
    # P2 owns no Estate at all, so everyone can tell P2 has no copy: the decline is automatic.
    game = gladiator_table(
        gladiator_pile(), ["Copper", "Copper", "Copper", "Silver", "Smithy"], ["Copper"] * 5
    )
    game.do("p1", "play Gladiator")
    assert (game.state.actions, game.state.coins) == (0, 2)
    assert game.prompts() == [("p1", "gladiator")]
    game.do("p1", "reveal Estate")
    assert game.state.coins == 3
    assert game.state.supply["Gladiator/Fortune"] == ("Gladiator",) * 3 + ("Fortune",) * 5
    assert game.state.trash[-1] == "Gladiator"
    assert "Tomb" in ON_TRASH
    assert game.player("p1").vp == 1
    assert "Bob chooses no copy (Gladiator)." in game.lines()


def test_s5b_a_revealed_copy_leaves_only_the_two_coins_and_trashes_nothing() -> None:
    game = gladiator_table(gladiator_pile(), ["Copper", "Copper", "Copper", "Silver", "Smithy"])
    game.do("p1", "play Gladiator")
    game.do("p1", "reveal Copper")
    assert game.prompts() == [("p2", "gladiator_copy")]
    game.do("p2", "reveal Copper")
    assert game.state.coins == 2
    assert len(game.state.supply["Gladiator/Fortune"]) == 9
    assert game.state.trash == ()
    assert game.player("p1").vp == 0


def test_s5c_a_declined_copy_gives_three_coins_but_a_fortune_on_top_is_not_trashed() -> None:
    game = gladiator_table(["Fortune"] * 5, ["Copper", "Copper", "Copper", "Silver", "Smithy"])
    game.do("p1", "play Gladiator")
    game.do("p1", "reveal Copper")
    game.do("p2", "reveal nothing")
    assert game.state.coins == 3
    assert game.state.supply["Gladiator/Fortune"] == ("Fortune",) * 5
    assert game.state.trash == ()
    assert game.player("p1").vp == 0


def test_gladiator_with_an_empty_hand_gives_three_coins() -> None:
    game = table(
        kingdom=KINGDOM, supply={"Gladiator/Fortune": gladiator_pile()}, zones={"p1": {"hand": ["Gladiator"]}}
    )
    game.do("p1", "play Gladiator")
    assert game.state.coins == 3
    assert len(game.state.supply["Gladiator/Fortune"]) == 8


# --- S8 Remodel and debt costs; Engineer ------------------------------------------------------


def test_s8_remodel_trashing_engineer_may_gain_a_card_up_to_two_coins_and_four_debt() -> None:
    game = table(kingdom=S8, zones={"p1": {"hand": ["Remodel", "Engineer", "Copper"]}})
    game.do("p1", "play Remodel")
    assert game.state.actions == 0
    game.do("p1", "trash Engineer")
    assert game.refused("p1", "gain City Quarter").code == "not_eligible"
    assert game.refused("p1", "gain Silver").code == "not_eligible"
    assert sorted(game.legal("p1")) == [
        "gain Copper",
        "gain Curse",
        "gain Engineer",
        "gain Estate",
        "gain Patrician/Emporium",
    ]
    before = game.pile("Engineer")
    game.do("p1", "gain Engineer")
    assert game.state.trash == ("Engineer",)
    assert game.player("p1").discard[-1] == "Engineer"
    assert game.pile("Engineer") == before - 1


def test_s8_workshop_cannot_gain_an_engineer() -> None:
    game = table(kingdom=S8, zones={"p1": {"hand": ["Workshop"]}})
    game.do("p1", "play Workshop")
    assert game.refused("p1", "gain Engineer").code == "not_eligible"


def test_engineer_gains_a_card_then_may_trash_itself_to_gain_another() -> None:
    game = table(kingdom=S8, zones={"p1": {"hand": ["Engineer"], "discard": []}})
    game.do("p1", "play Engineer")
    assert game.refused("p1", "gain Engineer").code == "not_eligible"
    game.do("p1", "gain Silver")
    assert game.prompts() == [("p1", "engineer")]
    game.do("p1", "choose trash_this")
    game.do("p1", "gain Village")
    p1 = game.player("p1")
    assert p1.discard == ("Silver", "Village")
    assert p1.play == ()
    assert game.state.trash == ("Engineer",)


def test_engineer_kept_stays_in_play_and_gains_once() -> None:
    game = table(kingdom=S8, zones={"p1": {"hand": ["Engineer"], "discard": []}})
    game.do("p1", "play Engineer")
    game.do("p1", "gain Silver")
    game.do("p1", "choose keep")
    assert game.player("p1").play == ("Engineer",)
    assert game.prompts() == [("p1", "turn")]


# --- S9 Encampment ----------------------------------------------------------------------------


def test_s9_encampment_returns_on_top_of_its_pile_and_covers_plunder() -> None:
    game = table(
        kingdom=KINGDOM,
        supply={"Encampment/Plunder": ["Plunder"] * 5},
        zones={
            "p1": {
                "hand": ["Encampment", "Copper", "Estate", "Silver", "Estate"],
                "deck": ["Copper", "Estate", "Gold", "Silver", "Silver", "Silver", "Silver"],
            }
        },
    )
    game.do("p1", "play Encampment")
    assert game.state.actions == 2
    # P1 holds no Gold, but owns one (in the deck): the others cannot tell, so P1 is asked and
    # declines, rather than being declined for (4.3 rule 4).
    assert game.legal("p1") == ["reveal nothing"]
    game.do("p1", "reveal nothing")
    assert game.player("p1").play == ()
    assert game.state.encamped == ("Encampment",)
    game.do("p1", "end")
    game.do("p1", "end")
    assert game.state.supply["Encampment/Plunder"] == ("Encampment",) + ("Plunder",) * 5
    assert sorted(game.player("p1").hand) == ["Gold", "Silver", "Silver", "Silver", "Silver"]
    assert game.state.current == 1
    turn_of(game, "p2", phase="buy", coins=5, buys=1)
    assert game.refused("p2", "buy Plunder").code == "not_on_top"
    game.do("p2", "buy Encampment/Plunder")
    assert game.player("p2").discard[-1] == "Encampment"
    assert game.state.coins == 3
    assert list(game.state.supply["Encampment/Plunder"]) == ["Plunder"] * 5


def test_encampment_stays_in_play_when_a_gold_is_revealed() -> None:
    game = table(
        kingdom=KINGDOM,
        zones={"p1": {"hand": ["Encampment", "Gold"], "deck": ["Copper", "Copper"]}},
    )
    game.do("p1", "play Encampment")
    game.do("p1", "reveal Gold")
    assert game.player("p1").play == ("Encampment",)
    assert game.state.encamped == ()


def test_encampment_played_twice_by_throne_room_is_set_aside_only_once() -> None:
    game = table(
        kingdom=MORE,
        zones={"p1": {"hand": ["Throne Room", "Encampment"], "deck": ["Copper"] * 4}},
    )
    game.do("p1", "play Throne Room")
    game.do("p1", "select play Encampment")
    assert game.state.encamped == ("Encampment",)
    assert game.player("p1").play == ("Throne Room",)
    assert game.state.actions == 4


# --- S10 Temple -------------------------------------------------------------------------------


def test_s10_temple_trashes_different_names_and_the_next_gainer_takes_the_pile_vp() -> None:
    game = table(
        kingdom=MORE,
        supply={"Temple": 8},
        zones={"p1": {"hand": ["Temple", "Copper", "Copper", "Estate", "Curse"], "vp": 0}},
    )
    game.state = replace(game.state, pile_vp={**game.state.pile_vp, "Temple": 2})
    game.do("p1", "play Temple")
    assert game.state.actions == 0
    assert game.player("p1").vp == 1
    assert game.refused("p1", "trash Copper, Copper").code == "same_name"
    game.do("p1", "trash Copper, Estate, Curse")
    assert game.state.pile_vp["Temple"] == 3
    turn_of(game, "p2", phase="buy", coins=4, buys=1)
    game.do("p2", "buy Temple")
    assert game.player("p1").vp == 1
    assert game.player("p1").hand == ("Copper",)
    assert game.player("p2").vp == 3
    assert game.state.pile_vp["Temple"] == 0
    assert game.pile("Temple") == 7


def test_temple_lists_only_selections_of_different_names() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Temple", "Copper", "Copper", "Estate"]}})
    game.do("p1", "play Temple")
    assert sorted(game.legal("p1")) == ["trash Copper", "trash Copper, Estate", "trash Estate"]


def test_temple_with_copies_of_one_name_trashes_one_at_once() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Temple", "Copper", "Copper"], "deck": ["Copper"] * 5}})
    game.do("p1", "play Temple")  # every card p1 might hold is a Copper: one answer, for all to see
    assert game.player("p1").hand == ("Copper",)
    assert game.state.pile_vp.get("Temple") == 1


def test_temple_with_an_empty_hand_still_adds_a_vp_to_its_pile() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Temple"]}})
    game.do("p1", "play Temple")
    assert game.player("p1").vp == 1
    assert game.state.pile_vp.get("Temple") == 1


# --- S11 Farmers' Market ----------------------------------------------------------------------


def test_s11_farmers_market_played_twice_fills_the_pile_then_takes_it_and_trashes_itself() -> None:
    kingdom = [*KINGDOM[:9], "Throne Room"]
    game = table(kingdom=kingdom, zones={"p1": {"hand": ["Throne Room", "Farmers' Market"], "vp": 0}})
    game.state = replace(game.state, pile_vp={**game.state.pile_vp, "Farmers' Market": 3})
    game.do("p1", "play Throne Room")
    game.do("p1", "select play Farmers' Market")  # asked though it is the only Action (4.3 rule 4)
    assert game.state.coins == 4
    assert game.state.buys == 3
    assert game.player("p1").vp == 4
    assert game.state.trash == ("Farmers' Market",)
    assert game.player("p1").play == ("Throne Room",)
    assert game.state.pile_vp["Farmers' Market"] == 0


def test_farmers_market_on_an_empty_pile_of_vp_gives_one_coin() -> None:
    game = table(kingdom=KINGDOM, zones={"p1": {"hand": ["Farmers' Market"]}})
    game.do("p1", "play Farmers' Market")
    assert (game.state.coins, game.state.buys) == (1, 2)
    assert game.state.pile_vp["Farmers' Market"] == 1


# --- S14 Catapult -----------------------------------------------------------------------------


def test_s14_catapult_trashing_a_silver_curses_and_makes_the_others_discard_down_to_three() -> None:
    game = table(
        players=3,
        kingdom=KINGDOM,
        supply={"Curse": 20},
        zones={
            "p1": {"hand": ["Catapult", "Silver", "Estate", "Copper", "Copper"]},
            "p2": {"hand": ["Copper", "Copper", "Estate", "Estate", "Gold"], "discard": []},
            "p3": {"hand": ["Copper", "Silver", "Estate", "Village"], "discard": []},
        },
    )
    game.do("p1", "play Catapult")
    assert (game.state.actions, game.state.coins) == (0, 1)
    game.do("p1", "trash Silver")
    assert game.pile("Curse") == 18
    assert sorted(game.prompts()) == [("p2", "discard"), ("p3", "discard")]
    game.do("p2", "discard Estate, Estate")
    assert game.player("p2").hand == ("Copper", "Copper", "Gold")
    game.do("p3", "discard Estate")
    assert game.player("p3").hand == ("Copper", "Silver", "Village")
    assert game.state.trash == ("Silver",)
    assert "Curse" in game.player("p2").discard
    assert "Curse" in game.player("p3").discard


def test_catapult_trashing_an_estate_does_nothing_to_the_others() -> None:
    game = table(
        kingdom=KINGDOM,
        zones={
            "p1": {"hand": ["Catapult", "Estate", "Copper"]},
            "p2": {"hand": ["Copper"] * 5, "discard": []},
        },
    )
    game.do("p1", "play Catapult")
    game.do("p1", "trash Estate")
    assert game.prompts() == [("p1", "turn")]
    assert game.player("p2").discard == ()


def test_catapult_does_not_touch_a_player_who_reveals_moat() -> None:
    game = table(
        kingdom=KINGDOM,
        zones={
            "p1": {"hand": ["Catapult", "Silver"]},
            "p2": {"hand": ["Moat"] + ["Copper"] * 4, "discard": []},
        },
    )
    game.do("p1", "play Catapult")
    game.do("p2", "react Moat")
    assert game.player("p2").discard == ()
    assert len(game.player("p2").hand) == 5


# --- S16 Sacrifice ----------------------------------------------------------------------------


def test_s16_sacrifice_trashing_a_crown_gives_the_action_and_treasure_bonuses() -> None:
    game = table(
        kingdom=MORE,
        zones={
            "p1": {"hand": ["Sacrifice", "Crown", "Copper"], "deck": ["Estate", "Silver", "Gold"], "vp": 0}
        },
    )
    game.do("p1", "play Sacrifice")
    assert game.state.actions == 0
    game.do("p1", "trash Crown")
    p1 = game.player("p1")
    assert p1.hand == ("Copper", "Estate", "Silver")
    assert (game.state.actions, game.state.coins, p1.vp) == (2, 2, 0)
    assert game.state.trash == ("Crown",)


def test_sacrifice_trashing_a_victory_card_gives_two_vp() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Sacrifice", "Estate", "Copper"], "vp": 0}})
    game.do("p1", "play Sacrifice")
    game.do("p1", "trash Estate")
    assert game.player("p1").vp == 2
    assert game.state.coins == 0


# --- the other cards --------------------------------------------------------------------------


def test_city_quarter_draws_a_card_per_action_card_revealed() -> None:
    game = table(
        kingdom=KINGDOM,
        zones={
            "p1": {
                "hand": ["City Quarter", "Village", "Smithy", "Copper"],
                "deck": ["Gold", "Silver", "Estate"],
            }
        },
    )
    game.do("p1", "play City Quarter")
    assert game.state.actions == 2
    assert game.player("p1").hand == ("Village", "Smithy", "Copper", "Gold", "Silver")
    assert "Ann reveals a Village, a Smithy and a Copper." in game.lines()


def test_chariot_race_gives_a_coin_and_a_vp_when_my_card_costs_more() -> None:
    game = table(
        kingdom=KINGDOM,
        zones={
            "p1": {"hand": ["Chariot Race"], "deck": ["Gold"], "vp": 0},
            "p2": {"deck": ["Silver", "Copper"]},
        },
    )
    game.do("p1", "play Chariot Race")
    assert game.player("p1").hand == ("Gold",)
    assert game.player("p2").deck == ("Silver", "Copper")
    assert (game.state.actions, game.state.coins, game.player("p1").vp) == (1, 1, 1)


def test_chariot_race_gives_nothing_for_incomparable_costs() -> None:
    game = table(
        kingdom=KINGDOM,
        zones={"p1": {"hand": ["Chariot Race"], "deck": ["Engineer"], "vp": 0}, "p2": {"deck": ["Silver"]}},
    )
    game.do("p1", "play Chariot Race")
    assert game.player("p1").hand == ("Engineer",)
    assert (game.state.coins, game.player("p1").vp) == (0, 0)


def test_forum_discards_two_and_buying_it_gives_a_buy() -> None:
    game = table(
        kingdom=KINGDOM, zones={"p1": {"hand": ["Forum", "Estate"], "deck": ["Copper", "Gold", "Curse"]}}
    )
    game.do("p1", "play Forum")
    game.do("p1", "discard Estate, Curse")
    assert game.player("p1").hand == ("Copper", "Gold")
    turn_of(game, "p1", phase="buy", coins=5, buys=1)
    game.do("p1", "buy Forum")
    assert game.state.buys == 1
    assert game.state.coins == 0


def test_groundskeeper_gives_a_vp_per_copy_in_play_when_a_victory_card_is_gained() -> None:
    game = table(
        kingdom=KINGDOM,
        phase="buy",
        coins=5,
        buys=2,
        zones={"p1": {"play": ["Groundskeeper", "Groundskeeper"], "vp": 0}},
    )
    game.do("p1", "buy Estate")
    assert game.player("p1").vp == 2
    game.do("p1", "buy Silver")
    assert game.player("p1").vp == 2


def test_legionary_revealing_gold_makes_the_others_discard_down_to_two_then_draw() -> None:
    game = table(
        players=3,
        kingdom=KINGDOM,
        zones={
            "p1": {"hand": ["Legionary", "Gold"]},
            "p2": {"hand": ["Copper", "Copper", "Estate", "Estate"], "deck": ["Gold"]},
            "p3": {"hand": ["Silver", "Silver"], "deck": ["Province"]},
        },
    )
    game.do("p1", "play Legionary")
    assert game.state.coins == 3
    game.do("p1", "reveal Gold")
    assert game.prompts() == [("p2", "discard")]
    assert game.player("p3").hand == ("Silver", "Silver")
    game.do("p2", "discard Estate, Estate")
    assert game.player("p2").hand == ("Copper", "Copper", "Gold")
    assert game.player("p3").hand == ("Silver", "Silver", "Province")


def test_legionary_without_revealing_a_gold_attacks_nobody() -> None:
    game = table(
        kingdom=KINGDOM, zones={"p1": {"hand": ["Legionary", "Gold"]}, "p2": {"hand": ["Copper"] * 5}}
    )
    game.do("p1", "play Legionary")
    game.do("p1", "reveal nothing")
    assert len(game.player("p2").hand) == 5


def test_patrician_puts_a_card_costing_five_or_more_into_the_hand() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Patrician"], "deck": ["Copper", "Gold", "Silver"]}})
    game.do("p1", "play Patrician")
    assert game.player("p1").hand == ("Copper", "Gold")
    assert game.player("p1").deck == ("Silver",)


def test_patrician_leaves_a_cheaper_or_debt_card_on_the_deck() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Patrician"], "deck": ["Copper", "City Quarter"]}})
    game.do("p1", "play Patrician")
    assert game.player("p1").hand == ("Copper",)
    assert game.player("p1").deck == ("City Quarter",)


def test_emporium_gained_with_five_action_cards_in_play_gives_two_vp() -> None:
    play = ["Village", "Village", "Smithy", "Patrician", "Throne Room"]
    game = table(kingdom=MORE, phase="buy", coins=5, zones={"p1": {"play": play, "vp": 0}})
    game.state = replace(game.state, supply={**game.state.supply, "Patrician/Emporium": ("Emporium",) * 5})
    game.do("p1", "buy Emporium")
    assert game.player("p1").vp == 2


def test_emporium_gained_with_four_action_cards_in_play_gives_nothing() -> None:
    play = ["Village", "Village", "Smithy", "Copper", "Throne Room"]
    game = table(kingdom=MORE, phase="buy", coins=5, zones={"p1": {"play": play, "vp": 0}})
    game.state = replace(game.state, supply={**game.state.supply, "Patrician/Emporium": ("Emporium",) * 5})
    game.do("p1", "buy Emporium")
    assert game.player("p1").vp == 0


def test_royal_blacksmith_draws_five_and_discards_every_copper() -> None:
    deck = ["Copper", "Silver", "Copper", "Estate", "Gold"]
    game = table(
        kingdom=MORE, zones={"p1": {"hand": ["Royal Blacksmith", "Copper"], "deck": deck, "discard": []}}
    )
    game.do("p1", "play Royal Blacksmith")
    assert game.player("p1").hand == ("Silver", "Estate", "Gold")
    assert game.player("p1").discard == ("Copper", "Copper", "Copper")


def test_settlers_takes_a_copper_from_the_discard_pile() -> None:
    game = table(
        kingdom=MORE,
        zones={"p1": {"hand": ["Settlers"], "deck": ["Estate"], "discard": ["Copper", "Gold"]}},
    )
    game.do("p1", "play Settlers")
    game.do("p1", "select take Copper")
    assert game.player("p1").hand == ("Estate", "Copper")
    assert game.player("p1").discard == ("Gold",)


def test_bustling_village_takes_a_settlers_from_the_discard_pile() -> None:
    game = table(
        kingdom=MORE,
        zones={"p1": {"hand": ["Bustling Village"], "deck": ["Estate"], "discard": ["Settlers"]}},
    )
    game.do("p1", "play Bustling Village")
    assert game.state.actions == 3
    game.do("p1", "select take Settlers")
    assert game.player("p1").hand == ("Estate", "Settlers")


def test_settlers_without_copper_in_the_discard_pile_asks_nothing() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Settlers"], "deck": ["Estate"], "discard": ["Gold"]}})
    game.do("p1", "play Settlers")
    assert game.prompts() == [("p1", "turn")]


def test_wild_hunt_draws_three_and_adds_a_vp_to_its_pile() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Wild Hunt"], "deck": ["Copper"] * 4}})
    game.do("p1", "play Wild Hunt")
    game.do("p1", "choose draw")
    assert len(game.player("p1").hand) == 3
    assert game.state.pile_vp["Wild Hunt"] == 1


def test_wild_hunt_gaining_an_estate_takes_the_pile_vp() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Wild Hunt"], "vp": 0, "discard": []}})
    game.state = replace(game.state, pile_vp={**game.state.pile_vp, "Wild Hunt": 3})
    game.do("p1", "play Wild Hunt")
    game.do("p1", "choose estate")
    assert game.player("p1").discard == ("Estate",)
    assert game.player("p1").vp == 3
    assert game.state.pile_vp["Wild Hunt"] == 0


def test_wild_hunt_with_an_empty_estate_pile_gets_nothing() -> None:
    game = table(kingdom=MORE, supply={"Estate": 0}, zones={"p1": {"hand": ["Wild Hunt"], "vp": 0}})
    game.state = replace(game.state, pile_vp={**game.state.pile_vp, "Wild Hunt": 3})
    game.do("p1", "play Wild Hunt")
    game.do("p1", "choose estate")
    assert game.player("p1").vp == 0
    assert game.state.pile_vp["Wild Hunt"] == 3


def test_temple_gained_without_buying_still_takes_the_pile_vp() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Workshop"], "vp": 0}})
    game.state = replace(game.state, pile_vp={**game.state.pile_vp, "Temple": 2})
    game.do("p1", "play Workshop")
    game.do("p1", "gain Temple")
    assert game.player("p1").vp == 2
    assert game.state.pile_vp["Temple"] == 0


def test_chariot_race_gives_nothing_when_the_left_deck_is_empty() -> None:
    game = table(
        kingdom=KINGDOM,
        zones={
            "p1": {"hand": ["Chariot Race"], "deck": ["Gold"], "vp": 0},
            "p2": {"deck": [], "discard": []},
        },
    )
    game.do("p1", "play Chariot Race")
    assert game.player("p1").hand == ("Gold",)
    assert (game.state.coins, game.player("p1").vp) == (0, 0)


def test_patrician_in_a_physical_game_asks_the_table_for_the_top_card() -> None:
    game = table(
        kingdom=MORE,
        zones={"p1": {"hand": ["Patrician"], "deck": [], "unknown": ["Gold", "Copper", "Copper"]}},
    )
    game.state = replace(game.state, mode="physical")
    game.do("p1", "play Patrician")
    game.do(None, "observe Copper")
    assert game.prompts() == [(None, "observe")]
    game.do(None, "observe Gold")
    assert game.player("p1").hand == ("Copper", "Gold")
    assert game.player("p1").unknown == ("Copper",)


def test_gladiators_left_neighbour_without_a_copy_is_asked_under_explicit_forced_choices() -> None:
    game = table(
        kingdom=KINGDOM,
        supply={"Gladiator/Fortune": gladiator_pile()},
        zones={"p1": {"hand": ["Gladiator", "Estate"]}, "p2": {"hand": ["Copper"]}},
        explicit_forced_choices=True,
    )
    game.do("p1", "play Gladiator")
    game.do("p1", "reveal Estate")
    assert game.prompts() == [("p2", "gladiator_copy")]
    assert game.legal("p2") == ["reveal nothing"]
    game.do("p2", "reveal nothing")
    assert game.state.coins == 3 and "Bob chooses no copy (Gladiator)." in game.lines()
