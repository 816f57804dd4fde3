"""A physical table recorded through the engine (dominion.md 6.4): the recorder enters the
kingdom, the first player and every card taken from an unseen deck; impossible draws and
illegal buys are rejected with the rule."""

from __future__ import annotations

from domain.games.dominion import RULESET
from domain.games.dominion.actions import ObserveCards
from domain.games.dominion.events import KingdomChosen
from domain.ruleset import PUBLIC
from tests.unit.dominion.scenarios import Game, config

KINGDOM = "kingdom Cellar, Market, Militia, Mine, Moat, Remodel, Smithy, Village, Woodcutter, Workshop"


def _started() -> Game:
    game = Game(config(2, mode="physical"))
    game.do(None, KINGDOM)
    game.do(None, "first p2")
    game.do(None, "observe Copper, Copper, Estate, Copper, Copper")
    game.do(None, "observe Copper, Estate, Estate, Copper, Copper")
    return game


def test_a_physical_game_asks_the_recorder_for_the_kingdom_and_the_first_player() -> None:
    game = Game(config(2, mode="physical"))
    assert game.prompts() == [(None, "kingdom")]
    rejection = game.refused(None, "kingdom Cellar, Market, Militia")
    assert rejection.code == "kingdom_size" and rejection.rule == "dominion 1.5"
    game.do(None, KINGDOM)
    assert game.prompts() == [(None, "first_player")]
    game.do(None, "first p2")
    assert game.state.first == 1
    assert game.prompts() == [(None, "observe")]
    assert RULESET.pending(game.state)[0].bounds["player"] == "p2"


def test_the_recorder_enters_each_draw_from_an_unseen_deck() -> None:
    game = _started()
    assert game.state.status == "playing" and game.state.current == 1
    assert sorted(game.player("p2").hand) == ["Copper"] * 4 + ["Estate"]
    assert sorted(game.player("p2").unknown) == ["Copper"] * 3 + ["Estate"] * 2
    assert game.prompts() == [("p2", "turn")]


def test_an_impossible_recorded_draw_is_rejected_with_the_rule() -> None:
    game = Game(config(2, mode="physical"))
    game.do(None, KINGDOM)
    game.do(None, "first p1")
    rejection = game.refused(None, "observe Copper, Gold")
    assert rejection.code == "card_not_in_deck"
    assert rejection.rule == "dominion 6.4"
    assert "Gold" in rejection.message
    too_many = game.refused(None, "observe Estate, Estate, Estate, Estate")
    assert too_many.code == "card_not_in_deck"


def test_only_the_recorder_enters_what_the_table_saw() -> None:
    game = Game(config(2, mode="physical"))
    game.do(None, KINGDOM)
    game.do(None, "first p1")
    assert game.refused("p1", ObserveCards(("Copper",))).code == "recorder_only"


def test_an_illegal_buy_is_rejected_with_the_rule() -> None:
    game = _started()
    game.do("p2", "end")
    game.do("p2", "play treasures Copper, Copper, Copper, Copper")
    rejection = game.refused("p2", "buy Gold")
    assert rejection.code == "cannot_afford" and rejection.rule == "dominion 4.2"
    assert game.refused("p1", "buy Silver").code == "not_your_turn"
    game.do("p2", "buy Silver")
    assert game.refused("p2", "buy Silver").code == "no_buys"


def test_a_physical_game_plays_through_a_reshuffle_and_rejects_a_gold_that_is_not_there() -> None:
    game = _started()
    # p2's first turn: buy a Silver; the clean-up draws the other 5 starting cards.
    for action in ("end", "play treasures Copper, Copper, Copper, Copper", "buy Silver", "end"):
        game.do("p2", action)
    game.do(None, "observe Copper, Copper, Copper, Estate, Estate")
    # p1's turn: a Woodcutter-less $3 buys a Silver too.
    for action in ("end", "play treasures Copper, Copper, Copper", "buy Silver", "end"):
        game.do("p1", action)
    game.do(None, "observe Copper, Copper, Copper, Copper, Estate")
    # p2 again: nothing bought; the clean-up must reshuffle 11 cards: a Gold cannot be drawn.
    game.do("p2", "end")
    game.do("p2", "end")
    assert game.player("p2").deck == () and len(game.player("p2").unknown) == 11
    rejection = game.refused(None, "observe Gold")
    assert rejection.code == "card_not_in_deck" and rejection.rule == "dominion 6.4"
    game.do(None, "observe Silver, Copper, Copper, Copper, Copper")
    assert sorted(game.player("p2").hand) == ["Copper"] * 4 + ["Silver"]
    assert any("shuffles 11 cards" in line for line in game.lines())


def test_a_deck_of_one_card_name_is_observed_without_asking() -> None:
    game = _started()
    for action in ("end", "play treasures Copper, Copper, Copper, Copper", "end"):
        game.do("p2", action)
    game.do(None, "observe Copper, Copper, Copper, Estate")
    # One Estate left unseen: it is the only possibility and is drawn at once.
    assert game.prompts() == [("p1", "turn")]
    assert sorted(game.player("p2").hand) == ["Copper"] * 3 + ["Estate"] * 2


def test_a_physical_game_replays_step_by_step_from_its_facts() -> None:
    game = _started()
    state = RULESET.initial(game.config)
    for fact in game.facts:
        state = RULESET.evolve(state, fact)
    assert state == game.state


def test_a_shuffle_the_table_announces_is_checked_against_the_engines() -> None:
    game = Game(config(2, mode="physical"))
    game.do(None, KINGDOM)
    early = game.refused(None, "shuffle p1")
    assert early.code == "no_shuffle_due" and early.rule == "dominion 4.8"
    game.do(None, "first p1")
    # p1's starting cards are shuffled; p2's are not yet (they are dealt after p1 drew).
    assert game.refused(None, "shuffle p2").code == "no_shuffle_due"
    facts = game.do(None, "shuffle p1")
    assert game.lines(facts) == ["The table says Ann shuffled, as the engine did."]
    assert game.refused(None, "shuffle p1").code == "no_shuffle_due"  # announced once
    assert game.prompts() == [(None, "observe")]  # the draw still waits for its cards
    game.do(None, "observe Copper, Copper, Copper, Estate, Estate")
    game.do(None, "shuffle p2")
    assert game.refused("p1", "shuffle p2", by="seat").code == "recorder_only"


def test_a_kingdom_the_table_typed_in_is_logged_as_chosen() -> None:
    game = Game(config(2, mode="physical"))  # the kingdom option is `random`
    game.do(None, KINGDOM)
    chosen = next(f for f in game.facts if isinstance(f, KingdomChosen))
    assert chosen.method == "manual"
    assert RULESET.view(game.state, PUBLIC)["kingdom_method"] == "manual"
    assert RULESET.boundary(chosen) is None
