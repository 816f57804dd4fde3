"""One or more tests per card of the 1st-edition base game (dominion.md 5.1 and 5.2)."""

from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from domain.games.dominion import RULESET
from domain.games.dominion.turns import card_vp, score
from domain.ruleset import Viewer
from tests.unit.dominion.scenarios import table

ALL = [
    "Adventurer",
    "Bureaucrat",
    "Cellar",
    "Chancellor",
    "Chapel",
    "Council Room",
    "Feast",
    "Festival",
    "Gardens",
    "Laboratory",
]
MORE = ["Library", "Market", "Militia", "Mine", "Moat", "Moneylender", "Remodel", "Smithy", "Spy", "Thief"]
REST = [
    "Throne Room",
    "Village",
    "Witch",
    "Woodcutter",
    "Workshop",
    "Moat",
    "Militia",
    "Feast",
    "Market",
    "Cellar",
]


# --- basic cards ----------------------------------------------------------------------------


def test_copper_silver_and_gold_make_one_two_and_three_coins() -> None:
    game = table(phase="buy", zones={"p1": {"hand": ["Copper", "Silver", "Gold", "Estate"]}})
    game.do("p1", "play treasures Copper, Silver, Gold")
    assert game.state.coins == 6
    assert game.player("p1").hand == ("Estate",)


def test_estates_duchies_provinces_and_curses_are_worth_1_3_6_and_minus_1() -> None:
    assert card_vp(("Estate", "Duchy", "Province", "Curse", "Copper")) == 9


def test_a_curse_can_be_bought_for_nothing() -> None:
    game = table(phase="buy", zones={"p1": {"hand": []}})
    game.do("p1", "buy Curse")
    assert game.player("p1").discard[-1] == "Curse"


# --- kingdom cards --------------------------------------------------------------------------


def test_adventurer_reveals_until_two_treasures_and_discards_the_rest() -> None:
    game = table(
        kingdom=ALL,
        zones={
            "p1": {
                "hand": ["Adventurer"],
                "deck": ["Estate", "Copper", "Chapel", "Silver", "Gold"],
                "discard": [],
            }
        },
    )
    game.do("p1", "play Adventurer")
    p1 = game.player("p1")
    assert p1.hand == ("Copper", "Silver")
    assert p1.discard == ("Estate", "Chapel")
    assert p1.deck == ("Gold",)
    assert p1.aside == ()


def test_adventurer_shuffles_the_discard_pile_when_the_deck_runs_out_but_not_the_revealed_cards() -> None:
    game = table(
        kingdom=ALL,
        zones={"p1": {"hand": ["Adventurer"], "deck": ["Estate", "Copper"], "discard": ["Gold", "Estate"]}},
    )
    game.do("p1", "play Adventurer")
    p1 = game.player("p1")
    assert sorted(p1.hand) == ["Copper", "Gold"]
    assert "Ann shuffles 2 cards." in game.lines()


def test_adventurer_stops_when_no_card_is_left_to_reveal() -> None:
    game = table(
        kingdom=ALL, zones={"p1": {"hand": ["Adventurer"], "deck": ["Estate", "Copper"], "discard": []}}
    )
    game.do("p1", "play Adventurer")
    assert game.player("p1").hand == ("Copper",)
    assert game.player("p1").discard == ("Estate",)


def test_bureaucrat_gains_a_silver_onto_the_deck_and_victims_topdeck_a_victory_card() -> None:
    game = table(
        players=3,
        kingdom=ALL,
        zones={
            "p1": {"hand": ["Bureaucrat"], "deck": ["Copper"]},
            "p2": {"hand": ["Estate", "Copper", "Copper"], "deck": []},
            "p3": {"hand": ["Copper", "Silver"], "deck": []},
        },
    )
    game.do("p1", "play Bureaucrat")
    assert game.player("p1").deck == ("Silver", "Copper")
    assert game.player("p2").deck == ("Estate",)
    assert game.player("p2").hand == ("Copper", "Copper")
    assert "Cid reveals a Copper and a Silver." in game.lines()
    assert RULESET.pending(game.state)[0].seat == "p1"


def test_bureaucrat_asks_a_victim_holding_two_victory_names_which_to_topdeck() -> None:
    game = table(
        kingdom=ALL,
        zones={"p1": {"hand": ["Bureaucrat"]}, "p2": {"hand": ["Estate", "Duchy", "Copper"], "deck": []}},
    )
    game.do("p1", "play Bureaucrat")
    assert game.prompts() == [("p2", "topdeck")]
    assert game.refused("p2", "topdeck Copper").code == "not_a_candidate"
    game.do("p2", "topdeck Duchy")
    assert game.player("p2").deck == ("Duchy",)


