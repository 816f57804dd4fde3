"""Phases, buying, Clean-up, the end of the game and scoring (dominion.md 3, 4.2, 4.8, 7)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.dominion import RULESET
from domain.games.dominion.turns import game_over
from tests.unit.dominion.scenarios import Game, table


def _at_the_table(game: Game) -> Game:
    game.state = replace(game.state, mode="physical")
    return game


def test_a_treasure_played_in_the_action_phase_of_a_digital_game_is_refused() -> None:
    game = table(zones={"p1": {"hand": ["Copper"]}})
    rejection = game.refused("p1", "play treasure Copper")
    assert rejection.code == "wrong_phase" and rejection.rule == "dominion 3.3"


def test_a_treasure_played_in_the_action_phase_at_a_table_ends_it_first() -> None:
    game = _at_the_table(table(zones={"p1": {"hand": ["Copper", "Silver"]}}))
    facts = game.do("p1", "play Copper")
    assert game.lines(facts) == ["Ann goes to the Buy phase.", "Ann plays a Copper (+$1)."]
    assert game.state.phase == "buy" and game.state.coins == 1


def test_a_buy_in_the_action_phase_ends_it_first_and_a_refused_one_changes_nothing() -> None:
    game = _at_the_table(table(coins=3, zones={"p1": {"hand": ["Copper"]}}))
    assert game.refused("p1", "buy Gold").code == "cannot_afford"
    assert game.state.phase == "action"
    facts = game.do("p1", "buy Silver")
    assert game.lines(facts)[:2] == ["Ann goes to the Buy phase.", "Ann buys a Silver."]
    assert game.refused("p1", "play Copper").code == "treasures_closed"


def test_an_arena_at_the_start_of_the_buy_phase_must_be_answered_before_a_treasure() -> None:
    game = table(
        kingdom=[
            "Village",
            "Smithy",
            "Market",
            "Cellar",
            "Chapel",
            "Moat",
            "Mine",
            "Militia",
            "Remodel",
            "Workshop",
        ],
        landscapes=["Arena"],
        zones={"p1": {"hand": ["Copper", "Village"]}},
    )
    game = _at_the_table(game)
    rejection = game.refused("p1", "play Copper")
    assert rejection.code == "buy_phase_decision" and rejection.rule == "dominion 3.4"
    assert "play treasure Copper" not in game.legal("p1")


def test_an_action_needs_an_action_left() -> None:
    game = table(actions=0, zones={"p1": {"hand": ["Village"]}})
    assert game.refused("p1", "play Village").code == "no_actions"


def test_a_card_not_in_hand_cannot_be_played() -> None:
    game = table(zones={"p1": {"hand": ["Copper"]}})
    assert game.refused("p1", "play Village").code == "not_in_hand"


def test_buying_costs_coins_and_a_buy_and_closes_the_treasure_window() -> None:
    game = table(phase="buy", zones={"p1": {"hand": ["Silver", "Copper", "Copper"]}})
    game.do("p1", "play treasures Silver, Copper")
    assert game.refused("p1", "buy Gold").code == "cannot_afford"
    game.do("p1", "buy Silver")
    assert game.state.coins == 0 and game.state.buys == 0 and game.pile("Silver") == 39
    rejection = game.refused("p1", "play Copper")
    assert rejection.code == "treasures_closed"


def test_an_empty_pile_cannot_be_bought() -> None:
    game = table(phase="buy", coins=5, supply={"Duchy": 0})
    rejection = game.refused("p1", "buy Duchy")
    assert rejection.code == "pile_empty" and rejection.rule == "dominion 4.2"


def test_a_pile_not_in_the_game_cannot_be_bought() -> None:
    game = table(phase="buy", coins=5)
    assert game.refused("p1", "buy Witch").code == "unknown_pile"


def test_clean_up_discards_play_and_hand_draws_five_and_passes_the_turn() -> None:
    game = table(
        phase="buy",
        zones={
            "p1": {"hand": ["Estate", "Copper"], "play": ["Village"], "deck": ["Gold"] * 6, "discard": []}
        },
    )
    game.do("p1", "end")
    p1 = game.player("p1")
    assert p1.hand == ("Gold",) * 5 and p1.discard == ("Village", "Estate", "Copper") and p1.deck == ("Gold",)
    assert game.state.current == 1 and game.state.phase == "action" and game.state.turn == 2


def test_clean_up_shuffles_the_discard_pile_only_when_the_deck_runs_out() -> None:
    game = table(
        phase="buy",
        zones={
            "p1": {"hand": ["Estate"], "play": [], "deck": ["Gold", "Gold"], "discard": ["Copper", "Copper"]}
        },
    )
    game.do("p1", "end")
    p1 = game.player("p1")
    assert sorted(p1.hand) == ["Copper", "Copper", "Estate", "Gold", "Gold"]
    assert p1.deck == () and p1.discard == ()
    lines = game.lines()
    assert lines.index("Ann draws 2 Golds.") < lines.index("Ann shuffles 3 cards.")


def test_the_game_ends_when_the_province_pile_is_empty() -> None:
    game = table(phase="buy", coins=8, supply={"Province": 1})
    game.do("p1", "buy Province")
    assert game.state.status == "playing"
    game.do("p1", "end")
    outcome = RULESET.outcome(game.state)
    assert outcome is not None and outcome.reason == "province_pile_empty"


def test_four_players_need_a_fourth_empty_pile_only_under_the_variant() -> None:
    game = table(players=4, supply={"Curse": 0, "Estate": 0, "Village": 0})
    assert game_over(game.state) == "piles_empty"
    variant = table(
        players=4, supply={"Curse": 0, "Estate": 0, "Village": 0}, four_piles_at_four_players=True
    )
    assert game_over(variant.state) is None
    variant4 = table(
        players=4,
        supply={"Curse": 0, "Estate": 0, "Village": 0, "Smithy": 0},
        four_piles_at_four_players=True,
    )
    assert game_over(variant4.state) == "piles_empty"


def test_three_players_are_not_touched_by_the_four_pile_variant() -> None:
    game = table(players=3, supply={"Curse": 0, "Estate": 0, "Village": 0}, four_piles_at_four_players=True)
    assert game_over(game.state) == "piles_empty"


def test_answers_are_refused_when_no_decision_is_open() -> None:
    game = table(zones={"p1": {"hand": ["Copper"]}})
    rejection = game.refused("p1", "trash Copper")
    assert rejection.code == "not_now" and rejection.rule == "dominion 4.3"


def test_the_game_over_refuses_every_action() -> None:
    game = table(phase="buy", coins=8, supply={"Province": 1})
    game.do("p1", "buy Province")
    game.do("p1", "end")
    assert game.refused("p2", "end").code == "game_over"
    assert RULESET.legal_actions(game.state, "p2") == ()
