"""The statistics of `any` count each title apart: its own table rows (domain/games/any/stats.py)
and, in the tables over players, a player per title (`any:Azul/Ann`): Ann's rating at Azul never
mixes with hers at Catan."""

from __future__ import annotations

import json
from typing import Any

from domain.games.any import stats as any_stats
from projections.game_stats import GameStatistics
from projections.players import stats_group
from projections.ratings import replay
from projections.tables import head_to_head, player_records, ratings


def _game(
    n: int, title: str, seats: dict[str, str], winners: list[str], scores: dict[str, float], **options: Any
) -> GameStatistics:
    ranks = {seat: 1 if seat in winners else 2 for seat in seats}
    return GameStatistics(
        game_id=f"00000000-0000-4000-8000-{n:012d}",
        ruleset="any",
        mode="physical",
        options={"title": title, "bgg_id": 0, "definition": "", "played_on": ""} | options,
        seats=seats,
        tags=[],
        created_at=f"2024-03-{n:02d}T20:00:00+00:00",
        status="finished",
        turns=0,
        actions=1,
        retracted_actions=0,
        activity=[],
        progression=[],
        dice=[],
        extra={},
        finished_at=f"2024-03-{n:02d}T21:00:00+00:00",
        scores=scores,
        ranks=ranks,
        winners=winners,
        position=n,
    )


LOWEST = json.dumps({"ending": {"kind": "lowest"}}, separators=(",", ":"))
COOPERATIVE = json.dumps({"ending": {"kind": "cooperative"}}, separators=(",", ":"))

GAMES = [
    _game(1, "Azul", {"A": "Ann", "B": "Ben"}, ["A"], {"A": 72, "B": 65}, bgg_id=230802),
    _game(2, "Azul", {"A": "Ben", "B": "Ann"}, ["A"], {"A": 61, "B": 58}),
    _game(3, "Catan", {"A": "Ann", "B": "Ben", "C": "Cy"}, ["B"], {"A": 8, "B": 10, "C": 7}),
    _game(4, " Azul ", {"A": "Ann", "B": "Ben"}, ["A", "B"], {"A": 60, "B": 60}),
    _game(5, "Golf", {"A": "Ann", "B": "Di"}, ["A"], {"A": 12, "B": 20}, definition=LOWEST),
    _game(6, "Pandemic", {"A": "Ann", "B": "Ben"}, ["A", "B"], {}, definition=COOPERATIVE),
    _game(7, "Pandemic", {"A": "Ann", "B": "Ben"}, [], {}, definition=COOPERATIVE),
    _game(8, "Pandemic / Legacy", {"A": "Ann", "B": "Ben"}, ["A", "B"], {}, definition=COOPERATIVE),
]


def _rows(tables: list[dict[str, Any]], table_id: str) -> dict[str, dict[str, Any]]:
    table = next(t for t in tables if t["id"] == table_id)
    return {row[table["key"]]: row for row in table["rows"]}


def test_each_title_has_its_row_with_games_players_and_scores() -> None:
    tables = any_stats.tables(
        [{"seats": g.seats, "winners": g.winners, "scores": g.scores, "options": g.options} for g in GAMES]
    )
    titles = _rows(tables, "any_titles")
    assert list(titles) == ["Azul", "Catan", "Golf", "Pandemic", "Pandemic / Legacy"]
    assert (titles["Azul"]["games"], titles["Azul"]["players"], titles["Azul"]["bgg_id"]) == (3, 2, 230802)
    assert titles["Azul"]["mean_score"] == (72 + 65 + 61 + 58 + 60 + 60) / 6
    assert titles["Azul"]["best_score"] == 72 and titles["Azul"]["won"] is None
    assert titles["Golf"]["best_score"] == 12  # the lowest ranks first
    assert (titles["Pandemic"]["games"], titles["Pandemic"]["won"]) == (2, 1)
    players = _rows(tables, "any_title_players")
    ann = players["Azul/Ann"]
    assert (ann["games"], ann["wins"], ann["shared"]) == (3, 1, 1)
    assert (players["Azul/Ben"]["wins"], players["Azul/Ben"]["shared"]) == (1, 1)
    assert players["Golf/Ann"]["best_score"] == 12 and players["Golf/Di"]["best_score"] == 20
    # a cooperative game won is shared by the table; lost, it is nobody's
    assert (players["Pandemic/Ann"]["wins"], players["Pandemic/Ann"]["shared"]) == (0, 1)


def test_per_game_names_the_title_and_how_the_game_ends() -> None:
    from domain.ruleset import GameConfig, Seat

    config = GameConfig(
        "g",
        "any",
        "physical",
        (Seat("A", "Ann"),),
        {"title": "  Golf ", "bgg_id": 6634, "definition": LOWEST, "played_on": "2024-03-22"},
    )
    assert any_stats.per_game(config, [], None) == {
        "title": "Golf",
        "bgg_id": 6634,
        "played_on": "2024-03-22",
        "ending": "lowest",
        "scored": False,
    }


def test_players_are_rated_and_recorded_per_title() -> None:
    assert stats_group("any", {"title": "Azul"}) == "any:Azul"
    assert stats_group("any", {"title": "Pandemic / Legacy"}) == "any:Pandemic \u2215 Legacy"
    assert stats_group("province", {}) == "province"
    rated = {r.player: r for r in replay(GAMES)}
    assert rated["any:Azul/Ann"].games == 3 and rated["any:Catan/Ann"].games == 1
    assert "any/Ann" not in rated
    # Ann lost at Catan: her Azul rating does not feel it
    alone = {r.player: r for r in replay([g for g in GAMES if g.options["title"].strip() == "Azul"])}
    assert rated["any:Azul/Ann"].mu == alone["any:Azul/Ann"].mu
    table = {row["player_id"]: row for row in ratings(GAMES).rows}
    assert table["any:Azul/Ann"]["ruleset"] == "any:Azul" and table["any:Azul/Ann"]["player"] == "Ann"
    assert table["any:Pandemic \u2215 Legacy/Ann"]["player"] == "Ann"
    records = {row["player_id"]: row for row in player_records(GAMES).rows}
    assert records["any:Catan/Ann"]["losses"] == 1 and records["any:Azul/Ann"]["games"] == 3
    pairs = {row["pair"] for row in head_to_head(GAMES).rows}
    assert "any:Azul/Ann vs Ben" in pairs and "any:Catan/Ann vs Cy" in pairs
    across = {row["player_id"] for row in ratings(GAMES, across=True).rows}
    assert "Ann" in across