def test_cellar_gives_an_action_and_draws_one_card_per_discarded_card() -> None:
    game = table(
        kingdom=ALL,
        zones={
            "p1": {"hand": ["Cellar", "Estate", "Estate", "Copper"], "deck": ["Gold", "Silver", "Copper"]}
        },
    )
    game.do("p1", "play Cellar")
    assert game.state.actions == 1
    game.do("p1", "discard Estate Estate")
    p1 = game.player("p1")
    assert sorted(p1.hand) == ["Copper", "Gold", "Silver"]
    assert p1.discard[-2:] == ("Estate", "Estate")


def test_chancellor_gives_two_coins_and_may_put_the_deck_into_the_discard_pile() -> None:
    game = table(
        kingdom=ALL, zones={"p1": {"hand": ["Chancellor"], "deck": ["Gold", "Silver"], "discard": ["Copper"]}}
    )
    game.do("p1", "play Chancellor")
    assert game.state.coins == 2
    game.do("p1", "choose yes")
    p1 = game.player("p1")
    assert p1.deck == () and Counter(p1.discard) == Counter(["Copper", "Gold", "Silver"])


def test_chancellor_declined_leaves_the_deck_alone() -> None:
    game = table(kingdom=ALL, zones={"p1": {"hand": ["Chancellor"], "deck": ["Gold"]}})
    game.do("p1", "play Chancellor")
    game.do("p1", "no")
    assert game.player("p1").deck == ("Gold",)


def test_chapel_trashes_up_to_four_cards() -> None:
    game = table(
        kingdom=ALL, zones={"p1": {"hand": ["Chapel", "Copper", "Copper", "Estate", "Estate", "Silver"]}}
    )
    game.do("p1", "play Chapel")
    rejection = game.refused("p1", "trash Copper Copper Estate Estate Silver")
    assert rejection.code == "wrong_count" and rejection.rule == "dominion 4.4"
    game.do("p1", "trash Copper Copper Estate Estate")
    assert game.player("p1").hand == ("Silver",)
    assert Counter(game.state.trash) == Counter(["Copper", "Copper", "Estate", "Estate"])


def test_council_room_draws_four_gives_a_buy_and_each_other_player_draws_one() -> None:
    game = table(
        players=3,
        kingdom=ALL,
        zones={
            "p1": {"hand": ["Council Room"], "deck": ["Copper"] * 5},
            "p2": {"hand": [], "deck": ["Gold"]},
            "p3": {"hand": [], "deck": ["Silver"]},
        },
    )
    game.do("p1", "play Council Room")
    assert len(game.player("p1").hand) == 4 and game.state.buys == 2
    assert game.player("p2").hand == ("Gold",) and game.player("p3").hand == ("Silver",)


def test_feast_trashes_itself_and_gains_a_card_costing_up_to_five() -> None:
    game = table(kingdom=ALL, zones={"p1": {"hand": ["Feast"]}})
    game.do("p1", "play Feast")
    assert game.state.trash == ("Feast",) and game.player("p1").play == ()
    rejection = game.refused("p1", "gain Gold")
    assert rejection.code == "not_eligible" and rejection.rule == "dominion 0"
    game.do("p1", "gain Laboratory")
    assert game.player("p1").discard[-1] == "Laboratory"


def test_throne_room_on_feast_trashes_it_once_and_gains_two_cards() -> None:
    game = table(kingdom=REST, zones={"p1": {"hand": ["Throne Room", "Feast"]}})
    game.do("p1", "play Throne Room")
    game.do("p1", "select play Feast")
    assert game.state.trash == ("Feast",)
    game.do("p1", "gain Duchy")
    assert game.state.trash == ("Feast",)
    game.do("p1", "gain Market")
    p1 = game.player("p1")
    assert p1.discard[-2:] == ("Duchy", "Market")
    assert p1.play == ("Throne Room",)


def test_throne_room_on_feast_with_another_feast_in_play_does_not_trash_that_other_feast() -> None:
    game = table(kingdom=REST, actions=2, zones={"p1": {"hand": ["Throne Room", "Feast"], "play": ["Feast"]}})
    game.do("p1", "play Throne Room")
    game.do("p1", "select play Feast")
    game.do("p1", "gain Silver")
    game.do("p1", "gain Silver")
    assert game.state.trash == ("Feast",)
    assert sorted(game.player("p1").play) == ["Feast", "Throne Room"]


