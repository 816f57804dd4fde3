"""Dominion statistics (domain/games/dominion/stats.py): the gains of one game, and the
`dominion_cards` table over hand-built games with every figure computed by hand."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from domain.games.dominion import RULESET
from domain.games.dominion.data import DATA
from domain.games.dominion.events import Fact, Gained, KingdomChosen, TurnStarted
from domain.games.dominion.stats import per_game, tables
from domain.rng import SeededRng
from domain.ruleset import Command, Rejection
from projections.tables import Table
from tests.unit.dominion.scenarios import config

# Game 1 (2 players, p1 wins): p1 gains Smithy in its turns 1 and 5 and Witch in turn 3; p2
# gains Village in its turns 2, 3, 4 and 9. Game 2 (3 players, p2 and p3 share first place, a
# draw for both): p1
# gains Smithy in turn 2, p2 nothing, p3 Smithy in turns 4 and 10 and Moat in turn 1; Chapel
# is in the kingdom and nobody gains it. Game 3 has no Dominion figures and is left out.
GAMES: list[dict[str, Any]] = [
    {
        "winners": ["p1"],
        "extra": {
            "kingdom": ["Smithy", "Village", "Witch"],
            "gains": {"p1": {"Smithy": [1, 5], "Witch": [3]}, "p2": {"Village": [2, 3, 4, 9]}},
        },
    },
    {
        "winners": ["p2", "p3"],
        "extra": {
            "kingdom": ["Chapel", "Moat", "Smithy"],
            "gains": {"p1": {"Smithy": [2]}, "p2": {}, "p3": {"Smithy": [4, 10], "Moat": [1]}},
        },
    },
    {"winners": ["p1"], "extra": {}},
]

# card: games, seats, gained_by, gain_rate, win_rate_gained, win_rate_not_gained, gains,
# mean_gained, mean_first_turn, shares of gains in turns 1-2, 3-4, 5-8, 9+
EXPECTED: dict[str, tuple[Any, ...]] = {
    # only game 2, where p2 and p3 (not gained) share first place: a draw, not a win
    "Chapel": (1, 3, 0, 0.0, None, 0.0, 0, None, None, None, None, None, None),
    # game 2: p3 gained (drew); p1 (lost) and p2 (drew) did not
    "Moat": (1, 3, 1, 1 / 3, 0.0, 0.0, 1, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0),
    # gainers g1 p1 (won), g2 p1 (lost), g2 p3 (drew); not: g1 p2 (lost), g2 p2 (drew);
    # gains at turns 1, 5, 2, 4, 10; first gains 1, 2, 4
    "Smithy": (2, 5, 3, 0.6, 1 / 3, 0.0, 5, 5 / 3, 7 / 3, 0.4, 0.2, 0.2, 0.2),
    # g1 p2 gained (lost), p1 did not (won); turns 2, 3, 4, 9
    "Village": (1, 2, 1, 0.5, 0.0, 1.0, 4, 4.0, 2.0, 0.25, 0.5, 0.0, 0.25),
    # g1 p1 gained (won), p2 did not (lost); turn 3
    "Witch": (1, 2, 1, 0.5, 1.0, 0.0, 1, 1.0, 3.0, 0.0, 1.0, 0.0, 0.0),
}
COLUMNS = (
    "games_available",
    "seats_available",
    "gained_by",
    "gain_rate",
    "win_rate_gained",
    "win_rate_not_gained",
    "gains",
    "mean_gained",
    "mean_first_turn",
    "share_turns_1_2",
    "share_turns_3_4",
    "share_turns_5_8",
    "share_turns_9_plus",
)


def cards_table(games: list[dict[str, Any]]) -> Table:
    found = tables(games)
    assert [t["id"] for t in found] == ["dominion_cards"]
    return msgspec.convert(found[0], Table)


def test_the_cards_table_over_hand_built_games() -> None:
    table = cards_table(GAMES)
    assert table.key == "card"
    assert [c.id for c in table.columns] == ["card", *COLUMNS]
    assert [row["card"] for row in table.rows] == sorted(EXPECTED)
    for row in table.rows:
        for column, expected in zip(COLUMNS, EXPECTED[row["card"]], strict=True):
            if expected is None:
                assert row[column] is None, (row["card"], column)
            else:
                assert row[column] == pytest.approx(expected), (row["card"], column)
    figures = table.figures()
    assert figures["dominion_cards/Smithy/win_rate_gained"] == pytest.approx(1 / 3)
    assert figures["dominion_cards/Chapel/win_rate_not_gained"] == pytest.approx(0.0)


def test_no_games_give_an_empty_table() -> None:
    assert cards_table([]).rows == []


def test_per_game_counts_kingdom_gains_by_the_gainers_own_turn() -> None:
    cfg = config(2)
    facts: list[Fact] = [
        KingdomChosen(("Chapel", "Militia", "Smithy"), "manual"),
        TurnStarted("p1", 1),
        Gained("p1", "Silver"),  # not a kingdom card
        Gained("p1", "Smithy"),
        TurnStarted("p2", 2),
        Gained("p2", "Militia"),
        TurnStarted("p1", 3),
        TurnStarted("p2", 4),
        Gained("p1", "Chapel", "supply", "hand"),  # on p2's turn: p1's own turn 2
        Gained("p2", "Militia"),
        Gained("p2", "Smithy", "trash"),
    ]
    assert per_game(cfg, facts, None) == {
        "kingdom": ["Chapel", "Militia", "Smithy"],
        "gains": {"p1": {"Smithy": [1], "Chapel": [2]}, "p2": {"Militia": [1, 2], "Smithy": [2]}},
    }


def seeded_game(seed: int) -> tuple[Any, list[Fact], Any]:
    cfg = config(3, game_id=f"stats-{seed}")
    rng = SeededRng(bytes(32), cfg.game_id)
    state = RULESET.initial(cfg)
    facts: list[Fact] = list(RULESET.setup(cfg, state, rng))
    for fact in facts:
        state = RULESET.evolve(state, fact)
    bot = random.Random(seed)
    for _ in range(10_000):
        if RULESET.outcome(state) is not None:
            return cfg, facts, state
        seat = bot.choice(RULESET.pending(state)).seat
        legal = RULESET.legal_actions(state, seat)
        out = RULESET.decide(
            state, Command(RULESET.bot_choose(state, seat, legal, bot.randrange), seat, "seat"), rng
        )
        assert not isinstance(out, Rejection)
        for fact in out:
            state = RULESET.evolve(state, fact)
        facts.extend(out)
    raise AssertionError("the seeded game did not end")


def test_a_seeded_game_folded_through_the_ruleset() -> None:
    cfg, facts, state = seeded_game(11)
    outcome = RULESET.outcome(state)
    assert outcome is not None
    extra = per_game(cfg, facts, outcome)
    kingdom = list(state.kingdom)
    assert extra["kingdom"] == sorted(kingdom) and len(kingdom) == 10
    gains = extra["gains"]
    assert set(gains) == {"p1", "p2", "p3"}
    # Base kingdom cards are no Treasures (only Thief gains from the trash), so every gain of
    # one left its Supply pile: what the piles lost is what the seats gained.
    for pile in kingdom:
        taken = sum(len(g.get(pile, ())) for g in gains.values())
        assert taken == DATA.pile_size(pile, 3) - len(state.supply[pile]), pile
    assert sum(len(turns) for g in gains.values() for turns in g.values()) > 0
    own_turns = outcome.details["turns"]
    for seat, by_pile in gains.items():
        for turns in by_pile.values():
            assert turns == sorted(turns) and turns[0] >= 1 and turns[-1] <= own_turns[seat]
    # The table over this one game, by hand from the gains.
    table = cards_table([{"winners": list(outcome.winners), "extra": extra}])
    rows = {row["card"]: row for row in table.rows}
    assert sorted(rows) == sorted(kingdom)
    for pile, row in rows.items():
        gainers = [s for s in gains if gains[s].get(pile)]
        others = [s for s in gains if s not in gainers]
        won = [s in outcome.winners for s in gainers]
        lost_or_won = [s in outcome.winners for s in others]
        assert (row["games_available"], row["seats_available"], row["gained_by"]) == (1, 3, len(gainers))
        assert row["win_rate_gained"] == (sum(won) / len(won) if won else None)
        assert row["win_rate_not_gained"] == (sum(lost_or_won) / len(others) if others else None)
        if gainers:
            counts = [len(gains[s][pile]) for s in gainers]
            firsts = [gains[s][pile][0] for s in gainers]
            assert row["mean_gained"] == pytest.approx(sum(counts) / len(counts))
            assert row["mean_first_turn"] == pytest.approx(sum(firsts) / len(firsts))
            shares = [row[c] for c in COLUMNS[-4:]]
            assert sum(shares) == pytest.approx(1.0)
