"""One or more tests per Empires Landmark (dominion.md 5.6), the worked examples S15, S18-S23 and
the Labyrinth part of S4, and the variants `mountain_pass_skipped_if_game_over` and
`defiled_shrine_gain_in_buy_phase`."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games.dominion.engine import Ctx, gain
from domain.games.dominion.events import Bid, GameEnded
from domain.games.dominion.turns import score
from tests.unit.dominion.scenarios import Game, table

KINGDOM = [
    "Catapult/Rocks",
    "Chapel",
    "Crown",
    "Farmers' Market",
    "Gladiator/Fortune",
    "Market",
    "Smithy",
    "Village",
    "Woodcutter",
    "Workshop",
]


def _owning(cards: list[str], **counters: Any) -> dict[str, Any]:
    """Zones holding exactly these cards (all in the deck)."""
    return {"deck": cards, "hand": [], "discard": [], "play": [], **counters}


def _landmark_vp(game: Game) -> dict[str, dict[str, int]]:
    return score(game.state, "test").landmarks


def _with(game: Game, **fields: Any) -> Game:
    game.state = replace(game.state, **fields)
    return game


def _ended(game: Game) -> GameEnded:
    return next(f for f in game.facts if isinstance(f, GameEnded))


# --- Aqueduct ----------------------------------------------------------------------------------


def test_s15_aqueduct_collects_vp_from_treasure_piles_and_pays_them_out_on_a_victory_gain() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Aqueduct"], phase="buy", coins=14, buys=3)
    game.do("p1", "buy Gold")
    assert game.state.coins == 8
    assert game.state.pile_vp["Gold"] == 7 and game.state.landmark_vp["Aqueduct"] == 1
    game.do("p1", "buy Silver")
    assert game.state.coins == 5
    assert game.state.pile_vp["Silver"] == 7 and game.state.landmark_vp["Aqueduct"] == 2
    game.do("p1", "buy Duchy")
    assert game.state.coins == 0
    assert game.state.landmark_vp["Aqueduct"] == 0
    assert game.player("p1").vp == 2


def test_aqueduct_ignores_a_treasure_whose_pile_holds_no_vp() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Aqueduct"], phase="buy", coins=0)
    game.do("p1", "buy Copper")
    assert game.state.landmark_vp["Aqueduct"] == 0
    assert game.state.pile_vp == {"Silver": 8, "Gold": 8}


def test_a_gained_crown_feeds_both_aqueduct_and_defiled_shrine() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Aqueduct", "Defiled Shrine"], phase="buy", coins=5)
    assert game.state.pile_vp["Crown"] == 2
    game.do("p1", "buy Crown")
    assert game.prompts() == [("p1", "turn")]
    assert game.state.pile_vp["Crown"] == 0
    assert game.state.landmark_vp == {"Aqueduct": 1, "Defiled Shrine": 1}


def test_with_one_vp_on_the_crown_pile_the_gainer_chooses_which_landmark_gets_it() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Aqueduct", "Defiled Shrine"], phase="buy", coins=5)
    _with(game, pile_vp={**game.state.pile_vp, "Crown": 1})
    game.do("p1", "buy Crown")
    assert game.prompts() == [("p1", "aqueduct_or_shrine")]
    assert game.player("p1").discard[-1] == "Crown"
    game.do("p1", "choose defiled_shrine")
    assert game.state.pile_vp["Crown"] == 0
    assert game.state.landmark_vp == {"Aqueduct": 0, "Defiled Shrine": 1}


# --- Arena -------------------------------------------------------------------------------------


def test_arena_lets_you_discard_an_action_card_at_the_start_of_your_buy_phase_for_2_vp() -> None:
    game = table(
        kingdom=KINGDOM, landscapes=["Arena"], actions=0, zones={"p1": {"hand": ["Village", "Copper"]}}
    )
    game.do("p1", "end")
    assert game.state.phase == "buy"
    assert game.prompts() == [("p1", "arena")]
    game.do("p1", "discard Village")
    assert game.player("p1").vp == 2
    assert game.state.landmark_vp["Arena"] == 10
    assert game.player("p1").discard[-1] == "Village"
    assert game.player("p1").hand == ("Copper",)


def test_arena_may_be_declined_and_asks_nothing_without_an_action_card() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Arena"], zones={"p1": {"hand": ["Smithy", "Copper"]}})
    game.do("p1", "end")
    game.do("p1", "discard nothing")
    assert game.player("p1").vp == 0 and game.player("p1").hand == ("Smithy", "Copper")
    other = table(kingdom=KINGDOM, landscapes=["Arena"], zones={"p1": {"hand": ["Copper", "Estate"]}})
    other.do("p1", "end")
    assert other.prompts() == [("p1", "turn")]
    assert other.state.phase == "buy"


# --- Basilica ----------------------------------------------------------------------------------


def test_s18_basilica_checks_the_coins_left_after_each_purchase() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Basilica"], phase="buy", coins=4, buys=3)
    game.do("p1", "buy Copper")
    assert game.state.coins == 4 and game.player("p1").vp == 2
    game.do("p1", "buy Copper")
    assert game.player("p1").vp == 4
    game.do("p1", "buy Silver")
    assert game.state.coins == 1
    assert game.player("p1").vp == 4
    assert game.state.landmark_vp["Basilica"] == 8


# --- Baths -------------------------------------------------------------------------------------


def test_baths_gives_2_vp_to_a_player_ending_a_turn_without_gaining() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Baths"], phase="buy")
    game.do("p1", "end")
    assert game.player("p1").vp == 2
    assert game.state.landmark_vp["Baths"] == 10
    assert game.state.current == 1


def test_baths_gives_nothing_after_any_gain_this_turn() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Baths"], phase="buy")
    game.do("p1", "buy Copper")
    game.do("p1", "end")
    assert game.player("p1").vp == 0
    assert game.state.landmark_vp["Baths"] == 12


# --- Battlefield -------------------------------------------------------------------------------


def test_battlefield_gives_2_vp_for_each_victory_card_gained() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Battlefield"], phase="buy", coins=2, buys=2)
    game.do("p1", "buy Estate")
    game.do("p1", "buy Copper")
    assert game.player("p1").vp == 2
    assert game.state.landmark_vp["Battlefield"] == 10


# --- Colonnade ---------------------------------------------------------------------------------


def test_colonnade_gives_2_vp_for_buying_an_action_card_with_a_copy_in_play() -> None:
    game = table(
        kingdom=KINGDOM,
        landscapes=["Colonnade"],
        phase="buy",
        coins=7,
        buys=2,
        zones={"p1": {"play": ["Village"]}},
    )
    game.do("p1", "buy Smithy")
    assert game.player("p1").vp == 0
    game.do("p1", "buy Village")
    assert game.player("p1").vp == 2
    assert game.state.landmark_vp["Colonnade"] == 10


def test_colonnade_does_not_count_the_other_half_of_a_split_pile_as_a_copy() -> None:
    game = table(
        kingdom=KINGDOM,
        landscapes=["Colonnade"],
        phase="buy",
        coins=3,
        zones={"p1": {"play": ["Gladiator"]}},
        supply={"Gladiator/Fortune": ["Fortune"] * 5, "Catapult/Rocks": ["Rocks"] * 5},
    )
    _with(game, supply={**game.state.supply, "Catapult/Rocks": ("Catapult",) * 5})
    game.do("p1", "buy Catapult")
    assert game.player("p1").vp == 0


# --- Defiled Shrine ----------------------------------------------------------------------------


def test_defiled_shrine_moves_a_vp_from_an_action_pile_when_an_action_card_is_gained() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Defiled Shrine"], phase="buy", coins=3)
    game.do("p1", "buy Village")
    assert game.state.pile_vp["Village"] == 1
    assert game.state.landmark_vp["Defiled Shrine"] == 1


def test_buying_a_curse_takes_every_vp_from_defiled_shrine() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Defiled Shrine"], phase="buy", coins=0)
    _with(game, landmark_vp={"Defiled Shrine": 5})
    game.do("p1", "buy Curse")
    assert game.player("p1").vp == 5
    assert game.state.landmark_vp["Defiled Shrine"] == 0


def _gain_curse_in_buy_phase(**variants: Any) -> Game:
    game = table(kingdom=KINGDOM, landscapes=["Defiled Shrine"], phase="buy", **variants)
    _with(game, landmark_vp={"Defiled Shrine": 5})
    ctx = Ctx(game.state, game.rng)
    gain(ctx, 0, "Curse")
    game.state = ctx.state
    return game


def test_a_curse_gained_without_buying_it_takes_nothing_from_defiled_shrine() -> None:
    game = _gain_curse_in_buy_phase()
    assert game.player("p1").vp == 0
    assert game.state.landmark_vp["Defiled Shrine"] == 5


def test_defiled_shrine_gain_in_buy_phase_pays_for_a_curse_gained_in_your_buy_phase() -> None:
    game = _gain_curse_in_buy_phase(defiled_shrine_gain_in_buy_phase=True)
    assert game.player("p1").vp == 5
    assert game.state.landmark_vp["Defiled Shrine"] == 0
    bought = table(
        kingdom=KINGDOM, landscapes=["Defiled Shrine"], phase="buy", defiled_shrine_gain_in_buy_phase=True
    )
    _with(bought, landmark_vp={"Defiled Shrine": 5})
    bought.do("p1", "buy Curse")
    assert bought.player("p1").vp == 5  # paid once, by the gain


def test_defiled_shrine_gain_in_buy_phase_ignores_a_curse_gained_in_the_action_phase() -> None:
    game = table(
        kingdom=KINGDOM,
        landscapes=["Defiled Shrine"],
        zones={"p1": {"hand": ["Workshop"]}},
        defiled_shrine_gain_in_buy_phase=True,
    )
    _with(game, landmark_vp={"Defiled Shrine": 5})
    game.do("p1", "play Workshop")
    game.do("p1", "gain Curse")
    assert game.player("p1").vp == 0
    assert game.state.landmark_vp["Defiled Shrine"] == 5


# --- Labyrinth ---------------------------------------------------------------------------------


def test_labyrinth_gives_2_vp_for_the_second_card_gained_in_a_turn_only() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Labyrinth"], phase="buy", coins=0, buys=3)
    game.do("p1", "buy Copper")
    assert game.player("p1").vp == 0
    game.do("p1", "buy Copper")
    assert game.player("p1").vp == 2
    game.do("p1", "buy Copper")
    assert game.player("p1").vp == 2
    assert game.state.landmark_vp["Labyrinth"] == 10


def test_labyrinth_ignores_gains_made_in_another_players_turn() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Labyrinth"], phase="buy", current="p2")
    _with(game, gained=("Copper",))
    ctx = Ctx(game.state, game.rng)
    gain(ctx, 0, "Copper")
    gain(ctx, 0, "Copper")
    assert ctx.state.players[0].vp == 0


def test_s4_labyrinth_counts_charms_extra_gain_before_the_bought_card() -> None:
    kingdom = [
        "Forum",
        "Laboratory",
        "Market",
        "Village",
        "Smithy",
        "Chapel",
        "Cellar",
        "Moat",
        "Workshop",
        "Woodcutter",
    ]
    game = table(
        kingdom=kingdom,
        landscapes=["Labyrinth"],
        phase="buy",
        coins=0,
        buys=1,
        zones={"p1": {"hand": ["Charm", "Gold", "Gold"], "vp": 0, "debt": 0}},
    )
    duchies, forums = game.pile("Duchy"), game.pile("Forum")
    game.do("p1", "play treasure Charm")
    game.do("p1", "choose extra_gain")
    assert game.state.charms == 1
    game.do("p1", "play treasures Gold, Gold")
    assert game.state.coins == 6
    game.do("p1", "buy Forum")
    assert (game.state.coins, game.state.buys) == (1, 1)
    assert sorted(game.legal("p1")) == ["gain Duchy", "gain Laboratory", "gain Market", "gain nothing"]
    game.do("p1", "gain Duchy")
    assert game.player("p1").vp == 2 and game.state.landmark_vp["Labyrinth"] == 10
    assert game.state.gained == ("Duchy", "Forum")
    game.do("p1", "buy Copper")
    p1 = game.player("p1")
    assert p1.vp == 2 and game.state.buys == 0
    assert p1.discard[-3:] == ("Duchy", "Forum", "Copper")
    assert (game.pile("Duchy"), game.pile("Forum")) == (duchies - 1, forums - 1)
    assert game.state.charms == 0


# --- Mountain Pass -----------------------------------------------------------------------------


def test_mountain_pass_bidding_happens_between_turns_and_the_high_bidder_pays_in_debt() -> None:
    game = table(players=3, kingdom=KINGDOM, landscapes=["Mountain Pass"], phase="buy", coins=8)
    game.do("p1", "buy Province")
    assert game.state.province_gained and game.state.mountain_pass == 0
    assert game.prompts() == [("p1", "turn")]
    game.do("p1", "end")
    assert game.state.current == 0 and game.prompts() == [("p2", "mountain_pass")]
    game.do("p2", "bid 3")
    assert game.prompts() == [("p3", "mountain_pass")]
    game.refused("p3", "bid 3")
    game.do("p3", "pass")
    game.do("p1", "bid 5")
    p1 = game.player("p1")
    assert (p1.vp, p1.debt) == (8, 5)
    assert game.player("p2").debt == 0
    assert game.state.mountain_pass == -1
    assert game.state.current == 1 and game.state.phase == "action"


def test_a_bid_of_40_cannot_be_beaten() -> None:
    game = table(players=3, kingdom=KINGDOM, landscapes=["Mountain Pass"], phase="buy", coins=8)
    game.do("p1", "buy Province")
    game.do("p1", "end")
    game.refused("p2", "bid 41")
    facts = game.do("p2", "bid 40")
    assert [f.amount for f in facts if isinstance(f, Bid)] == [40, None, None]
    assert (game.player("p2").vp, game.player("p2").debt) == (8, 40)
    assert game.state.current == 1


def test_mountain_pass_with_nobody_bidding_gives_nothing_and_never_triggers_again() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Mountain Pass"], phase="buy", coins=16, buys=2)
    game.do("p1", "buy Province")
    game.do("p1", "buy Province")
    game.do("p1", "end")
    game.do("p2", "pass")
    game.do("p1", "pass")
    assert [(pl.vp, pl.debt) for pl in game.state.players] == [(0, 0), (0, 0)]
    assert game.state.current == 1 and game.state.mountain_pass == -1
    _with(game, phase="buy", coins=8)
    game.do("p2", "buy Province")
    assert game.state.mountain_pass == -1


def test_mountain_pass_bidding_still_happens_when_the_turn_ended_the_game() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Mountain Pass"], phase="buy", coins=8, supply={"Province": 1})
    game.do("p1", "buy Province")
    game.do("p1", "end")
    assert game.state.status == "playing" and game.prompts() == [("p2", "mountain_pass")]
    game.do("p2", "bid 1")
    game.do("p1", "pass")
    assert game.state.status == "over"
    assert _ended(game).tokens["p2"] == 8


def test_mountain_pass_skipped_if_game_over_ends_the_game_without_bidding() -> None:
    game = table(
        kingdom=KINGDOM,
        landscapes=["Mountain Pass"],
        phase="buy",
        coins=8,
        supply={"Province": 1},
        mountain_pass_skipped_if_game_over=True,
    )
    game.do("p1", "buy Province")
    game.do("p1", "end")
    assert game.state.status == "over"
    assert not any(isinstance(f, Bid) for f in game.facts)


# --- Tomb --------------------------------------------------------------------------------------


def test_tomb_gives_1_vp_per_card_trashed() -> None:
    game = table(
        kingdom=KINGDOM, landscapes=["Tomb"], zones={"p1": {"hand": ["Chapel", "Copper", "Estate", "Estate"]}}
    )
    game.do("p1", "play Chapel")
    game.do("p1", "trash Copper, Estate, Estate")
    assert game.player("p1").vp == 3


# --- scoring landmarks -------------------------------------------------------------------------


def test_bandit_fort_costs_2_vp_per_silver_and_gold() -> None:
    game = table(
        kingdom=KINGDOM,
        landscapes=["Bandit Fort"],
        zones={"p1": _owning(["Silver", "Gold", "Gold", "Copper"])},
    )
    assert _landmark_vp(game)["p1"] == {"Bandit Fort": -6}


def test_fountain_gives_15_vp_for_ten_coppers() -> None:
    game = table(
        kingdom=KINGDOM,
        landscapes=["Fountain"],
        zones={"p1": _owning(["Copper"] * 10), "p2": _owning(["Copper"] * 9)},
    )
    landmarks = _landmark_vp(game)
    assert landmarks["p1"] == {"Fountain": 15} and landmarks["p2"] == {"Fountain": 0}


def test_museum_gives_2_vp_per_differently_named_card() -> None:
    game = table(
        kingdom=KINGDOM,
        landscapes=["Museum"],
        zones={"p1": _owning(["Copper", "Copper", "Estate", "Village"])},
    )
    assert _landmark_vp(game)["p1"] == {"Museum": 6}


def test_obelisk_counts_both_halves_of_its_split_pile() -> None:
    game = table(
        kingdom=KINGDOM,
        landscapes=["Obelisk"],
        obelisk="Catapult/Rocks",
        zones={"p1": _owning(["Catapult", "Rocks", "Rocks", "Village"])},
    )
    assert game.state.obelisk == "Catapult/Rocks"
    assert _landmark_vp(game)["p1"] == {"Obelisk": 6}


def test_orchard_gives_4_vp_per_action_name_with_three_copies() -> None:
    cards = ["Village"] * 3 + ["Smithy"] * 4 + ["Market"] * 2 + ["Copper"] * 5
    game = table(kingdom=KINGDOM, landscapes=["Orchard"], zones={"p1": _owning(cards)})
    assert _landmark_vp(game)["p1"] == {"Orchard": 8}


def test_palace_gives_3_vp_per_set_of_copper_silver_and_gold() -> None:
    cards = ["Copper"] * 5 + ["Silver"] * 2 + ["Gold"] * 3
    game = table(kingdom=KINGDOM, landscapes=["Palace"], zones={"p1": _owning(cards)})
    assert _landmark_vp(game)["p1"] == {"Palace": 6}


def test_tower_counts_non_victory_cards_from_empty_piles() -> None:
    game = table(
        kingdom=KINGDOM,
        landscapes=["Tower"],
        zones={"p1": _owning(["Curse", "Village", "Village", "Estate", "Smithy"])},
        supply={"Curse": 0, "Village": 0, "Estate": 0},
    )
    assert _landmark_vp(game)["p1"] == {"Tower": 3}


def test_s20_triumphal_arch_scores_the_second_highest_action_count() -> None:
    game = table(
        players=3,
        kingdom=KINGDOM,
        landscapes=["Triumphal Arch"],
        zones={
            "p1": _owning(
                ["Villa"] * 7
                + ["Wild Hunt"] * 4
                + ["Forum"] * 2
                + ["Copper"] * 7
                + ["Estate"] * 3
                + ["Province"]
            ),
            "p2": _owning(["Villa"] * 3 + ["Forum"] * 3 + ["Crown"] + ["Copper"] * 7 + ["Estate"] * 3),
            "p3": _owning(["Smithy"] * 10 + ["Copper"] * 7 + ["Estate"] * 3),
        },
    )
    ended = score(game.state, "test")
    assert {s: v["Triumphal Arch"] for s, v in ended.landmarks.items()} == {"p1": 12, "p2": 9, "p3": 0}
    assert ended.scores == {"p1": 21, "p2": 12, "p3": 3}


def test_s21_wall_costs_1_vp_per_card_beyond_15_and_never_adds() -> None:
    game = table(
        players=3,
        kingdom=KINGDOM,
        landscapes=["Wall"],
        zones={
            "p1": _owning(
                ["Copper"] * 7
                + ["Silver"] * 7
                + ["Gold"] * 3
                + ["Estate"] * 3
                + ["Province"] * 2
                + ["Village"] * 5
            ),
            "p2": _owning(["Copper"] * 7 + ["Estate"] * 3 + ["Smithy"] * 5 + ["Province"]),
            "p3": _owning(["Copper"] * 7 + ["Estate"] * 3 + ["Smithy"] * 4),
        },
    )
    ended = score(game.state, "test")
    assert ended.scores == {"p1": 3, "p2": 8, "p3": 3}
    assert ended.landmarks["p3"] == {"Wall": 0}


def test_s22_keep_pays_every_player_tied_for_the_most_copies_of_a_treasure() -> None:
    game = table(
        players=3,
        kingdom=KINGDOM,
        landscapes=["Keep"],
        zones={
            "p1": _owning(["Copper"] * 7 + ["Silver"] * 3 + ["Gold", "Capital"]),
            "p2": _owning(["Copper"] * 7 + ["Silver"] * 4),
            "p3": _owning(["Copper"] * 6 + ["Silver"] * 4 + ["Gold", "Humble Castle"]),
        },
    )
    keep = {s: v["Keep"] for s, v in _landmark_vp(game).items()}
    assert keep == {"p1": 15, "p2": 10, "p3": 15}


def test_wolf_den_costs_3_vp_per_name_held_exactly_once() -> None:
    game = table(
        kingdom=KINGDOM,
        landscapes=["Wolf Den"],
        zones={"p1": _owning(["Copper", "Copper", "Estate", "Smithy"])},
    )
    assert _landmark_vp(game)["p1"] == {"Wolf Den": -6}


def test_s23_several_scoring_landmarks_add_up() -> None:
    cards = (
        ["Copper"] * 10
        + ["Silver"] * 3
        + ["Gold"] * 2
        + ["Catapult"] * 2
        + ["Rocks"] * 3
        + ["Village"] * 3
        + ["Smithy"]
        + ["Estate"] * 3
        + ["Province"] * 2
        + ["Curse"]
    )
    landmarks = [
        "Obelisk",
        "Palace",
        "Tower",
        "Orchard",
        "Museum",
        "Fountain",
        "Bandit Fort",
        "Wolf Den",
        "Wall",
    ]
    game = table(
        kingdom=KINGDOM,
        landscapes=landmarks,
        obelisk="Catapult/Rocks",
        zones={"p1": _owning(cards, vp=0)},
        supply={"Curse": 0, "Village": 0},
    )
    ended = score(game.state, "test")
    assert ended.card_vp["p1"] == 14
    assert ended.landmarks["p1"] == {
        "Bandit Fort": -10,
        "Fountain": 15,
        "Museum": 20,
        "Obelisk": 10,
        "Orchard": 4,
        "Palace": 6,
        "Tower": 4,
        "Wall": -15,
        "Wolf Den": -6,
    }
    assert ended.scores["p1"] == 42


# --- S19: the end of the game ------------------------------------------------------------------


def _s19(current: str, turns: tuple[int, int], **variants: Any) -> Game:
    """Both players at 30 VP once the current player buys the last Estate."""
    others = ["Copper"] * 7
    p1_estates = 5 if current == "p1" else 6
    p2_estates = 5 if current == "p1" else 4
    return table(
        current=current,
        phase="buy",
        coins=2,
        turn=31 if current == "p1" else 32,
        zones={
            "p1": {
                "deck": ["Estate"] * p1_estates + ["Province"] * 3 + ["Duchy"] * 3 + ["Curse"] * 3,
                "hand": [],
                "discard": others,
                "play": [],
                "vp": 0,
                "turns": turns[0],
            },
            "p2": {
                "deck": ["Estate"] * p2_estates + ["Province"] * 4 + ["Duchy"] + ["Curse"] * 3,
                "hand": [],
                "discard": others,
                "play": [],
                "vp": 1,
                "turns": turns[1],
            },
        },
        supply={"Curse": 0, "Village": 0, "Estate": 1, "Province": 1},
        **variants,
    )


def test_s19_a_third_empty_pile_ends_the_game_and_the_tie_goes_to_fewer_turns() -> None:
    game = _s19("p1", (16, 15))
    game.do("p1", "buy Estate")
    assert game.pile("Estate") == 0
    game.do("p1", "end")
    ended = _ended(game)
    assert ended.reason == "piles_empty"
    assert ended.scores == {"p1": 30, "p2": 30}
    assert ended.winners == ("p2",)


def test_s19_under_tiebreak_earlier_seat_loses_p2_wins_as_well() -> None:
    game = _s19("p1", (16, 15), tiebreak_earlier_seat_loses=True)
    game.do("p1", "buy Estate")
    game.do("p1", "end")
    assert _ended(game).winners == ("p2",)


def test_s19_part_b_a_tie_with_equal_turns_is_a_shared_victory() -> None:
    game = _s19("p2", (16, 16))
    game.do("p2", "buy Estate")
    game.do("p2", "end")
    ended = _ended(game)
    assert ended.scores == {"p1": 30, "p2": 30}
    assert ended.winners == ("p1", "p2")


def test_s19_part_b_under_tiebreak_earlier_seat_loses_the_later_seat_wins() -> None:
    game = _s19("p2", (16, 16), tiebreak_earlier_seat_loses=True)
    game.do("p2", "buy Estate")
    game.do("p2", "end")
    assert _ended(game).winners == ("p2",)