def test_festival_gives_two_actions_a_buy_and_two_coins() -> None:
    game = table(kingdom=ALL, zones={"p1": {"hand": ["Festival"]}})
    game.do("p1", "play Festival")
    assert (game.state.actions, game.state.buys, game.state.coins) == (2, 2, 2)


def test_gardens_is_worth_one_vp_per_ten_cards_rounded_down() -> None:
    assert card_vp(("Gardens",) + ("Copper",) * 38) == 3
    assert card_vp(("Gardens", "Gardens") + ("Copper",) * 38) == 8


def test_gardens_counts_every_zone_at_the_end() -> None:
    game = table(
        kingdom=ALL,
        zones={
            "p1": {"hand": ["Gardens"] + ["Copper"] * 4, "deck": ["Copper"] * 10, "discard": ["Copper"] * 5}
        },
    )
    ended = score(game.state, "test")
    assert ended.card_vp["p1"] == 2


def test_laboratory_draws_two_and_gives_an_action() -> None:
    game = table(kingdom=ALL, zones={"p1": {"hand": ["Laboratory"], "deck": ["Gold", "Gold", "Copper"]}})
    game.do("p1", "play Laboratory")
    assert game.player("p1").hand == ("Gold", "Gold") and game.state.actions == 1


def test_library_draws_to_seven_and_may_set_actions_aside_to_be_discarded() -> None:
    game = table(
        kingdom=MORE,
        zones={
            "p1": {
                "hand": ["Library", "Copper", "Copper", "Copper"],
                "deck": ["Smithy", "Gold", "Market", "Silver", "Estate", "Copper"],
                "discard": [],
            }
        },
    )
    game.do("p1", "play Library")
    assert game.prompts() == [("p1", "library")]
    game.do("p1", "choose set aside")
    assert game.player("p1").aside == ("Smithy",)
    game.do("p1", "keep")
    p1 = game.player("p1")
    assert sorted(p1.hand) == ["Copper", "Copper", "Copper", "Estate", "Gold", "Market", "Silver"]
    assert p1.discard == ("Smithy",) and p1.aside == ()
    assert p1.deck == ("Copper",)


def test_market_gives_a_card_an_action_a_buy_and_a_coin() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Market"], "deck": ["Gold"]}})
    game.do("p1", "play Market")
    assert (game.state.actions, game.state.buys, game.state.coins) == (1, 2, 1)
    assert game.player("p1").hand == ("Gold",)


def test_militia_makes_every_other_player_discard_down_to_three_all_at_once() -> None:
    game = table(
        players=4,
        kingdom=MORE,
        zones={
            "p1": {"hand": ["Militia"]},
            "p2": {"hand": ["Copper", "Copper", "Estate", "Estate", "Gold"]},
            "p3": {"hand": ["Copper", "Silver", "Estate", "Gold"]},
            "p4": {"hand": ["Copper", "Silver", "Estate"]},
        },
    )
    game.do("p1", "play Militia")
    assert game.state.coins == 2
    assert sorted(game.prompts()) == [("p2", "discard"), ("p3", "discard")]
    assert game.refused("p1", "end").code == "decision_pending"
    game.do("p3", "discard Estate")
    assert game.refused("p2", "discard Estate").code == "wrong_count"
    game.do("p2", "discard Estate Estate")
    assert game.player("p2").hand == ("Copper", "Copper", "Gold")
    assert game.player("p4").hand == ("Copper", "Silver", "Estate")
    assert game.prompts() == [("p1", "turn")]


def test_militia_discards_are_hidden_from_other_players_except_the_top_card() -> None:
    game = table(
        kingdom=MORE,
        zones={"p1": {"hand": ["Militia"]}, "p2": {"hand": ["Copper", "Copper", "Estate", "Estate", "Gold"]}},
    )
    game.do("p1", "play Militia")
    facts = game.do("p2", "discard Copper Estate")
    shown = [RULESET.describe(RULESET.redact(f, Viewer("seat", "p1")), game.config) for f in facts]
    assert "Bob discards 2 cards." in shown
    own = [RULESET.describe(RULESET.redact(f, Viewer("seat", "p2")), game.config) for f in facts]
    assert "Bob discards a Copper and an Estate." in own


def test_mine_trashes_a_treasure_and_gains_one_costing_up_to_three_more_into_the_hand() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Mine", "Copper", "Silver", "Estate"]}})
    game.do("p1", "play Mine")
    game.do("p1", "trash Copper")
    assert game.refused("p1", "gain Gold").code == "not_eligible"
    assert game.refused("p1", "gain Village").code in ("not_eligible", "unknown_pile")
    game.do("p1", "gain Silver")
    assert sorted(game.player("p1").hand) == ["Estate", "Silver", "Silver"]


