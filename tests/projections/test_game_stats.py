"""The statistics of one game, folded from its stream, checked by hand (province.md data)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.games.province.events import FirstPlayerDetermined, GoalRevealed, ShipsTossed
from domain.games.province.stats import dice
from domain.ruleset import get_ruleset
from projections.game_stats import GameStatistics, fold_rows, game_statistics, stored_rows
from store.app import RECORDER, Chronicle
from tests.projections.support import OPENING, physical_game, simulate


@pytest.fixture
def app(tmp_path: Any) -> Any:
    chronicle = Chronicle(f"sqlite:///{tmp_path}/games.db")
    yield chronicle
    chronicle.close()


def stats_of(app: Chronicle, game_id: Any) -> GameStatistics:
    return game_statistics(app.events.get(game_id))


def test_the_opening_turns_give_actions_per_seat_and_the_progression(app: Chronicle) -> None:
    stats = stats_of(app, physical_game(app, OPENING))
    assert stats.status == "running"
    # the first-player toss and the goal reveal are the table's, not a seat's
    assert [(a.seat, a.player, a.actions) for a in stats.activity] == [("A", "Ann", 5), ("B", "Ben", 2)]
    assert stats.actions == 7
    assert [(s.turn, s.seat) for s in stats.progression] == [(0, None), (1, "A"), (2, "B"), (3, "A")]
    start, ann_turn, ben_turn = (s.metrics for s in stats.progression[:3])
    # first player 2 coins, second 3 (province.md 2.4.4)
    assert start["coins"] == {"A": 2.0, "B": 3.0}
    # Ann: top->right +1 labor, right->left +1 labor, left->top +1 coin: 3 coins 2 labor,
    # the Camp costs 3 coins 2 labor and scores 1 VP for its first builder
    assert ann_turn["coins"] == {"A": 0.0, "B": 3.0}
    assert ann_turn["vp"] == {"A": 1.0, "B": 0.0}
    assert ann_turn["buildings"] == {"A": 1.0, "B": 0.0}
    # Ben: top->right +1 labor, discarded at the end of his turn
    assert ben_turn["labor"] == {"A": 0.0, "B": 0.0}
    assert [(d.stream, d.faces, d.counts) for d in stats.dice] == [("first-player", 2, [1, 0])]
    assert stats.extra == {"openings": {"A": ["camp"], "B": []}}


def test_retracted_actions_leave_no_trace(app: Chronicle) -> None:
    game_id = physical_game(app, OPENING)
    before = stats_of(app, game_id)
    app.record(game_id, {"kind": "MoveWorker", "piece": "green", "from": "right"}, RECORDER)
    app.record(game_id, {"kind": "EndTurn"}, RECORDER)
    app.retract(game_id, RECORDER, count=2, reason="wrong piece")
    after = stats_of(app, game_id)
    assert after.retracted_actions == 2
    assert after.activity == [
        type(a)(a.seat, a.player, a.actions, b.decision_seconds)
        for a, b in zip(before.activity, after.activity, strict=True)
    ]
    assert after.progression == before.progression
    assert after.dice == before.dice


def test_a_finished_game_has_its_outcome_and_every_toss(app: Chronicle) -> None:
    [game_id] = simulate(app, 1, seed="stats")
    stats = stats_of(app, game_id)
    game = app.game(game_id)
    assert game.outcome is not None
    assert stats.status == "finished"
    assert stats.winners == list(game.outcome.winners)
    assert stats.scores == {k: float(v) for k, v in game.outcome.scores.items()}
    assert stats.progression[-1].metrics["vp"] == stats.scores
    ruleset = get_ruleset("province")
    assert ruleset is not None
    facts = [ruleset.codec.decode_fact(e.fact) for e in app.events.get(game_id) if hasattr(e, "fact")]
    tosses = [f for f in facts if isinstance(f, ShipsTossed)]
    assert sum(d.rolls for d in stats.dice if d.stream == "ships") == 2 * len(tosses)


def test_province_dice_read_digital_and_observed_tosses() -> None:
    assert dice(ShipsTossed(("white", "black"), "WB", "harbor_built", "ships", 3, (1, 2))) == (
        ("ships", 2, (1, 2)),
    )
    assert dice(ShipsTossed(("black", "black"), "BB", "harbor_built", observed=True)) == (
        ("ships", 2, (2, 2)),
    )
    assert dice(FirstPlayerDetermined("B", face="black", observed=True)) == (("first-player", 2, (2,)),)
    assert dice(FirstPlayerDetermined("A", chosen=True)) == ()
    assert dice(GoalRevealed("workers2")) == ()


def test_the_stored_rows_give_the_same_statistics_as_the_library_s_events(app: Chronicle) -> None:
    [finished] = simulate(app, 1, seed="rows")
    corrected = physical_game(app, OPENING)
    app.record(corrected, {"kind": "MoveWorker", "piece": "green", "from": "right"}, RECORDER)
    app.retract(corrected, RECORDER, count=1, reason="wrong piece")
    for game_id in (finished, corrected):
        rows = stored_rows(app, game_id)
        assert rows is not None
        assert fold_rows(rows, game_id, position=3) == game_statistics(app.events.get(game_id), position=3)
