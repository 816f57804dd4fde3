"""Capital, Charm, Crown, Fortune, Plunder, Rocks, Archive, Enchantress, Overlord and Villa
(dominion.md 5.3, 8.11, 8.12, 8.31, 8.32) and the worked examples S2, S3, S4, S12 and S13."""

from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from domain.games.dominion import RULESET
from domain.games.dominion.actions import SelectCards
from domain.ruleset import PUBLIC, Viewer
from tests.unit.dominion.scenarios import Game, table

TREASURES = [
    "Capital",
    "Charm",
    "Crown",
    "Archive",
    "Enchantress",
    "Overlord",
    "Villa",
    "Gladiator/Fortune",
    "Encampment/Plunder",
    "Catapult/Rocks",
]
S4_KINGDOM = [
    "Forum",
    "Laboratory",
    "Market",
    "Village",
    "Smithy",
    "Cellar",
    "Chapel",
    "Moat",
    "Workshop",
    "Woodcutter",
]
DURATIONS = [
    "Archive",
    "Enchantress",
    "Crown",
    "Throne Room",
    "Village",
    "Smithy",
    "Market",
    "Overlord",
    "Feast",
    "Chapel",
]


def _take(*cards: str) -> SelectCards:
    return SelectCards("take", cards)


def _pass_turn(game: Game, seat: str) -> None:
    game.do(seat, "end")
    game.do(seat, "end")


# --- S2: Crown on Capital ---------------------------------------------------------------------


def test_s2_crowned_capital_gives_12_coins_and_3_buys_but_only_one_6_debt_in_clean_up() -> None:
    game = table(
        kingdom=TREASURES,
        phase="buy",
        zones={
            "p1": {
                "hand": ["Crown", "Capital", "Copper", "Estate", "Estate"],
                "deck": ["Silver", "Silver", "Gold", "Copper", "Copper", "Estate"],
                "discard": [],
            }
        },
        supply={"Province": 8},
    )
    game.do("p1", "play treasure Crown")
    assert game.prompts() == [("p1", "throne")]
    assert game.state.prompts[0].types == ("Treasure",) and game.state.prompts[0].lo == 0
    game.do("p1", SelectCards("play", ("Capital",)))
    assert (game.state.coins, game.state.buys) == (12, 3)
    game.do("p1", "play treasure Copper")
    assert game.state.coins == 13
    game.do("p1", "buy Province")
    assert (game.state.coins, game.state.buys, game.pile("Province")) == (5, 2, 7)
    game.do("p1", "end")
    assert game.player("p1").debt == 6
    assert game.prompts() == [("p1", "capital")]
    assert (game.state.prompts[0].lo, game.state.prompts[0].hi) == (0, 5)
    game.do("p1", "pay 5")
    p1 = game.player("p1")
    assert p1.debt == 1
    assert p1.hand == ("Silver", "Silver", "Gold", "Copper", "Copper")
    assert p1.deck == ("Estate",)
    assert Counter(p1.discard) == Counter(["Province", "Crown", "Capital", "Copper", "Estate", "Estate"])


def test_declining_capitals_offer_keeps_all_six_debt_and_pays_nothing() -> None:
    game = table(kingdom=TREASURES, phase="buy", coins=0, zones={"p1": {"hand": ["Capital"]}})
    game.do("p1", "play treasure Capital")
    assert (game.state.coins, game.state.buys) == (6, 2)
    game.do("p1", "end")
    game.do("p1", "pay 0")
    assert game.player("p1").debt == 6
    assert not any("pays off" in line for line in game.lines())


def test_capital_with_no_coins_left_takes_6_debt_without_asking() -> None:
    game = table(kingdom=TREASURES, phase="buy", zones={"p1": {"hand": ["Capital"]}})
    game.do("p1", "play treasure Capital")
    game.do("p1", "buy Gold")  # $6 spent
    game.do("p1", "end")
    assert game.player("p1").debt == 6
    assert game.state.current == 1


# --- S3: Fortune ------------------------------------------------------------------------------