def test_mine_is_mandatory_and_without_a_treasure_trashes_nothing() -> None:
    # Every card p1 might hold is a Copper: the trash is forced, for all to see.
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Mine", "Copper"], "deck": ["Copper"] * 5}})
    game.do("p1", "play Mine")
    # One Treasure name and one eligible gain above Copper? Silver and Copper: a real choice.
    assert game.state.trash == ("Copper",)
    assert game.prompts() == [("p1", "gain_hand")]
    # The other player cannot tell whether the one card in hand is a Treasure: Mine asks (4.3
    # rule 4), and holding none, the only answer is to trash nothing.
    game2 = table(kingdom=MORE, zones={"p1": {"hand": ["Mine", "Estate"]}})
    game2.do("p1", "play Mine")
    assert game2.prompts() == [("p1", "mine")]
    assert game2.legal("p1") == ["trash nothing"]
    game2.do("p1", "trash nothing")
    assert game2.state.trash == () and game2.prompts() == [("p1", "turn")]


def test_moat_draws_two_cards() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Moat"], "deck": ["Gold", "Silver"]}})
    game.do("p1", "play Moat")
    assert game.player("p1").hand == ("Gold", "Silver")


def test_moat_revealed_makes_its_holder_immune_to_that_attack() -> None:
    game = table(
        players=3,
        kingdom=MORE,
        zones={
            "p1": {"hand": ["Militia"]},
            "p2": {"hand": ["Moat", "Copper", "Copper", "Estate", "Gold"]},
            "p3": {"hand": ["Moat", "Copper", "Copper", "Estate", "Gold"]},
        },
    )
    game.do("p1", "play Militia")
    assert sorted(game.prompts()) == [("p2", "react"), ("p3", "react")]
    game.do("p2", "react Moat")
    game.do("p3", "react nothing")
    assert game.prompts() == [("p3", "discard")]
    game.do("p3", "discard Moat Estate")
    assert len(game.player("p2").hand) == 5 and len(game.player("p3").hand) == 3


def test_moneylender_trashes_a_copper_for_three_coins() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Moneylender", "Copper", "Copper"]}})
    game.do("p1", "play Moneylender")
    assert game.state.coins == 3 and game.state.trash == ("Copper",)
    assert game.player("p1").hand == ("Copper",)


def test_moneylender_without_a_copper_does_nothing() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Moneylender", "Silver"]}})
    game.do("p1", "play Moneylender")
    assert game.state.coins == 0 and game.state.trash == ()


def test_remodel_gains_a_card_costing_up_to_two_more_than_the_trashed_one() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Remodel", "Estate", "Gold"]}})
    game.do("p1", "play Remodel")
    game.do("p1", "trash Estate")
    assert game.refused("p1", "gain Market").code == "not_eligible"
    assert game.refused("p1", "gain nothing").code == "choice_required"
    game.do("p1", "gain Smithy")
    assert game.player("p1").discard[-1] == "Smithy"


def test_remodel_can_turn_a_gold_into_a_province() -> None:
    game = table(kingdom=MORE, zones={"p1": {"hand": ["Remodel", "Gold"]}})
    game.do("p1", "play Remodel")
    game.do("p1", "gain Province")
    assert game.state.trash == ("Gold",) and game.player("p1").discard[-1] == "Province"


def test_smithy_draws_three_cards() -> None:
    game = table(
        kingdom=MORE, zones={"p1": {"hand": ["Smithy"], "deck": ["Gold", "Silver", "Copper", "Estate"]}}
    )
    game.do("p1", "play Smithy")
    assert game.player("p1").hand == ("Gold", "Silver", "Copper")


def test_spy_reveals_your_top_card_then_each_opponents_and_you_decide() -> None:
    game = table(
        kingdom=MORE,
        zones={
            "p1": {"hand": ["Spy"], "deck": ["Copper", "Province", "Gold"]},
            "p2": {"hand": [], "deck": ["Gold", "Estate"]},
        },
    )
    game.do("p1", "play Spy")
    assert game.player("p1").hand == ("Copper",) and game.state.actions == 1
    assert game.prompts() == [("p1", "spy")]
    game.do("p1", "choose discard")
    assert game.player("p1").deck == ("Gold",) and game.player("p1").discard[-1] == "Province"
    assert "Bob reveals a Gold." in game.lines()
    game.do("p1", "choose discard")
    assert game.player("p2").deck == ("Estate",)


