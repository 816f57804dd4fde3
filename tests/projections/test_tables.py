"""Statistics over games, checked against figures worked out by hand for three small games."""

from __future__ import annotations

from typing import Any

import pytest
from openskill.models import PlackettLuce

from projections.game_stats import DiceCount, GameStatistics, SeatActivity
from projections.tables import (
    all_tables,
    decision_time,
    dice_fairness,
    game_length,
    game_tables,
    head_to_head,
    player_records,
    ratings,
    table,
    win_rate_by_seat,
)
from projections.views import Filters


def game(
    n: int,
    seats: dict[str, str],
    winners: list[str],
    ranks: dict[str, int],
    scores: dict[str, float],
    turns: int,
    actions: int,
    seconds: float,
    dice: list[DiceCount],
    extra: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    activity: list[SeatActivity] | None = None,
) -> GameStatistics:
    return GameStatistics(
        game_id=f"g{n}",
        ruleset="province",
        mode="physical" if n == 3 else "digital",
        options=options or {"end_check": "end_of_turn"},
        seats=seats,
        tags=[],
        created_at=f"2026-01-0{n}T10:00:00+00:00",
        status="finished",
        turns=turns,
        actions=actions,
        retracted_actions=0,
        activity=activity or [],
        progression=[],
        dice=dice,
        extra=extra or {},
        finished_at=f"2026-01-0{n}T11:00:00+00:00",
        duration_seconds=seconds,
        scores=scores,
        ranks=ranks,
        winners=winners,
        position=n * 100,
    )


# Ann beats Ben; Ben (now seat A) beats Ann; Ann and Cy draw.
GAMES = [
    game(
        1,
        {"A": "Ann", "B": "Ben"},
        ["A"],
        {"A": 1, "B": 2},
        {"A": 10, "B": 7},
        10,
        20,
        600,
        [DiceCount("ships", 2, [3, 1])],
        {"openings": {"A": ["camp", "mill"], "B": ["mill"]}},
        activity=[SeatActivity("A", "Ann", 10, 50.0), SeatActivity("B", "Ben", 8, 30.0)],
    ),
    game(
        2,
        {"A": "Ben", "B": "Ann"},
        ["A"],
        {"A": 1, "B": 2},
        {"A": 8, "B": 6},
        20,
        30,
        1200,
        [DiceCount("ships", 2, [2, 2])],
        {"openings": {"A": ["mill"], "B": ["camp", "mill"]}},
        activity=[SeatActivity("A", "Ben", 12, 24.0), SeatActivity("B", "Ann", 11, 11.0)],
    ),
    game(
        3,
        {"A": "Ann", "B": "Cy"},
        [],
        {"A": 1, "B": 1},
        {"A": 5, "B": 5},
        12,
        24,
        900,
        [DiceCount("first-player", 2, [1, 0])],
        {"openings": {"A": ["camp", "mill"], "B": ["lender"]}},
        {"end_check": "end_of_round"},
    ),
]


def rows(t: Any) -> dict[str, dict[str, Any]]:
    return {row[t.key]: row for row in t.rows}


def test_win_rate_by_seat_counts_wins_and_draws_with_a_wilson_interval() -> None:
    by_seat = {r["seat"]: r for r in win_rate_by_seat(GAMES).rows}
    assert by_seat["A"] | {"ci_low": 0, "ci_high": 0} == {
        "ruleset_seat": "province/2p/A",
        "ruleset": "province",
        "players": 2,
        "seat": "A",
        "games": 3,
        "wins": 2,
        "draws": 1,
        "win_rate": pytest.approx(2 / 3),
        "ci_low": 0,
        "ci_high": 0,
    }
    # 2 of 3: centre (0.6667 + 0.6402) / 2.2805 = 0.5731, half 1.96 * 0.42518 / 2.2805 = 0.3654
    assert by_seat["A"]["ci_low"] == pytest.approx(0.2077, abs=1e-4)
    assert by_seat["A"]["ci_high"] == pytest.approx(0.9385, abs=1e-4)
    assert (by_seat["B"]["wins"], by_seat["B"]["draws"], by_seat["B"]["win_rate"]) == (0, 1, 0.0)


def test_player_records_follow_players_across_seats() -> None:
    players = rows(player_records(GAMES))
    ann = players["province/Ann"]
    assert (ann["ruleset"], ann["player"]) == ("province", "Ann")
    assert (ann["games"], ann["wins"], ann["losses"], ann["draws"]) == (3, 1, 1, 1)
    assert ann["mean_score"] == pytest.approx(7.0)  # (10 + 6 + 5) / 3
    assert ann["best_score"] == 10
    ben = players["province/Ben"]
    assert (ben["games"], ben["wins"], ben["losses"], ben["mean_score"]) == (2, 1, 1, 7.5)
    assert (players["province/Cy"]["games"], players["province/Cy"]["draws"]) == (1, 1)