def test_s3a_a_crowned_fortune_doubles_once_and_gives_two_buys() -> None:
    game = table(
        kingdom=TREASURES,
        phase="buy",
        zones={"p1": {"hand": ["Copper", "Copper", "Copper", "Crown", "Fortune"]}},
    )
    for _ in range(3):
        game.do("p1", "play treasure Copper")
    assert game.state.coins == 3
    game.do("p1", "play treasure Crown")
    game.do("p1", SelectCards("play", ("Fortune",)))
    assert (game.state.coins, game.state.buys) == (6, 3)
    assert game.state.fortune


def test_s3b_fortune_played_first_spends_its_doubling_on_zero() -> None:
    game = table(
        kingdom=TREASURES,
        phase="buy",
        zones={"p1": {"hand": ["Fortune", "Copper", "Copper", "Copper", "Gold"]}},
    )
    game.do("p1", "play treasure Fortune")
    assert (game.state.coins, game.state.buys, game.state.fortune) == (0, 2, True)
    game.do("p1", "play treasures Copper, Copper, Copper, Gold")
    assert (game.state.coins, game.state.buys) == (6, 2)


def test_gaining_a_fortune_gains_a_gold_per_gladiator_in_play() -> None:
    game = table(
        kingdom=TREASURES,
        phase="buy",
        coins=8,
        zones={"p1": {"hand": [], "play": ["Gladiator", "Gladiator"], "discard": []}},
        supply={"Gladiator/Fortune": ["Fortune"] * 5},
    )
    gold = game.pile("Gold")
    game.do("p1", "buy Fortune")
    assert game.player("p1").discard == ("Fortune", "Gold", "Gold")
    assert game.player("p1").debt == 8
    assert game.pile("Gold") == gold - 2


# --- S4: Charm --------------------------------------------------------------------------------


def test_s4_charms_extra_gain_comes_before_the_bought_card_and_labyrinth_sees_the_second_gain() -> None:
    game = table(
        kingdom=S4_KINGDOM,
        landscapes=["Labyrinth"],
        phase="buy",
        zones={"p1": {"hand": ["Charm", "Gold", "Gold"], "discard": [], "vp": 0}},
    )
    assert game.state.landmark_vp["Labyrinth"] == 12
    game.do("p1", "play treasure Charm")
    assert game.state.prompts[0].options == ("coins", "extra_gain")
    game.do("p1", "choose extra_gain")
    assert game.state.charms == 1
    game.do("p1", "play treasures Gold, Gold")
    assert game.state.coins == 6
    duchies, forums = game.pile("Duchy"), game.pile("Forum")
    game.do("p1", "buy Forum")
    assert (game.state.coins, game.state.buys) == (1, 1)  # Forum's own +1 Buy
    assert set(game.legal("p1")) == {"gain Duchy", "gain Laboratory", "gain Market", "gain nothing"}
    game.do("p1", "gain Duchy")
    assert game.player("p1").vp == 2
    assert game.state.landmark_vp["Labyrinth"] == 10
    game.do("p1", "buy Copper")
    p1 = game.player("p1")
    assert (game.state.coins, game.state.buys) == (1, 0)
    assert p1.vp == 2
    assert p1.discard[-3:] == ("Duchy", "Forum", "Copper")
    assert (game.pile("Duchy"), game.pile("Forum")) == (duchies - 1, forums - 1)
    assert game.state.charms == 0


def test_charm_for_coins_gives_a_buy_and_two_coins() -> None:
    game = table(kingdom=TREASURES, phase="buy", zones={"p1": {"hand": ["Charm"]}})
    game.do("p1", "play treasure Charm")
    game.do("p1", "choose coins")
    assert (game.state.coins, game.state.buys, game.state.charms) == (2, 2, 0)


def test_two_waiting_charms_each_offer_a_gain_on_one_buy_and_are_then_spent() -> None:
    game = table(
        kingdom=S4_KINGDOM,
        phase="buy",
        coins=6,
        buys=2,
        zones={"p1": {"hand": ["Charm", "Charm"], "discard": []}},
    )
    for _ in range(2):
        game.do("p1", "play treasure Charm")
        game.do("p1", "choose extra_gain")
    assert game.state.charms == 2
    game.do("p1", "buy Village")  # $3: Silver is the only other $3 top
    game.do("p1", "gain Silver")
    game.do("p1", "gain Silver")
    assert game.player("p1").discard == ("Silver", "Silver", "Village")
    assert game.state.charms == 0
    game.do("p1", "buy Copper")
    assert game.player("p1").discard[-1] == "Copper"
    assert game.state.prompts == ()