def test_thief_trashes_a_revealed_treasure_of_the_victims_choice_of_the_attacker_and_may_gain_it() -> None:
    game = table(
        kingdom=MORE,
        zones={
            "p1": {"hand": ["Thief"]},
            "p2": {"hand": [], "deck": ["Gold", "Copper", "Estate"], "discard": []},
        },
    )
    game.do("p1", "play Thief")
    assert game.prompts() == [("p1", "thief_trash")]
    game.do("p1", "trash Gold")
    assert game.state.trash == ("Gold",)
    assert game.player("p2").discard == ("Copper",) and game.player("p2").deck == ("Estate",)
    game.do("p1", "select gain Gold")
    assert game.player("p1").discard[-1] == "Gold" and not game.state.trash


def test_thief_discards_revealed_non_treasures_and_gains_nothing_when_none_were_found() -> None:
    game = table(
        kingdom=MORE,
        zones={"p1": {"hand": ["Thief"]}, "p2": {"hand": [], "deck": ["Estate", "Smithy"], "discard": []}},
    )
    game.do("p1", "play Thief")
    assert game.player("p2").discard == ("Estate", "Smithy")
    assert game.prompts() == [("p1", "turn")]


def test_throne_room_without_an_action_in_hand_does_nothing() -> None:
    game = table(kingdom=REST, zones={"p1": {"hand": ["Throne Room", "Copper"]}})
    game.do("p1", "play Throne Room")
    assert game.player("p1").play == ("Throne Room",) and game.prompts() == [("p1", "turn")]


def test_throne_room_on_throne_room_plays_two_more_actions_twice_each() -> None:
    game = table(
        kingdom=REST,
        zones={
            "p1": {"hand": ["Throne Room", "Throne Room", "Woodcutter", "Village"], "deck": ["Copper"] * 4}
        },
    )
    game.do("p1", "play Throne Room")
    game.do("p1", "select play Throne Room")
    game.do("p1", "select play Woodcutter")
    # Only Village is left, but the other player cannot tell: the choice is asked (4.3 rule 4).
    assert game.legal("p1") == ["select play Village"]
    game.do("p1", "select play Village")
    assert game.prompts() == [("p1", "turn")]
    assert game.state.coins == 4 and game.state.buys == 3
    assert game.state.actions == 4


def test_village_draws_a_card_and_gives_two_actions() -> None:
    game = table(kingdom=REST, zones={"p1": {"hand": ["Village"], "deck": ["Gold"]}})
    game.do("p1", "play Village")
    assert game.player("p1").hand == ("Gold",) and game.state.actions == 2


def test_witch_draws_two_and_curses_each_other_player_in_turn_order_while_curses_last() -> None:
    game = table(
        players=3,
        kingdom=REST,
        supply={"Curse": 1},
        zones={
            "p1": {"hand": ["Witch"], "deck": ["Gold", "Gold"]},
            "p2": {"hand": [], "discard": []},
            "p3": {"hand": [], "discard": []},
        },
    )
    game.do("p1", "play Witch")
    assert game.player("p1").hand == ("Gold", "Gold")
    assert game.player("p2").discard == ("Curse",) and game.player("p3").discard == ()
    assert game.pile("Curse") == 0


def test_woodcutter_gives_a_buy_and_two_coins() -> None:
    game = table(kingdom=REST, zones={"p1": {"hand": ["Woodcutter"]}})
    game.do("p1", "play Woodcutter")
    assert (game.state.buys, game.state.coins) == (2, 2)


def test_workshop_gains_a_card_costing_up_to_four() -> None:
    game = table(kingdom=REST, zones={"p1": {"hand": ["Workshop"]}})
    game.do("p1", "play Workshop")
    rejection = game.refused("p1", "gain Duchy")
    assert rejection.code == "not_eligible" and "up to $4" in rejection.message
    game.do("p1", "gain Silver")
    assert game.player("p1").discard[-1] == "Silver"


def test_an_attack_leaves_the_attacker_alone_and_logs_each_non_reaction() -> None:
    game = table(
        kingdom=REST,
        zones={"p1": {"hand": ["Witch"], "discard": []}, "p2": {"hand": ["Copper"], "discard": []}},
    )
    game.do("p1", "play Witch")
    assert "Bob does not react to the Witch." in game.lines()
    assert "Curse" not in game.player("p1").discard


def test_replaying_the_facts_of_a_card_gives_the_same_state() -> None:
    game = table(kingdom=REST, zones={"p1": {"hand": ["Throne Room", "Feast"]}})
    start = game.state
    game.do("p1", "play Throne Room")
    game.do("p1", "select play Feast")
    game.do("p1", "gain Duchy")
    game.do("p1", "gain Market")
    state = start
    for fact in game.facts:
        state = RULESET.evolve(state, fact)
    assert state == game.state
    assert replace(state) == game.state
