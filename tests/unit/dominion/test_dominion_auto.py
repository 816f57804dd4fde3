"""Decisions the engine answers itself are logged as such (dominion.md 4.1, 4.3 rule 3), while a
forced decline among cards only the player sees looks like a voluntary one (4.3 rule 4)."""

from __future__ import annotations

from domain.games.dominion.events import AutoResolved, Reacted
from tests.unit.dominion.scenarios import Game, config, table

KINGDOM = "kingdom Cellar, Market, Militia, Mine, Moat, Remodel, Smithy, Village, Woodcutter, Workshop"


def test_a_decision_with_one_legal_answer_is_logged_as_answered_by_the_engine() -> None:
    # Every pile costing up to $4 but Silver is empty: Workshop's gain has one answer.
    empty = (
        "Copper",
        "Curse",
        "Estate",
        "Cellar",
        "Moat",
        "Village",
        "Woodcutter",
        "Militia",
        "Remodel",
        "Smithy",
    )
    game = table(zones={"p1": {"hand": ["Workshop"]}}, supply=dict.fromkeys((*empty, "Workshop"), 0))
    facts = game.do("p1", "play Workshop")
    assert [f for f in facts if isinstance(f, AutoResolved)] == [AutoResolved("p1", "gain", "Workshop")]
    lines = game.lines(facts)
    auto = "Ann has one possible answer (Workshop): the engine gives it."
    assert lines.index(auto) == lines.index("Ann gains a Silver.") - 1


def test_a_deck_of_one_name_is_entered_by_the_engine_and_logged_so() -> None:
    game = Game(config(2, mode="physical"))
    game.do(None, KINGDOM)
    game.do(None, "first p1")
    game.do(None, "observe Copper, Copper, Estate, Estate, Estate")
    assert AutoResolved(None, "observe") not in game.facts
    game.do(None, "observe Copper, Copper, Copper, Estate, Estate")
    for action in ("end", "play treasures Copper, Copper", "end"):
        game.do("p1", action)
    # p1's five unseen cards are all Coppers: the table is not asked.
    assert AutoResolved(None, "observe") in game.facts


def test_a_forced_decline_of_a_moat_looks_like_a_voluntary_one() -> None:
    game = table(zones={"p1": {"hand": ["Militia"]}, "p2": {"hand": ["Copper"] * 5}})
    facts = game.do("p1", "play Militia")
    assert Reacted("p2", None, "Militia") in facts
    assert not any(isinstance(f, AutoResolved) for f in facts)