def test_a_charm_gain_may_be_declined() -> None:
    game = table(kingdom=S4_KINGDOM, phase="buy", coins=3, zones={"p1": {"hand": ["Charm"], "discard": []}})
    game.do("p1", "play treasure Charm")
    game.do("p1", "choose extra_gain")
    game.do("p1", "buy Village")
    game.do("p1", "gain nothing")
    assert game.player("p1").discard == ("Village",)


def test_under_charm_on_gain_the_extra_card_comes_after_the_gained_card() -> None:
    game = table(
        kingdom=S4_KINGDOM,
        phase="buy",
        coins=3,
        zones={"p1": {"hand": ["Charm"], "discard": []}},
        charm_on_gain=True,
    )
    game.do("p1", "play treasure Charm")
    game.do("p1", "choose extra_gain")
    game.do("p1", "buy Village")
    game.do("p1", "gain Silver")
    assert game.player("p1").discard == ("Village", "Silver")
    assert game.state.charms == 0


# --- Crown ------------------------------------------------------------------------------------


def test_crown_in_the_action_phase_plays_an_action_twice() -> None:
    game = table(kingdom=DURATIONS, zones={"p1": {"hand": ["Crown", "Village"], "deck": ["Copper"] * 5}})
    game.do("p1", "play Crown")
    assert game.state.prompts[0].types == ("Action",)
    game.do("p1", "play Village")
    assert game.state.actions == 4
    assert len(game.player("p1").hand) == 2


def test_crown_may_play_nothing() -> None:
    game = table(kingdom=DURATIONS, phase="buy", zones={"p1": {"hand": ["Crown", "Copper"]}})
    game.do("p1", "play treasure Crown")
    game.do("p1", SelectCards("play", ()))
    assert game.player("p1").hand == ("Copper",)
    assert game.state.coins == 0


def test_a_crown_that_played_an_archive_stays_in_play_with_it() -> None:
    game = table(
        kingdom=DURATIONS,
        zones={"p1": {"hand": ["Crown", "Archive"], "deck": ["Copper"] * 6 + ["Estate"] * 5, "discard": []}},
    )
    game.do("p1", "play Crown")
    game.do("p1", "play Archive")
    # Each set of three Coppers is asked for: nobody else knows the set holds one name.
    game.do("p1", _take("Copper"))
    game.do("p1", _take("Copper"))
    (record,) = game.player("p1").lasting
    assert record.links == ("Crown",)
    assert len(record.sets) == 2
    _pass_turn(game, "p1")
    assert game.player("p1").play == ("Crown", "Archive")


# --- Plunder and Rocks ------------------------------------------------------------------------


def test_plunder_gives_two_coins_and_a_vp_token() -> None:
    game = table(kingdom=TREASURES, phase="buy", zones={"p1": {"hand": ["Plunder"], "vp": 0}})
    game.do("p1", "play treasure Plunder")
    assert game.state.coins == 2
    assert game.player("p1").vp == 1


def test_rocks_gained_in_the_buy_phase_puts_a_silver_onto_the_deck() -> None:
    game = table(
        kingdom=TREASURES,
        phase="buy",
        coins=4,
        zones={"p1": {"hand": [], "deck": ["Estate"], "discard": []}},
        supply={"Catapult/Rocks": ["Rocks"] * 5},
    )
    game.do("p1", "buy Rocks")
    p1 = game.player("p1")
    assert p1.deck == ("Silver", "Estate")
    assert p1.discard == ("Rocks",)


def test_rocks_trashed_in_the_action_phase_puts_a_silver_into_the_hand() -> None:
    game = table(kingdom=DURATIONS, zones={"p1": {"hand": ["Chapel", "Rocks"]}})
    game.do("p1", "play Chapel")
    game.do("p1", "trash Rocks")
    assert game.player("p1").hand == ("Silver",)


# --- S12: Archive -----------------------------------------------------------------------------


