"""The Castles of Empires (dominion.md 1.7, 5.4) and their rulings (8.17, 8.25)."""

from __future__ import annotations

from domain.games.dominion import RULESET
from domain.games.dominion.engine import Ctx, gain, run
from domain.games.dominion.turns import card_vp
from domain.ruleset import Viewer
from tests.unit.dominion.scenarios import Game, table

KINGDOM = [
    "Castles",
    "Temple",
    "Sacrifice",
    "Engineer",
    "Forum",
    "Legionary",
    "Village",
    "Throne Room",
    "Remodel",
    "Workshop",
]
EIGHT = [
    "Humble Castle",
    "Crumbling Castle",
    "Small Castle",
    "Haunted Castle",
    "Opulent Castle",
    "Sprawling Castle",
    "Grand Castle",
    "King's Castle",
]


def castles_from(top: str) -> list[str]:
    return EIGHT[EIGHT.index(top) :]


def buying(top: str, coins: int, **zones: dict[str, object]) -> Game:
    return table(
        kingdom=KINGDOM,
        phase="buy",
        coins=coins,
        supply={"Castles": castles_from(top)},
        zones={"p1": {"vp": 0, "discard": []}, **zones},
    )


def test_only_the_top_castle_can_be_bought() -> None:
    game = buying("Humble Castle", 10)
    assert game.refused("p1", "buy King's Castle").code == "not_on_top"
    game.do("p1", "buy Castles")
    assert game.player("p1").discard == ("Humble Castle",)
    assert game.state.supply["Castles"][0] == "Crumbling Castle"


def test_humble_castle_is_a_treasure_worth_a_vp_per_castle() -> None:
    game = table(kingdom=KINGDOM, phase="buy", zones={"p1": {"hand": ["Humble Castle", "Copper"]}})
    game.do("p1", "play treasures Humble Castle, Copper")
    assert game.state.coins == 2
    assert card_vp(("Humble Castle", "Small Castle", "Estate")) == 2 + 2 + 1


def test_kings_castle_is_worth_two_vp_per_castle() -> None:
    assert card_vp(("King's Castle", "Humble Castle", "Duchy")) == 4 + 2 + 3
    assert card_vp(("King's Castle", "King's Castle")) == 8


def test_crumbling_castle_gives_a_vp_and_a_silver_when_gained() -> None:
    game = buying("Crumbling Castle", 4)
    game.do("p1", "buy Crumbling Castle")
    assert game.player("p1").vp == 1
    assert game.player("p1").discard == ("Crumbling Castle", "Silver")


def test_crumbling_castle_gives_a_vp_and_a_silver_when_trashed() -> None:
    game = table(
        kingdom=KINGDOM, zones={"p1": {"hand": ["Chapel", "Crumbling Castle"], "vp": 0, "discard": []}}
    )
    game.do("p1", "play Chapel")
    game.do("p1", "trash Crumbling Castle")
    assert game.player("p1").vp == 1
    assert game.player("p1").discard == ("Silver",)


def test_small_castle_trashing_itself_gains_the_top_castle() -> None:
    game = table(
        kingdom=KINGDOM,
        supply={"Castles": castles_from("Grand Castle")},
        zones={"p1": {"hand": ["Small Castle", "Copper"], "discard": []}},
    )
    game.do("p1", "play Small Castle")
    assert sorted(game.legal("p1")) == ["choose none", "choose this"]
    game.do("p1", "choose this")
    assert game.state.trash == ("Small Castle",)
    assert game.player("p1").play == ()
    assert game.player("p1").discard == ("Grand Castle",)


def test_small_castle_with_a_castle_in_hand_must_trash_a_castle() -> None:
    game = table(
        kingdom=KINGDOM,
        supply={"Castles": castles_from("Opulent Castle")},
        zones={"p1": {"hand": ["Small Castle", "Humble Castle", "King's Castle"], "discard": []}},
    )
    game.do("p1", "play Small Castle")
    assert sorted(game.legal("p1")) == ["choose humble_castle", "choose king's_castle", "choose this"]
    game.do("p1", "choose humble castle")
    assert game.state.trash == ("Humble Castle",)
    assert game.player("p1").play == ("Small Castle",)
    assert game.player("p1").discard == ("Opulent Castle",)


def test_small_castle_choosing_none_trashes_and_gains_nothing() -> None:
    game = table(kingdom=KINGDOM, zones={"p1": {"hand": ["Small Castle", "Copper"], "discard": []}})
    game.do("p1", "play Small Castle")
    game.do("p1", "choose none")
    assert game.state.trash == ()
    assert game.player("p1").discard == ()


