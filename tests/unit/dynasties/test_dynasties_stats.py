"""The Dynasties & Kingdoms statistics over many games: `dynasties_battles_by_hand_size`, from
hand-built per-game records checked by hand, and from real seeded games folded through the
ruleset (and once through the store and the statistics view)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from domain.games.dynasties import RULESET, stats
from domain.games.dynasties.events import BattleDealt, BattleResolved, BattleStarted
from domain.ruleset import get_ruleset
from projections.game_stats import game_statistics, stats_of_games
from projections.statmath import wilson_interval
from projections.tables import Table, table
from store.app import Chronicle
from store.simulation import play as simulate_one
from tests.unit.dynasties.playouts import new_config, play

TABLE_ID = "dynasties_battles_by_hand_size"


def battle(a: int, d: int, winner: str, tie: bool = False, redeals: int = 0) -> dict[str, Any]:
    return {
        "context": "expansion",
        "attacker_kind": "player",
        "defender_kind": "player",
        "attacker_hand": a,
        "defender_hand": d,
        "winner": winner,
        "redeals": redeals,
        "tie": tie,
    }


def record(battles: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return {"game_id": "g", "winners": ["A"], "extra": {"battles": list(battles)}}


def the_table(games: Sequence[dict[str, Any]]) -> Table:
    [found] = [msgspec.convert(t, Table) for t in stats.tables(games)]
    assert found.id == TABLE_ID
    return found


# -- hand-built records -------------------------------------------------------------------------


# game 1: 3v2 attacker, 3v2 attacker, 3v2 defender (a tie the defender kept), 2v3 defender
# game 2: 3v2 attacker, 7v7 defender; an old record without battles; a game with no extra
GAMES = [
    record(
        [
            battle(3, 2, "attacker"),
            battle(3, 2, "attacker", redeals=2),
            battle(3, 2, "defender", tie=True),
            battle(2, 3, "defender"),
        ]
    ),
    record([battle(3, 2, "attacker"), battle(7, 7, "defender")]),
    {"game_id": "old", "winners": [], "extra": {"battles_fought": {"A": 1}}},
    {"game_id": "bare", "winners": []},
]


def test_one_row_per_hand_size_pair_counted_by_hand() -> None:
    found = the_table(GAMES)
    assert found.key == "hands"
    assert [r["hands"] for r in found.rows] == ["2v3", "3v2", "7v7"]
    rows = {r["hands"]: r for r in found.rows}
    # 3v2: four battles (3 in game 1, 1 in game 2), the attacker won three, one tie settled
    three_two = rows["3v2"]
    assert (three_two["attacker_hand"], three_two["defender_hand"], three_two["difference"]) == (3, 2, 1)
    assert (three_two["battles"], three_two["attacker_wins"], three_two["tied"]) == (4, 3, 1)
    assert three_two["attacker_win_rate"] == 0.75
    assert rows["2v3"]["difference"] == -1
    assert (rows["2v3"]["battles"], rows["2v3"]["attacker_wins"], rows["2v3"]["attacker_win_rate"]) == (
        1,
        0,
        0.0,
    )
    assert (rows["7v7"]["battles"], rows["7v7"]["attacker_wins"], rows["7v7"]["difference"]) == (1, 0, 0)


def test_the_wilson_interval_by_hand() -> None:
    rows = {r["hands"]: r for r in the_table(GAMES).rows}
    # 3 of 4, z = 1.96: centre (0.75 + 3.8415/8) / (1 + 3.8415/4) = 1.2302/1.9604 = 0.6275,
    # half 1.96 * sqrt(0.75*0.25/4 + 3.8415/64) / 1.9604 = 1.96 * 0.32695 / 1.9604 = 0.3269
    assert rows["3v2"]["ci_low"] == pytest.approx(0.3006, abs=1e-3)
    assert rows["3v2"]["ci_high"] == pytest.approx(0.9544, abs=1e-3)
    # 0 of 1: centre (0 + 1.9207) / 4.8415 = 0.3967 = half, so (0, 0.7935)
    assert rows["2v3"]["ci_low"] == 0.0
    assert rows["2v3"]["ci_high"] == pytest.approx(0.7935, abs=1e-3)
    # the domain's copy agrees with the statistics view's
    for successes, trials in ((0, 1), (3, 4), (17, 40), (40, 40), (0, 0)):
        assert stats.wilson_interval(successes, trials) == pytest.approx(wilson_interval(successes, trials))


def test_figures_have_stable_ids_and_no_battles_give_no_rows() -> None:
    figures = the_table(GAMES).figures()
    assert figures[f"{TABLE_ID}/3v2/battles"] == 4
    assert figures[f"{TABLE_ID}/3v2/attacker_wins"] == 3
    assert figures[f"{TABLE_ID}/3v2/attacker_win_rate"] == 0.75
    assert [c.id for c in the_table(GAMES).columns] == [
        "hands",
        "attacker_hand",
        "defender_hand",
        "difference",
        "battles",
        "attacker_wins",
        "attacker_win_rate",
        "ci_low",
        "ci_high",
        "tied",
    ]
    assert the_table([]).rows == []
    assert the_table(GAMES[2:]).rows == []


# -- real seeded games --------------------------------------------------------------------------


# seed 4 gives one tied showdown in each game: settled for the defender (the default tie rule),
# dealt again under `redeal` (with missing kickers ignored)
@pytest.mark.parametrize(
    ("options", "game_id", "tied", "redeals"),
    [
        ({}, "dk-stats-hands", 1, 0),
        ({"tie_rule": "redeal", "missing_kickers": "ignored"}, "dk-stats-redeal", 0, 1),
    ],
)
def test_a_seeded_game_records_every_decided_battle_with_its_hand_sizes(
    options: dict[str, Any], game_id: str, tied: int, redeals: int
) -> None:
    game = play(new_config(3, options=options, game_id=game_id), seed=4)
    extra = stats.per_game(game.config, game.facts, RULESET.outcome(game.state))
    battles = extra["battles"]
    assert sum(b["tie"] for b in battles) == tied
    assert sum(b["redeals"] for b in battles) == redeals
    decided = [f for f in game.facts if isinstance(f, BattleResolved) and f.winner != "tie"]
    started = [f for f in game.facts if isinstance(f, BattleStarted)]
    assert len(battles) == len(decided) == len(started) > 0
    assert [b["winner"] for b in battles] == [f.winner for f in decided]
    assert sum(b["redeals"] for b in battles) == sum(
        1 for f in game.facts if isinstance(f, BattleResolved) and f.winner == "tie"
    )
    # every deal of a battle gives each side its hand size (4.2, 4.4)
    deals: list[list[tuple[int, int]]] = []
    for fact in game.facts:
        if isinstance(fact, BattleStarted):
            deals.append([])
        elif isinstance(fact, BattleDealt):
            deals[-1].append((len(fact.attacker_cards), len(fact.defender_cards)))
    assert len(deals) == len(battles)
    for record_, dealt in zip(battles, deals, strict=True):
        assert dealt == [(record_["attacker_hand"], record_["defender_hand"])] * (1 + record_["redeals"])
        assert 1 <= record_["attacker_hand"] <= 7 and 1 <= record_["defender_hand"] <= 7
    # the player battles won per seat match the records
    for seat in game.config.seat_ids():
        assert extra["battles_won"][seat] == sum(
            1
            for b, s in zip(battles, started, strict=True)
            if (b["winner"] == "attacker" and s.attacker_kind == "player" and s.attacker_player == seat)
            or (b["winner"] == "defender" and s.defender_kind == "player" and s.defender_player == seat)
        )
    rows = the_table([{"extra": extra}]).rows
    assert sum(r["battles"] for r in rows) == len(battles)
    assert sum(r["attacker_wins"] for r in rows) == sum(b["winner"] == "attacker" for b in battles)
    assert sum(r["tied"] for r in rows) == tied


def test_seeded_games_through_the_store_and_the_statistics_view(tmp_path: Any) -> None:
    ruleset = get_ruleset("dynasties")
    assert ruleset is not None
    app = Chronicle(f"sqlite:///{tmp_path}/games.db")
    try:
        played = [simulate_one(app, ruleset, "stats", i, ["Ann", "Ben", "Cy"], {}, 20_000) for i in range(2)]
        assert all(p.outcome is not None for p in played)
        games = [game_statistics(app.events.get(p.game_id)) for p in played]
    finally:
        app.close()
    found = table(TABLE_ID, games)
    assert found is not None
    assert found == the_table(stats_of_games(games))
    total = sum(len(g.extra["battles"]) for g in games)
    assert total > 0 and sum(r["battles"] for r in found.rows) == total
    for row in found.rows:
        assert row["ci_low"] <= row["attacker_win_rate"] <= row["ci_high"]