def test_s12_archive_hands_out_its_set_over_three_turns_then_leaves_play() -> None:
    deck = ["Gold", "Province", "Smithy"] + ["Silver"] * 5 + ["Copper"] * 5 + ["Market"] * 5
    game = table(
        kingdom=DURATIONS,
        turn=19,
        zones={
            "p1": {"hand": ["Archive", "Copper", "Copper", "Copper", "Estate"], "deck": deck, "discard": []}
        },
    )
    game.do("p1", "play Archive")
    assert game.state.actions == 1
    assert game.player("p1").lasting[0].sets == (("Gold", "Province", "Smithy"),)
    game.do("p1", _take("Gold"))
    p1 = game.player("p1")
    assert p1.hand == ("Copper", "Copper", "Copper", "Estate", "Gold")
    assert p1.lasting[0].sets == (("Province", "Smithy"),)
    _pass_turn(game, "p1")
    p1 = game.player("p1")
    assert p1.play == ("Archive",)
    assert p1.hand == ("Silver",) * 5
    _pass_turn(game, "p2")
    assert game.state.turn == 21
    assert game.prompts() == [("p1", "archive_take")]
    game.do("p1", _take("Smithy"))
    p1 = game.player("p1")
    assert p1.hand == ("Silver",) * 5 + ("Smithy",)
    assert p1.lasting[0].sets == (("Province",),)
    _pass_turn(game, "p1")
    assert game.player("p1").play == ("Archive",)
    assert game.player("p1").hand == ("Copper",) * 5
    _pass_turn(game, "p2")
    p1 = game.player("p1")
    assert game.state.turn == 23
    assert p1.hand == ("Copper",) * 5 + ("Province",)  # taken automatically
    _pass_turn(game, "p1")
    p1 = game.player("p1")
    assert "Archive" in p1.discard
    assert p1.play == ()
    assert p1.lasting == ()
    assert p1.hand == ("Market",) * 5


def test_archive_on_a_short_deck_shuffles_to_set_aside_three() -> None:
    game = table(
        kingdom=DURATIONS,
        zones={"p1": {"hand": ["Archive"], "deck": ["Gold"], "discard": ["Estate", "Estate"]}},
    )
    game.do("p1", "play Archive")
    assert game.player("p1").lasting[0].sets[0][0] == "Gold"
    assert sorted(game.player("p1").lasting[0].sets[0]) == ["Estate", "Estate", "Gold"]


# --- S13: Enchantress -------------------------------------------------------------------------


def test_s13_enchantress_replaces_the_first_action_and_draws_two_next_turn() -> None:
    game = table(
        kingdom=DURATIONS,
        turn=7,
        zones={
            "p1": {
                "hand": ["Enchantress", "Copper", "Copper", "Copper", "Copper"],
                "deck": ["Silver", "Silver", "Gold", "Gold", "Gold", "Estate", "Estate", "Copper"],
                "discard": [],
            },
            "p2": {
                "hand": ["Village", "Smithy", "Copper", "Copper", "Estate"],
                "deck": ["Silver", "Gold", "Copper", "Estate", "Copper"],
                "discard": [],
            },
        },
    )
    game.do("p1", "play Enchantress")
    assert game.state.actions == 0
    assert game.state.enchantments == ((0, (1,)),)
    game.do("p1", "end")
    game.do("p1", "play treasures Copper, Copper, Copper, Copper")
    game.do("p1", "end")
    p1 = game.player("p1")
    assert p1.play == ("Enchantress",)
    assert p1.hand == ("Silver", "Silver", "Gold", "Gold", "Gold")
    assert game.state.turn == 8
    game.do("p2", "play Village")
    assert game.state.actions == 1
    assert game.player("p2").hand == ("Smithy", "Copper", "Copper", "Estate", "Silver")
    game.do("p2", "play Smithy")
    assert game.state.actions == 0
    assert game.player("p2").hand == ("Copper", "Copper", "Estate", "Silver", "Gold", "Copper", "Estate")
    _pass_turn(game, "p2")
    assert game.state.turn == 9
    assert not game.state.enchantments
    assert len(game.player("p1").hand) == 7
    assert game.player("p1").hand[-2:] == ("Estate", "Estate")
    _pass_turn(game, "p1")
    p1 = game.player("p1")
    assert p1.play == () and p1.lasting == ()
    assert "Enchantress" in p1.discard + p1.deck
    assert game.state.turn == 10 and not game.state.enchantments