def test_head_to_head_counts_each_meeting_from_both_sides() -> None:
    pairs = rows(head_to_head(GAMES))
    assert {k: (r["games"], r["wins"], r["losses"], r["draws"]) for k, r in pairs.items()} == {
        "province/Ann vs Ben": (2, 1, 1, 0),
        "province/Ben vs Ann": (2, 1, 1, 0),
        "province/Ann vs Cy": (1, 0, 0, 1),
        "province/Cy vs Ann": (1, 0, 0, 1),
    }


def test_game_length_summarises_turns_actions_and_minutes() -> None:
    row = game_length(GAMES).rows[0]
    assert row["games"] == 3
    assert row["mean_turns"] == pytest.approx(14.0)  # (10 + 20 + 12) / 3
    assert row["median_turns"] == 12
    assert (row["min_turns"], row["max_turns"]) == (10, 20)
    assert row["mean_actions"] == pytest.approx(74 / 3)
    assert row["mean_minutes"] == pytest.approx(15.0)  # (600 + 1200 + 900) / 3 s


def test_dice_fairness_adds_up_each_stream_over_all_games() -> None:
    streams = rows(dice_fairness(GAMES))
    ships = streams["province/ships/d2"]
    # faces 5 and 3 of 8: ((5 - 4)^2 + (3 - 4)^2) / 4 = 0.5 on 1 degree of freedom
    assert (ships["rolls"], ships["counts"], ships["dof"]) == (8, "5 3", 1)
    assert ships["chi_square"] == pytest.approx(0.5)
    assert ships["p_value"] == pytest.approx(0.4795, abs=1e-4)
    first = streams["province/first-player/d2"]
    assert first["chi_square"] == pytest.approx(1.0)
    assert first["p_value"] == pytest.approx(0.3173, abs=1e-4)


def test_ratings_update_game_by_game_in_finishing_order() -> None:
    model = PlackettLuce()
    ann, ben, cy = model.rating(name="Ann"), model.rating(name="Ben"), model.rating(name="Cy")
    [[ann], [ben]] = model.rate([[ann], [ben]], ranks=[1, 2])
    [[ben], [ann]] = model.rate([[ben], [ann]], ranks=[1, 2])
    [[ann], [cy]] = model.rate([[ann], [cy]], ranks=[1, 1])
    rated = {r["player"]: r for r in ratings(GAMES).rows}
    assert rated["Ann"]["mu"] == pytest.approx(ann.mu)
    assert rated["Ben"]["sigma"] == pytest.approx(ben.sigma)
    assert rated["Cy"]["ordinal"] == pytest.approx(cy.ordinal())
    assert (rated["Ann"]["games"], rated["Ben"]["games"], rated["Cy"]["games"]) == (3, 2, 1)
    assert sorted(r["rank"] for r in rated.values()) == [1, 2, 3]


def test_decision_time_adds_up_each_players_actions_and_seconds() -> None:
    players = {r["player"]: r for r in decision_time(GAMES).rows}
    # Ann: 10 actions in 50 s, then 11 in 11 s; Ben: 8 in 30 s, then 12 in 24 s
    assert (players["Ann"]["games"], players["Ann"]["actions"]) == (2, 21)
    assert players["Ann"]["seconds_per_action"] == pytest.approx(61 / 21)
    assert players["Ann"]["actions_per_game"] == pytest.approx(10.5)
    assert (players["Ben"]["actions"], players["Ben"]["decision_seconds"]) == (20, 54.0)
    assert players["Ben"]["seconds_per_action"] == pytest.approx(2.7)


def test_province_adds_its_opening_orders() -> None:
    [openings] = game_tables(GAMES)
    assert openings.id == "province_opening_orders"
    found = {r["opening"]: (r["seats"], r["wins"], r["draws"]) for r in openings.rows}
    # camp > mill: game 1 seat A (won), game 2 seat B (lost), game 3 seat A (drew)
    assert found == {"camp > mill": (3, 1, 1), "mill": (2, 1, 0), "lender": (1, 0, 1)}


def test_every_figure_has_a_stable_id() -> None:
    figures = win_rate_by_seat(GAMES).figures()
    assert figures["win_rate_by_seat/province/2p/A/wins"] == 2
    assert figures["win_rate_by_seat/province/2p/B/games"] == 3
    ids = [t.id for t in all_tables(GAMES)]
    assert ids == [
        "games_played",
        "game_length",
        "win_rate_by_seat",
        "player_records",
        "head_to_head",
        "rating",
        "decision_time",
        "dice_chi_square",
        "province_opening_orders",
    ]
    assert table("no_such_table", GAMES) is None


