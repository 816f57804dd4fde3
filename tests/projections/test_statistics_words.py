"""What the statistics' words mean, checked on small real games counted by hand: a turn is one
player's turn in every game (rounds apart), a Dominations province's games are the games it
was revealed in, and every column of every table is defined in the table's description."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest

from projections.game_stats import GameStatistics, game_statistics
from projections.tables import Table, all_tables
from store.app import RECORDER, Chronicle, NewGame
from tests.projections.support import OPENING, physical_game
from tests.unit.dynasties.test_dynasties_cli import OPENING as DYNASTIES_OPENING

# The hand-recorded Dynasties session (tests/unit/dynasties/test_dynasties_cli.py): Qian Liu
# and Li Cunxu each play a whole turn (round 1), then Qian Liu starts the second round.
SECOND_ROUND = ("city kaifeng 4", "end city", "province kaifeng 3 1", "province luoyang 3 2", "end province")


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Chronicle]:
    chronicle = Chronicle(f"sqlite:///{tmp_path}/games.db")
    yield chronicle
    chronicle.close()


def stats_of(app: Chronicle, game_id: UUID) -> GameStatistics:
    return game_statistics(app.events.get(game_id))


def table(games: list[GameStatistics], table_id: str) -> Table:
    return next(t for t in all_tables(games) if t.id == table_id)


def test_dynasties_turns_are_each_player_s_turns_and_rounds_a_column_of_their_own(app: Chronicle) -> None:
    players = ["Li Cunxu", "Qian Liu"]
    game_id = UUID(app.create_game(NewGame("dynasties", players, mode="physical")).game_id)
    for move in (*DYNASTIES_OPENING, *SECOND_ROUND):
        app.record(game_id, move, RECORDER)
    app.resign(game_id, RECORDER, seat="p1")
    begun = [e.text for e in app.read_events(game_id, RECORDER) if "turn begins" in e.text]
    assert len(begun) == 3 and begun[-1].startswith("Round 2:")
    stats = stats_of(app, game_id)
    assert (stats.turns, stats.rounds) == (3, 2)
    row = table([stats], "game_length").rows[0]
    assert (row["mean_turns"], row["mean_rounds"], row["max_turns"]) == (3, 2, 3)
    # The progression samples each player's turn, not each round.
    assert [(s.turn, s.seat) for s in stats.progression][:3] == [(0, None), (1, "p2"), (2, "p1")]


def test_a_game_without_rounds_leaves_the_rounds_column_empty(app: Chronicle) -> None:
    game_id = physical_game(app, OPENING)
    app.resign(game_id, RECORDER, seat="B")
    row = table([stats_of(app, game_id)], "game_length").rows[0]
    assert row["mean_turns"] == 3 and row["mean_rounds"] is None


def test_mean_actions_counts_the_seats_actions_not_the_table_s_entries(app: Chronicle) -> None:
    # Nine actions recorded: the first-player toss and the goal turned up are the table's
    # (no seat was asked), Ann's five and Ben's two are the seats'.
    game_id = physical_game(app, OPENING)
    app.resign(game_id, RECORDER, seat="B")
    game_length = table([stats_of(app, game_id)], "game_length")
    assert game_length.rows[0]["mean_actions"] == 7
    definition = next(c.description for c in game_length.columns if c.id == "mean_actions")
    assert "for a seat" in definition and "when no seat was asked" in definition


def test_a_dominations_province_counts_the_games_it_was_revealed_in(app: Chronicle) -> None:
    # At setup as many provinces are revealed as there are players (dominations 1.7); nobody
    # attacks one before the game ends, so each was there in one game and conquered in none.
    players = 3
    game_id = UUID(app.create_game(NewGame("dominations", ["Ann", "Ben", "Cy"])).game_id)
    app.resign(game_id, RECORDER, seat="p1")
    revealed = [e.text for e in app.read_events(game_id, RECORDER) if e.text.startswith("Provinces revealed")]
    assert len(revealed) == 1
    provinces = table([stats_of(app, game_id)], "dominations_provinces")
    assert len(provinces.rows) == players
    assert all(row["province"] in revealed[0] for row in provinces.rows)
    assert all(
        (r["games"], r["attempts"], r["conquests"], r["conquest_rate"]) == (1, 0, 0, 0)
        for r in provinces.rows
    )
    assert next(c.description for c in provinces.columns if c.id == "games").endswith("revealed in")


def test_every_column_of_every_table_is_defined(app: Chronicle) -> None:
    games = []
    for ruleset, players in (("province", 2), ("dominion", 2), ("dynasties", 2), ("dominations", 3)):
        game_id = UUID(app.create_game(NewGame(ruleset, ["Ann", "Ben", "Cy"][:players])).game_id)
        app.resign(game_id, RECORDER, seat="p2" if ruleset != "province" else "B")
        games.append(stats_of(app, game_id))
    tables = all_tables(games)
    assert {"province_opening_orders", "dominion_cards", "dynasties_battles_by_hand_size"} <= {
        t.id for t in tables
    }
    for t in tables:
        assert t.description, t.id
        undefined = [c.id for c in t.columns if not c.description]
        assert undefined == [], t.id
        assert t.legend()[1:] == [f"{c.label}: {c.description}" for c in t.columns]