def test_a_crowned_enchantress_draws_four_cards_next_turn() -> None:
    game = table(
        kingdom=DURATIONS,
        zones={
            "p1": {"hand": ["Crown", "Enchantress"], "deck": ["Copper"] * 5 + ["Gold"] * 4, "discard": []}
        },
    )
    game.do("p1", "play Crown")
    game.do("p1", "play Enchantress")
    assert game.player("p1").lasting[0].draws == 4
    _pass_turn(game, "p1")
    assert game.player("p1").play == ("Crown", "Enchantress")
    _pass_turn(game, "p2")
    assert game.player("p1").hand == ("Copper",) * 5 + ("Gold",) * 4


def test_an_enchanted_player_crown_played_in_the_buy_phase_is_replaced() -> None:
    game = table(
        kingdom=DURATIONS, phase="buy", zones={"p1": {"hand": ["Crown", "Gold"], "deck": ["Estate"]}}
    )
    game.state = replace(game.state, enchantments=((1, (0,)),))
    game.do("p1", "play treasure Crown")
    assert game.state.prompts == ()
    assert game.state.actions == 2
    assert game.player("p1").hand == ("Gold", "Estate")


# --- Overlord ---------------------------------------------------------------------------------


def test_overlord_becomes_the_chosen_action_and_resolves_it() -> None:
    game = table(kingdom=DURATIONS, zones={"p1": {"hand": ["Overlord"], "deck": ["Copper"] * 3}})
    villages = game.pile("Village")
    game.do("p1", "play Overlord")
    game.do("p1", "gain Village")
    p1 = game.player("p1")
    assert p1.play == ("Overlord>Village",)
    assert game.state.actions == 2
    assert p1.hand == ("Copper",)
    assert game.pile("Village") == villages
    _pass_turn(game, "p1")
    p1 = game.player("p1")
    assert p1.play == ()
    assert "Overlord" in p1.discard + p1.deck + p1.hand


def test_overlord_may_not_choose_a_card_costing_more_than_five() -> None:
    game = table(kingdom=TREASURES, zones={"p1": {"hand": ["Overlord"]}})
    game.do("p1", "play Overlord")
    game.refused("p1", "gain Overlord")
    game.refused("p1", "gain Gold")


def test_a_throne_roomed_overlord_keeps_its_identity_for_the_second_play() -> None:
    game = table(
        kingdom=DURATIONS, zones={"p1": {"hand": ["Throne Room", "Overlord"], "deck": ["Copper"] * 6}}
    )
    game.do("p1", "play Throne Room")
    game.do("p1", "select play Overlord")  # the only Action in hand, asked all the same
    game.do("p1", "gain Market")
    assert game.state.prompts == ()
    assert game.player("p1").play == ("Throne Room", "Overlord>Market")
    assert (game.state.actions, game.state.buys, game.state.coins) == (2, 3, 2)
    assert len(game.player("p1").hand) == 2


def test_an_overlord_acting_as_archive_stays_in_play_as_its_token() -> None:
    game = table(
        kingdom=DURATIONS,
        zones={"p1": {"hand": ["Overlord"], "deck": ["Copper", "Estate", "Estate"] + ["Estate"] * 5}},
    )
    game.do("p1", "play Overlord")
    game.do("p1", "gain Archive")
    game.do("p1", _take("Copper"))
    assert game.player("p1").lasting[0].card == "Overlord>Archive"
    _pass_turn(game, "p1")
    assert game.player("p1").play == ("Overlord>Archive",)


def test_an_enchanted_overlord_chooses_nothing() -> None:
    game = table(kingdom=DURATIONS, zones={"p1": {"hand": ["Overlord"], "deck": ["Copper"]}})
    game.state = replace(game.state, enchantments=((1, (0,)),))
    game.do("p1", "play Overlord")
    assert game.state.prompts == ()
    assert game.player("p1").play == ("Overlord",)
    assert game.state.actions == 1