def test_filters_pick_players_and_variants() -> None:
    assert [g.game_id for g in GAMES if Filters(player="CY").keeps(g)] == ["g3"]
    assert [g.game_id for g in GAMES if Filters(variant={"end_check": "end_of_turn"}).keeps(g)] == [
        "g1",
        "g2",
    ]


def _in(ruleset: str, g: GameStatistics) -> GameStatistics:
    g.ruleset = ruleset
    return g


# Ann and Ben both win a Dominations game (a tie for first the rules left standing); Cy is last.
SHARED = [
    _in(
        "dominations",
        game(
            4,
            {"A": "Ann", "B": "Ben", "C": "Cy"},
            ["A", "B"],
            {"A": 1, "B": 1, "C": 3},
            {"A": 30, "B": 30, "C": 12},
            5,
            50,
            600,
            [],
        ),
    )
]


def test_a_tie_for_first_is_a_draw_for_those_tied_in_every_table() -> None:
    records = rows(player_records(SHARED))
    assert {k: (r["wins"], r["draws"], r["losses"]) for k, r in records.items()} == {
        "dominations/Ann": (0, 1, 0),
        "dominations/Ben": (0, 1, 0),
        "dominations/Cy": (0, 0, 1),
    }
    pairs = rows(head_to_head(SHARED))
    assert (pairs["dominations/Ann vs Ben"]["draws"], pairs["dominations/Ben vs Ann"]["draws"]) == (1, 1)
    assert (pairs["dominations/Ann vs Cy"]["wins"], pairs["dominations/Cy vs Ben"]["losses"]) == (1, 1)
    by_seat = {r["seat"]: (r["wins"], r["draws"]) for r in win_rate_by_seat(SHARED).rows}
    assert by_seat == {"A": (0, 1), "B": (0, 1), "C": (0, 0)}


def test_a_shared_first_place_counts_as_no_win_for_a_game_package_or_simulate() -> None:
    from domain.games.dominion.stats import tables as dominion_tables
    from domain.games.province.stats import tables as province_tables
    from domain.ruleset import Outcome
    from replay_cli.commands.simulate import summary
    from store.simulation import Played

    openings = {"openings": {"A": ["camp"], "B": ["camp"]}}
    [table_] = province_tables([{"winners": ["A", "B"], "extra": openings}])
    assert [(r["wins"], r["draws"]) for r in table_["rows"]] == [(0, 2)]
    extra = {"kingdom": ["Village"], "gains": {"A": {"Village": [1]}, "B": {}}}
    [cards] = dominion_tables([{"winners": ["A", "B"], "extra": extra}])
    assert cards["rows"][0]["win_rate_gained"] == 0.0
    from uuid import uuid4

    from domain.ruleset import get_ruleset

    ruleset = get_ruleset("province")
    assert ruleset is not None
    shared = Outcome({"A": 5, "B": 5}, {"A": 1, "B": 1}, ("A", "B"))
    alone = Outcome({"A": 6, "B": 5}, {"A": 1, "B": 2}, ("A",))
    played = [Played(uuid4(), 10, shared), Played(uuid4(), 10, alone)]
    assert summary(ruleset, "s", played, ["Bot A", "Bot B"], 1.0)[1] == "wins per seat: A 1, B 0; draws 1"


def test_players_are_told_apart_per_ruleset_unless_asked_across() -> None:
    games = [*GAMES, *SHARED]
    per_ruleset = rows(player_records(games))
    assert (per_ruleset["province/Ann"]["games"], per_ruleset["dominations/Ann"]["games"]) == (3, 1)
    assert per_ruleset["dominations/Ann"]["mean_score"] == 30
    across = rows(player_records(games, across=True))
    assert (across["Ann"]["games"], across["Ann"]["ruleset"]) == (4, "*")
    assert {r["player_id"] for r in ratings(games).rows} == {
        "province/Ann",
        "province/Ben",
        "province/Cy",
        "dominations/Ann",
        "dominations/Ben",
        "dominations/Cy",
    }
    assert {r["player_id"] for r in ratings(games, across=True).rows} == {"Ann", "Ben", "Cy"}
    assert "Ann vs Ben" in rows(head_to_head(games, across=True))
    ranks = {r["player_id"]: r["rank"] for r in ratings(games).rows}
    assert sorted(v for k, v in ranks.items() if k.startswith("dominations/")) == [1, 2, 3]