def test_haunted_castle_gained_on_your_turn_gains_gold_and_others_topdeck_two_in_order() -> None:
    game = buying(
        "Haunted Castle",
        6,
        p2={"hand": ["Copper", "Estate", "Silver", "Copper", "Copper"], "deck": ["Gold"]},
    )
    game.do("p1", "buy Haunted Castle")
    assert game.player("p1").discard == ("Haunted Castle", "Gold")
    assert game.prompts() == [("p2", "haunted")]
    assert game.refused("p2", "topdeck Estate").code == "wrong_count"
    facts = game.do("p2", "topdeck Silver, Estate")
    p2 = game.player("p2")
    assert p2.deck == ("Estate", "Silver", "Gold")
    assert sorted(p2.hand) == ["Copper", "Copper", "Copper"]
    # Unrevealed (6.5): the other players read only how many cards went onto the deck.
    seen = [RULESET.describe(RULESET.redact(f, Viewer("seat", "p1")), game.config) for f in facts]
    assert "Bob puts 2 cards onto their deck." in seen and not any("Silver" in line for line in seen)


def test_haunted_castle_leaves_a_player_with_four_cards_alone() -> None:
    game = buying("Haunted Castle", 6, p2={"hand": ["Copper"] * 4})
    game.do("p1", "buy Haunted Castle")
    assert game.prompts() == [("p1", "turn")]
    assert len(game.player("p2").hand) == 4


def test_haunted_castle_gained_on_another_players_turn_does_nothing() -> None:
    game = table(
        kingdom=KINGDOM,
        supply={"Castles": castles_from("Haunted Castle")},
        zones={"p1": {"hand": ["Copper"] * 5}, "p2": {"discard": []}},
    )
    ctx = Ctx(game.state, game.rng)
    gain(ctx, 1, "Castles")
    run(ctx)
    assert ctx.state.players[1].discard == ("Haunted Castle",)
    assert ctx.prompts == []


def test_opulent_castle_discards_victory_cards_for_two_coins_each() -> None:
    game = table(
        kingdom=KINGDOM,
        zones={"p1": {"hand": ["Opulent Castle", "Estate", "Duchy", "Copper"], "discard": []}},
    )
    game.do("p1", "play Opulent Castle")
    game.do("p1", "discard Estate, Duchy")
    assert game.state.coins == 4
    assert game.player("p1").hand == ("Copper",)
    assert game.player("p1").discard == ("Estate", "Duchy")


def test_sprawling_castle_may_gain_a_duchy() -> None:
    game = buying("Sprawling Castle", 8)
    game.do("p1", "buy Sprawling Castle")
    game.do("p1", "choose duchy")
    assert game.player("p1").discard == ("Sprawling Castle", "Duchy")


def test_sprawling_castle_gains_as_many_of_three_estates_as_remain() -> None:
    game = table(
        kingdom=KINGDOM,
        phase="buy",
        coins=8,
        supply={"Castles": castles_from("Sprawling Castle"), "Estate": 2},
        zones={"p1": {"discard": []}},
    )
    game.do("p1", "buy Sprawling Castle")
    game.do("p1", "choose estates")
    assert game.player("p1").discard == ("Sprawling Castle", "Estate", "Estate")
    assert game.pile("Estate") == 0


def test_grand_castle_counts_victory_cards_in_hand_and_in_play() -> None:
    game = buying(
        "Grand Castle",
        9,
        p1={"hand": ["Estate", "Province", "Copper"], "play": ["Humble Castle", "Silver"], "vp": 0},
    )
    game.do("p1", "buy Grand Castle")
    assert game.player("p1").vp == 3
    assert "Ann reveals an Estate, a Province and a Copper." in game.lines()


def test_small_castle_played_twice_by_throne_room_trashes_itself_only_once() -> None:
    game = table(
        kingdom=KINGDOM,
        supply={"Castles": castles_from("Opulent Castle")},
        zones={"p1": {"hand": ["Throne Room", "Small Castle", "Humble Castle"], "discard": []}},
    )
    game.do("p1", "play Throne Room")
    game.do("p1", "select play Small Castle")  # the only Action in hand, asked all the same (4.3 rule 4)
    game.do("p1", "choose this")
    assert game.player("p1").play == ("Throne Room",)
    assert game.state.trash == ("Small Castle", "Humble Castle")
    assert game.player("p1").discard == ("Opulent Castle", "Sprawling Castle")
    assert game.prompts() == [("p1", "sprawling")]


def test_groundskeeper_in_play_gives_a_vp_for_a_gained_castle() -> None:
    game = buying("Humble Castle", 3, p1={"play": ["Groundskeeper"], "vp": 0, "discard": []})
    game.do("p1", "buy Castles")
    assert game.player("p1").vp == 1