def test_under_overlord_command_the_supply_card_is_played_and_overlord_keeps_its_name() -> None:
    game = table(
        kingdom=DURATIONS,
        zones={"p1": {"hand": ["Throne Room", "Overlord"], "deck": ["Copper"] * 9}},
        overlord_command=True,
    )
    villages, markets = game.pile("Village"), game.pile("Market")
    game.do("p1", "play Throne Room")
    game.do("p1", "select play Overlord")
    game.do("p1", "gain Village")
    game.do("p1", "gain Market")  # each play chooses anew
    assert game.player("p1").play == ("Throne Room", "Overlord")
    assert (game.state.actions, game.state.buys, game.state.coins) == (3, 2, 1)
    assert (game.pile("Village"), game.pile("Market")) == (villages, markets)


def test_under_overlord_command_a_feast_still_gains_and_overlord_stays_with_an_archive() -> None:
    game = table(
        kingdom=DURATIONS,
        zones={
            "p1": {
                "hand": ["Overlord", "Overlord"],
                "deck": ["Copper", "Estate", "Estate"] * 3,
                "discard": [],
            }
        },
        overlord_command=True,
    )
    game.state = replace(game.state, actions=2)
    game.do("p1", "play Overlord")
    game.do("p1", "gain Feast")
    game.do("p1", "gain Archive")  # Feast's gain: $5
    assert game.state.trash == ()
    assert game.player("p1").discard == ("Archive",)
    game.do("p1", "play Overlord")
    game.do("p1", "gain Archive")
    game.do("p1", _take("Copper"))
    assert game.player("p1").lasting[0].links == ("Overlord",)
    _pass_turn(game, "p1")
    assert game.player("p1").play == ("Overlord",)


# --- Villa ------------------------------------------------------------------------------------


def test_a_villa_bought_goes_to_hand_and_returns_to_the_action_phase_with_a_new_buy_phase_after() -> None:
    game = table(
        kingdom=TREASURES, phase="buy", coins=4, buys=1, zones={"p1": {"hand": ["Copper"], "discard": []}}
    )
    game.state = replace(game.state, actions=0)
    game.do("p1", "buy Villa")
    assert game.player("p1").hand == ("Copper", "Villa")
    assert game.state.phase == "action"
    assert game.state.actions == 1
    game.do("p1", "play Villa")
    assert (game.state.actions, game.state.buys, game.state.coins) == (2, 1, 1)
    game.do("p1", "end")
    assert game.state.phase == "buy"
    assert game.state.buy_phases == 1
    game.do("p1", "play treasure Copper")  # a new Buy phase opens the Treasure window again
    assert game.state.coins == 2


def test_a_villa_gained_in_the_action_phase_only_goes_to_hand_with_an_action() -> None:
    game = table(kingdom=["Villa", *DURATIONS[1:]], zones={"p1": {"hand": ["Feast"], "discard": []}})
    game.do("p1", "play Feast")
    game.do("p1", "gain Villa")
    assert game.player("p1").hand == ("Villa",)
    assert game.state.phase == "action"
    assert game.state.actions == 1


def test_archives_face_down_cards_are_seen_by_their_owner_alone() -> None:
    deck = ["Gold", "Province", "Smithy", "Silver"]
    game = table(kingdom=DURATIONS, zones={"p1": {"hand": ["Archive"], "deck": deck}})
    facts = game.do("p1", "play Archive")
    for viewer in (PUBLIC, Viewer("seat", "p2")):
        text = "".join(RULESET.describe(RULESET.redact(f, viewer), game.config) for f in facts)
        assert "Province" not in text and "Gold" not in text
        view = RULESET.view(game.state, viewer)
        assert all(not d.get("cards") for d in view["decisions"])
        assert "sets" not in view["players"]["p1"]["durations"][0]
    mine = RULESET.view(game.state, Viewer("seat", "p1"))
    assert list(mine["decisions"][0]["cards"]) == ["Gold", "Province", "Smithy"]
    assert all("cards" not in p.bounds for p in RULESET.pending(game.state))


def test_an_overlord_acting_as_feast_trashes_the_overlord_and_gains() -> None:
    game = table(kingdom=DURATIONS, zones={"p1": {"hand": ["Overlord", "Feast"], "discard": []}})
    game.do("p1", "play Overlord")
    game.do("p1", "gain Feast")
    assert game.state.trash == ("Overlord",)
    assert game.player("p1").play == () and game.player("p1").hand == ("Feast",)
    game.do("p1", "gain Archive")
    assert game.player("p1").discard == ("Archive",)
