"""The worked examples E1-E14 and E10b of province.md section 11, step by step."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games.province import RULESET
from domain.games.province.actions import DrawGoalOrder, TossShips
from domain.rng import NoRng, ScriptedRng, SeededRng
from domain.ruleset import Actor, Command, Rejection
from tests.unit.province.scenarios import assert_derived, check_expect, config, fold, play, run, ships

E1_ORDER = ["coins5", "buildings4", "twovp2", "labor5", "workers2"]


def test_e1_digital_setup_draws_the_first_player_and_the_goal_order() -> None:
    cfg = config(game_id="g-e1")
    rng = ScriptedRng(rolls={("first-player", 0): (2,)}, shuffles={("goals", 0): E1_ORDER})
    state = RULESET.initial(cfg)
    facts = RULESET.setup(cfg, state, rng)
    assert_derived(
        facts,
        [
            {
                "type": "FirstPlayerDetermined",
                "face": "black",
                "first": "B",
                "stream": "first-player",
                "n": 0,
            },
            {"type": "GoalOrderDrawn", "order": E1_ORDER, "stream": "goals", "n": 0},
            {"type": "SetupCompleted", "coins": {"A": 3, "B": 2}},
            {"type": "GoalRevealed", "goal": "coins5"},
            {"type": "TurnStarted", "turn": 1, "player": "B"},
        ],
    )
    state = fold(state, facts)
    check_expect(
        state,
        {
            "status": "in_progress",
            "first_player": "B",
            "turn": 1,
            "active": "B",
            "phase": "labor",
            "players": {"A": {"coins": 3}, "B": {"coins": 2}},
            "supply": 23,
            "board": {"top": {"green": 1}, "right": {"green": 1}, "left": {"green": 1}},
            "goals": {
                "revealed": "coins5",
                "hidden": ["buildings4", "twovp2", "labor5", "workers2"],
                "removed": [],
            },
            "lender_coin": "supply",
            "ships": None,
        },
    )
    rng.assert_all_drawn()


def test_e1_seeded_setup_is_deterministic() -> None:
    cfg = config(game_id="g-e1")
    seed = bytes(range(32))
    first = RULESET.setup(cfg, RULESET.initial(cfg), SeededRng(seed, "g-e1"))
    again = RULESET.setup(cfg, RULESET.initial(cfg), SeededRng(seed, "g-e1"))
    assert first == again
    assert [RULESET.codec.encode(f) for f in first] == [RULESET.codec.encode(f) for f in again]


def test_e1_a_submitted_goal_order_or_toss_is_refused_in_a_digital_game() -> None:
    cfg = config(game_id="g-e1")
    state = RULESET.initial(cfg)
    state = fold(state, RULESET.setup(cfg, state, SeededRng(bytes(32), "g-e1")))
    tampered = DrawGoalOrder(("buildings4", "coins5", "twovp2", "labor5", "workers2"))
    actors: tuple[Actor, ...] = ("seat", "recorder", "system")
    for by in actors:
        for action in (tampered, TossShips(("white", "black"))):
            seat = state.active if by == "seat" else None
            outcome = RULESET.decide(state, Command(action, seat, by), NoRng())
            assert isinstance(outcome, Rejection)
            assert outcome.code == "random_input_not_allowed"


def test_e2_physical_setup_waits_for_the_first_player_then_the_first_goal() -> None:
    cfg = config("physical", game_id="g-e2")
    state = RULESET.initial(cfg)
    state = fold(state, RULESET.setup(cfg, state, NoRng()))
    assert state.awaiting == "first_player"
    state = play(
        state,
        [
            {
                "input": {"type": "RevealGoal", "actor": "recorder", "goal": "labor5"},
                "result": {"reject": "awaiting_random_input"},
            },
            {"input": {"type": "DetermineFirstPlayer", "actor": "recorder", "first": "A", "face": "white"}},
            {
                "input": {"type": "RevealGoal", "actor": "recorder", "goal": "workers2"},
                "derived": [
                    {"type": "SetupCompleted", "coins": {"A": 2, "B": 3}},
                    {"type": "GoalRevealed", "goal": "workers2"},
                    {"type": "TurnStarted", "turn": 1, "player": "A"},
                ],
            },
            {
                "input": {"type": "RevealGoal", "actor": "recorder", "goal": "labor5"},
                "result": {"reject": "no_reveal_pending"},
            },
        ],
    )
    check_expect(
        state,
        {
            "turn": 1,
            "active": "A",
            "phase": "labor",
            "players": {"A": {"coins": 2}, "B": {"coins": 3}},
            "supply": 23,
            "goals": {"revealed": "workers2", "hidden_count": 4, "removed": []},
        },
    )


def _moved(piece: str, src: str, dst: str) -> dict[str, Any]:
    return {"type": "WorkerMoved", "piece": piece, "from": src, "to": dst}


def _labor(player: str, source: str = "cycle", amount: int = 1) -> dict[str, Any]:
    return {"type": "LaborGained", "player": player, "amount": amount, "source": source}


def _coins(player: str, amount: int, requested: int, source: str) -> dict[str, Any]:
    return {
        "type": "CoinsGained",
        "player": player,
        "amount": amount,
        "requested": requested,
        "source": source,
    }


def _move(piece: str, src: str) -> dict[str, Any]:
    return {"type": "MoveWorker", "piece": piece, "from": src}


def _next(player: str, amount: int, turn: int, nxt: str) -> list[dict[str, Any]]:
    return [
        {"type": "LaborDiscarded", "player": player, "amount": amount},
        {"type": "TurnStarted", "turn": turn, "player": nxt},
    ]


def test_e3_first_turn_moves_all_greens_and_builds_the_camp() -> None:
    run(
        {
            "turn": 1,
            "active": "A",
            "phase": "labor",
            "players": {"A": {"coins": 2}, "B": {"coins": 3}},
            "board": {"top": {"green": 1}, "right": {"green": 1}, "left": {"green": 1}},
            "goals": {"revealed": "workers2", "hidden": ["buildings4", "coins5", "labor5", "twovp2"]},
        },
        [
            {"input": _move("green", "top"), "derived": [_moved("green", "top", "right"), _labor("A")]},
            {"input": _move("green", "right"), "derived": [_moved("green", "right", "left"), _labor("A")]},
            {
                "input": _move("green", "left"),
                "derived": [_moved("green", "left", "top"), _coins("A", 1, 1, "cycle")],
            },
            {
                "input": {"type": "Build", "building": "camp"},
                "derived": [
                    {
                        "type": "BuildingBuilt",
                        "player": "A",
                        "building": "camp",
                        "first": True,
                        "vp_scored": 1,
                    },
                    {"type": "WorkerPlaced", "piece": "camp", "space": "top"},
                ],
            },
            {"input": {"type": "EndTurn"}, "derived": _next("A", 0, 2, "B")},
        ],
        {
            "turn": 2,
            "active": "B",
            "phase": "labor",
            "players": {
                "A": {"coins": 0, "labor": 0, "built": ["camp"], "first": ["camp"]},
                "B": {"coins": 3},
            },
            "supply": 25,
            "board": {"top": {"green": 1, "camp": True}, "right": {"green": 1}, "left": {"green": 1}},
        },
    )


def test_e4_shared_workers_each_piece_moves_once_per_turn() -> None:
    run(
        {
            "turn": 2,
            "active": "B",
            "phase": "labor",
            "players": {"A": {"coins": 0, "built": ["camp"], "first": ["camp"]}, "B": {"coins": 3}},
            "board": {"top": {"green": 1, "camp": True}, "right": {"green": 1}, "left": {"green": 1}},
            "goals": {"revealed": "workers2", "hidden": ["buildings4", "coins5", "labor5", "twovp2"]},
        },
        [
            {
                "input": _move("green", "left"),
                "derived": [_moved("green", "left", "top"), _coins("B", 1, 1, "cycle")],
            },
            {"input": _move("camp", "top"), "result": {"reject": "piece_not_accessible"}},
            {"input": {"type": "EndTurn"}, "derived": _next("B", 0, 3, "A")},
            {"input": _move("green", "top")},
            {"input": _move("green", "top")},
            {"input": _move("camp", "top")},
            {"input": _move("green", "right")},
            {"input": _move("green", "right"), "result": {"reject": "piece_already_moved"}},
            {
                "input": {"type": "Grind", "count": 2},
                "derived": [_coins("A", 1, 1, "grind"), _coins("A", 1, 1, "grind")],
            },
            {"input": {"type": "EndTurn"}, "derived": _next("A", 0, 4, "B")},
        ],
        {
            "turn": 4,
            "active": "B",
            "players": {"A": {"coins": 2, "labor": 0}, "B": {"coins": 4}},
            "supply": 22,
            "board": {"top": {}, "right": {"green": 2, "camp": True}, "left": {"green": 1}},
        },
    )


def test_e5_the_bank_doubles_cycle_coins_but_the_supply_runs_out() -> None:
    run(
        {
            "turn": 20,
            "active": "A",
            "phase": "labor",
            "turn_state": {"labor_gained": 1},
            "players": {
                "A": {
                    "coins": 11,
                    "labor": 1,
                    "built": ["lender", "bank", "mill"],
                    "first": ["lender", "bank", "mill"],
                    "goals": ["coins5"],
                },
                "B": {
                    "coins": 14,
                    "built": ["camp", "village", "union"],
                    "first": ["camp", "village", "union"],
                    "goals": ["workers2"],
                },
            },
            "board": {"top": {"camp": True}, "right": {"green": 1}, "left": {"green": 2, "village": True}},
            "goals": {"revealed": "labor5", "hidden": ["twovp2", "buildings4"]},
        },
        [
            {
                "input": _move("green", "left"),
                "derived": [_moved("green", "left", "top"), _coins("A", 2, 2, "cycle")],
            },
            {
                "input": _move("green", "left"),
                "derived": [_moved("green", "left", "top"), _coins("A", 1, 2, "cycle")],
            },
            {"input": _move("green", "right"), "derived": [_moved("green", "right", "left"), _labor("A")]},
            {"input": {"type": "Grind", "count": 1}, "result": {"reject": "supply_empty"}},
            {"input": {"type": "EndTurn"}, "derived": _next("A", 2, 21, "B")},
        ],
        {
            "turn": 21,
            "active": "B",
            "players": {"A": {"coins": 14, "labor": 0}, "B": {"coins": 14}},
            "supply": 0,
            "board": {"top": {"green": 2, "camp": True}, "right": {}, "left": {"green": 1, "village": True}},
            "goals": {"revealed": "labor5"},
        },
    )


def test_e6_the_lender_debt_is_taken_passed_to_the_opponent_and_repaid() -> None:
    run(
        {
            "turn": 9,
            "active": "A",
            "phase": "labor",
            "turn_state": {"labor_gained": 1},
            "players": {
                "A": {"coins": 5, "labor": 1, "built": ["lender", "mill"], "first": ["lender", "mill"]},
                "B": {"coins": 4, "built": ["camp", "union", "lender"], "first": ["camp", "union"]},
            },
            "board": {"top": {"green": 1, "camp": True}, "right": {"green": 1}, "left": {"green": 1}},
            "goals": {"revealed": "twovp2", "hidden": ["labor5", "coins5", "buildings4", "workers2"]},
        },
        [
            {
                "input": {"type": "UseLender", "target": "camp"},
                "derived": [
                    {"type": "LenderUsed", "player": "A", "target": "camp"},
                    {"type": "LenderCoinMoved", "from": "supply", "to": "A"},
                ],
            },
            {"input": _move("camp", "top")},
            {"input": _move("green", "top")},
            {"input": _move("green", "right")},
            {"input": _move("green", "left")},
            {"input": {"type": "UseLender", "target": "union"}, "result": {"reject": "lender_already_used"}},
            {
                "input": {"type": "Build", "building": "smithy"},
                "derived": [
                    {
                        "type": "BuildingBuilt",
                        "player": "A",
                        "building": "smithy",
                        "first": True,
                        "vp_scored": 2,
                    }
                ],
            },
            {"input": {"type": "EndTurn"}, "derived": _next("A", 0, 10, "B")},
            {
                "input": {"type": "UseLender", "target": "mill"},
                "derived": [
                    {"type": "LenderUsed", "player": "B", "target": "mill"},
                    {"type": "LenderCoinMoved", "from": "A", "to": "B"},
                    _labor("B", "lender_mill"),
                ],
            },
            {"input": _move("camp", "right")},
            {"input": _move("green", "top")},
            {
                "input": {"type": "RepayLender"},
                "derived": [{"type": "LenderCoinMoved", "from": "B", "to": "supply"}],
            },
            {"input": {"type": "Grind", "count": 1}},
            {
                "input": {"type": "EndTurn"},
                "derived": [*_next("B", 1, 11, "A"), _labor("A", "mill"), _labor("A", "smithy")],
            },
        ],
        {
            "turn": 11,
            "active": "A",
            "phase": "labor",
            "players": {
                "A": {
                    "coins": 3,
                    "labor": 2,
                    "built": ["lender", "mill", "smithy"],
                    "first": ["lender", "mill", "smithy"],
                },
                "B": {"coins": 2, "labor": 0},
            },
            "lender_coin": "supply",
            "supply": 23,
            "board": {"top": {}, "right": {"green": 2}, "left": {"green": 1, "camp": True}},
        },
    )


def _toss(reason: str, faces: list[str], result: str, n: int | None = None) -> dict[str, Any]:
    fact: dict[str, Any] = {"type": "ShipsTossed", "reason": reason, "faces": faces, "result": result}
    if n is not None:
        fact.update(stream="ships", n=n)
    return fact


def test_e7_the_harbor_tosses_at_the_end_of_its_build_turn_and_at_each_harbor_master_turn() -> None:
    run(
        {
            "turn": 11,
            "active": "A",
            "phase": "spending",
            "turn_state": {"moves": 3, "labor_gained": 4},
            "players": {
                "A": {"coins": 9, "labor": 4, "built": ["union", "mill"], "first": ["union", "mill"]},
                "B": {"coins": 5, "built": ["camp"], "first": ["camp"]},
            },
            "board": {"top": {"green": 1, "camp": True}, "right": {"green": 1}, "left": {"green": 1}},
            "goals": {"revealed": "twovp2", "hidden": ["labor5", "buildings4", "coins5", "workers2"]},
        },
        [
            {
                "input": {"type": "Build", "building": "harbor"},
                "derived": [
                    {
                        "type": "BuildingBuilt",
                        "player": "A",
                        "building": "harbor",
                        "first": True,
                        "vp_scored": 2,
                    },
                    {"type": "HarborMasterSet", "player": "A"},
                ],
            },
            {"input": {"type": "HireSailor"}, "result": {"reject": "no_ship_state"}},
            {
                "input": {"type": "EndTurn"},
                "derived": [
                    {"type": "LaborDiscarded", "player": "A", "amount": 0},
                    _toss("harbor_built", ["white", "black"], "WB", n=0),
                    {"type": "TurnStarted", "turn": 12, "player": "B"},
                ],
            },
            {"input": _move("green", "top")},
            {
                "input": {"type": "EndTurn"},
                "derived": [
                    *_next("B", 1, 13, "A"),
                    _toss("harbor_master_turn", ["white", "black"], "WB", n=1),
                    _labor("A", "mill"),
                ],
            },
            {"input": _move("green", "left")},
            {
                "input": {"type": "HireSailor"},
                "derived": [
                    {"type": "SailorHired", "player": "A"},
                    {"type": "WorkerPlaced", "piece": "sailor", "space": "top", "owner": "A"},
                ],
            },
            {"input": {"type": "HireSailor"}, "result": {"reject": "sailor_limit_per_turn"}},
            {"input": {"type": "EndTurn"}, "derived": _next("A", 1, 14, "B")},
        ],
        {
            "turn": 14,
            "active": "B",
            "players": {
                "A": {
                    "coins": 2,
                    "built": ["union", "mill", "harbor"],
                    "first": ["union", "mill", "harbor"],
                    "sailors": 1,
                },
                "B": {"coins": 5},
            },
            "harbor_master": "A",
            "ships": {"faces": ["white", "black"], "result": "WB"},
            "supply": 21,
            "board": {
                "top": {"green": 1, "camp": True, "sailors": {"A": 1}},
                "right": {"green": 2},
                "left": {},
            },
        },
        rng=ships((0, (1, 2)), (1, (1, 2))),
    )


def test_e8_a_physical_game_waits_for_tosses_and_both_harbor_owners_take_income() -> None:
    state = run(
        {
            "mode": "physical",
            "turn": 20,
            "active": "B",
            "phase": "spending",
            "turn_state": {"moves": 2, "labor_gained": 2},
            "players": {
                "A": {
                    "coins": 6,
                    "built": ["union", "harbor", "camp"],
                    "first": ["union", "harbor", "camp"],
                    "goals": ["labor5"],
                },
                "B": {
                    "coins": 7,
                    "built": ["union", "harbor", "lender"],
                    "first": ["lender"],
                    "goals": ["coins5"],
                },
            },
            "board": {"top": {"green": 1, "camp": True}, "right": {"green": 1}, "left": {"green": 1}},
            "ships": {"faces": ["white", "black"], "result": "WB"},
            "harbor_master": "A",
            "goals": {"revealed": "twovp2", "hidden_count": 2},
        },
        [
            {"input": {"type": "EndTurn"}, "derived": _next("B", 0, 21, "A")},
            {"input": _move("green", "top"), "result": {"reject": "awaiting_random_input"}},
            {
                "input": {"type": "TossShips", "actor": "recorder", "faces": ["white", "grey"]},
                "result": {"reject": "invalid_random_result"},
            },
            {
                "input": {"type": "TossShips", "actor": "recorder", "faces": ["white", "white"]},
                "derived": [_toss("harbor_master_turn", ["white", "white"], "WW"), _labor("A", "harbor")],
            },
            {"input": _move("green", "top")},
            {"input": {"type": "EndTurn"}, "derived": [*_next("A", 2, 22, "B"), _labor("B", "harbor")]},
            {"input": _move("green", "right")},
            {"input": {"type": "EndTurn"}, "derived": _next("B", 2, 23, "A")},
            {
                "input": {"type": "TossShips", "actor": "recorder", "faces": ["black", "black"]},
                "derived": [_coins("A", 1, 1, "harbor")],
            },
        ],
        {
            "turn": 23,
            "active": "A",
            "phase": "labor",
            "players": {"A": {"coins": 7, "labor": 0}, "B": {"coins": 7}},
            "ships": {"faces": ["black", "black"], "result": "BB"},
            "supply": 14,
            "board": {"top": {"camp": True}, "right": {"green": 1}, "left": {"green": 2}},
        },
    )
    assert state.awaiting is None


def test_e9_a_claim_reveals_a_goal_both_players_satisfy_which_is_removed() -> None:
    run(
        {
            "turn": 15,
            "active": "A",
            "phase": "spending",
            "turn_state": {"moves": 2, "labor_gained": 3},
            "players": {
                "A": {
                    "coins": 8,
                    "labor": 3,
                    "built": ["camp", "mill", "lender"],
                    "first": ["camp", "mill", "lender"],
                },
                "B": {"coins": 7, "built": ["camp", "village"], "first": ["village"], "goals": ["workers2"]},
            },
            "board": {
                "top": {"green": 1, "village": True},
                "right": {"green": 1, "camp": True},
                "left": {"green": 1},
            },
            "goals": {"revealed": "buildings4", "hidden": ["coins5", "labor5", "twovp2"]},
        },
        [
            {
                "input": {"type": "Build", "building": "union"},
                "derived": [
                    {
                        "type": "BuildingBuilt",
                        "player": "A",
                        "building": "union",
                        "first": True,
                        "vp_scored": 1,
                    },
                    {"type": "GoalClaimed", "player": "A", "goal": "buildings4"},
                    {"type": "GoalRevealed", "goal": "coins5"},
                    {"type": "GoalRemoved", "goal": "coins5"},
                    {"type": "GoalRevealed", "goal": "labor5"},
                ],
            },
            {"input": {"type": "EndTurn"}, "derived": _next("A", 0, 16, "B")},
        ],
        {
            "turn": 16,
            "active": "B",
            "players": {
                "A": {"coins": 6, "built": ["camp", "mill", "lender", "union"], "goals": ["buildings4"]},
                "B": {"coins": 7, "goals": ["workers2"]},
            },
            "goals": {"revealed": "labor5", "hidden": ["twovp2"], "removed": ["coins5"]},
            "supply": 15,
        },
    )


E10_START: dict[str, Any] = {
    "turn": 30,
    "active": "B",
    "phase": "spending",
    "turn_state": {"moves": 3, "labor_gained": 4},
    "players": {
        "A": {
            "coins": 13,
            "built": ["lender", "camp", "mill", "smithy"],
            "first": ["lender", "camp", "mill", "smithy"],
            "goals": ["buildings4"],
        },
        "B": {
            "coins": 12,
            "labor": 4,
            "built": ["camp", "village", "union", "harbor", "mill", "lender"],
            "first": ["village", "union", "harbor"],
            "goals": ["workers2", "twovp2"],
        },
    },
    "board": {
        "top": {"green": 1},
        "right": {"green": 1, "camp": True},
        "left": {"green": 1, "village": True},
    },
    "ships": {"faces": ["black", "black"], "result": "BB"},
    "harbor_master": "B",
    "lender_coin": "A",
    "goals": {"revealed": "labor5", "hidden": ["coins5"]},
}


def _score(building: int, goal: int, coin: int, lender: int, total: int, buildings: int) -> dict[str, int]:
    return {
        "building_vp": building,
        "goal_vp": goal,
        "coin_vp": coin,
        "lender_vp": lender,
        "total": total,
        "buildings": buildings,
    }


def test_e10_seven_buildings_end_the_game_and_a_held_lender_coin_costs_two_points() -> None:
    state = run(
        E10_START,
        [
            {
                "input": {"type": "Build", "building": "smithy"},
                "derived": [
                    {
                        "type": "BuildingBuilt",
                        "player": "B",
                        "building": "smithy",
                        "first": False,
                        "vp_scored": 0,
                    }
                ],
            },
            {
                "input": {"type": "EndTurn"},
                "derived": [
                    {"type": "LaborDiscarded", "player": "B", "amount": 0},
                    {
                        "type": "GameEnded",
                        "reasons": ["seven_buildings"],
                        "scores": {"A": _score(5, 1, 2, -2, 6, 4), "B": _score(5, 2, 1, 0, 8, 7)},
                        "winner": "B",
                        "tie_break": False,
                    },
                ],
            },
            {"input": _move("green", "top"), "result": {"reject": "game_over"}},
        ],
        {"status": "finished", "players": {"A": {"coins": 13}, "B": {"coins": 9, "labor": 0}}, "supply": 6},
    )
    result = RULESET.outcome(state)
    assert result is not None
    assert result.scores == {"A": 6, "B": 8}
    assert result.winners == ("B",)
    assert result.ranks == {"A": 2, "B": 1}
    assert result.reason == "seven_buildings"
    assert RULESET.pending(state) == ()
    assert RULESET.progress(state) == (30, None)


def test_e10b_equal_totals_are_broken_by_the_number_of_buildings() -> None:
    state = run(
        {**E10_START, "lender_coin": "supply"},
        [
            {"input": {"type": "Build", "building": "smithy"}},
            {
                "input": {"type": "EndTurn"},
                "derived": [
                    {
                        "type": "GameEnded",
                        "scores": {"A": _score(5, 1, 2, 0, 8, 4), "B": _score(5, 2, 1, 0, 8, 7)},
                        "winner": "B",
                        "tie_break": True,
                    }
                ],
            },
        ],
    )
    result = RULESET.outcome(state)
    assert result is not None and result.winners == ("B",) and result.details["tie_break"] is True


def test_e11_union_and_grind_close_the_labor_phase_and_unspent_labor_is_lost() -> None:
    run(
        {
            "turn": 6,
            "active": "B",
            "phase": "labor",
            "players": {
                "A": {"coins": 4, "built": ["camp"], "first": ["camp"]},
                "B": {"coins": 5, "built": ["union"], "first": ["union"]},
            },
            "board": {"top": {"green": 1}, "right": {"green": 1, "camp": True}, "left": {"green": 1}},
            "goals": {"revealed": "labor5", "hidden": ["twovp2", "workers2", "buildings4", "coins5"]},
        },
        [
            {"input": _move("green", "top")},
            {
                "input": {"type": "UnionConvert", "count": 2},
                "derived": [_labor("B", "union"), _labor("B", "union")],
            },
            {"input": _move("green", "right"), "result": {"reject": "wrong_phase"}},
            {"input": {"type": "UnionConvert", "count": 1}, "result": {"reject": "insufficient_coins"}},
            {"input": {"type": "Grind", "count": 1}},
            {"input": {"type": "EndTurn"}, "derived": _next("B", 1, 7, "A")},
        ],
        {
            "turn": 7,
            "active": "A",
            "players": {"A": {"coins": 4}, "B": {"coins": 2, "labor": 0}},
            "supply": 22,
            "goals": {"revealed": "labor5"},
            "board": {"top": {}, "right": {"green": 2, "camp": True}, "left": {"green": 1}},
        },
    )


def test_e12_rejections_come_in_the_spec_order_then_the_union_is_borrowed() -> None:
    run(
        {
            "turn": 8,
            "active": "A",
            "phase": "labor",
            "turn_state": {"labor_gained": 1},
            "players": {
                "A": {"coins": 6, "labor": 1, "built": ["camp", "mill"], "first": ["camp", "mill"]},
                "B": {"coins": 3, "built": ["lender", "union"], "first": ["lender", "union"]},
            },
            "board": {"top": {"green": 1, "camp": True}, "right": {"green": 1}, "left": {"green": 1}},
            "goals": {"revealed": "twovp2", "hidden": ["labor5", "workers2", "buildings4", "coins5"]},
        },
        [
            {"input": {"type": "EndTurn"}, "result": {"reject": "no_worker_moved"}},
            {"input": {"type": "Build", "building": "smithy"}, "result": {"reject": "no_worker_moved"}},
            {"input": _move("village", "top"), "result": {"reject": "piece_not_on_space"}},
            {"input": _move("green", "top")},
            {"input": {"type": "UseLender", "target": "union"}, "result": {"reject": "lender_not_built"}},
            {"input": {"type": "Build", "building": "village"}, "result": {"reject": "insufficient_labor"}},
            {"input": {"type": "Build", "building": "bank"}, "result": {"reject": "prerequisite_missing"}},
            {"input": {"type": "Build", "building": "camp"}, "result": {"reject": "already_built"}},
            {"input": {"type": "UnionConvert", "count": 1}, "result": {"reject": "union_not_available"}},
            {"input": {"type": "RepayLender"}, "result": {"reject": "not_holding_lender_coin"}},
            {"input": {"type": "HireSailor"}, "result": {"reject": "harbor_not_available"}},
            {
                "input": {"type": "Build", "building": "lender"},
                "derived": [
                    {
                        "type": "BuildingBuilt",
                        "player": "A",
                        "building": "lender",
                        "first": False,
                        "vp_scored": 0,
                    }
                ],
            },
            {"input": {"type": "Build", "building": "union"}, "result": {"reject": "build_limit_reached"}},
            {
                "input": {"type": "UseLender", "target": "union"},
                "derived": [
                    {"type": "LenderUsed", "player": "A", "target": "union"},
                    {"type": "LenderCoinMoved", "from": "supply", "to": "A"},
                ],
            },
            {"input": {"type": "UnionConvert", "count": 1}},
            {"input": {"type": "Grind", "count": 1}},
            {"input": {"type": "EndTurn"}, "derived": _next("A", 0, 9, "B")},
        ],
        {
            "turn": 9,
            "active": "B",
            "players": {
                "A": {"coins": 3, "built": ["camp", "mill", "lender"], "first": ["camp", "mill"]},
                "B": {"coins": 3},
            },
            "lender_coin": "A",
            "supply": 22,
            "board": {"top": {"camp": True}, "right": {"green": 2}, "left": {"green": 1}},
        },
    )


def test_e13_the_labor_goal_then_a_claim_at_a_reveal_then_the_game_ends_on_two_conditions() -> None:
    state = run(
        {
            "turn": 17,
            "active": "B",
            "phase": "spending",
            "turn_state": {"moves": 2, "labor_gained": 1},
            "players": {
                "A": {"coins": 5, "built": ["mill", "smithy", "camp"], "first": ["mill", "smithy", "camp"]},
                "B": {
                    "coins": 11,
                    "labor": 1,
                    "built": ["lender", "bank", "union", "harbor"],
                    "first": ["lender", "bank", "union", "harbor"],
                    "goals": ["buildings4"],
                },
            },
            "board": {"top": {"green": 1, "camp": True}, "right": {"green": 1}, "left": {"green": 1}},
            "ships": {"faces": ["white", "black"], "result": "WB"},
            "harbor_master": "B",
            "goals": {"revealed": "labor5", "hidden": ["twovp2", "workers2"], "removed": ["coins5"]},
        },
        [
            {
                "input": {"type": "EndTurn"},
                "derived": [*_next("B", 1, 18, "A"), _labor("A", "mill"), _labor("A", "smithy")],
            },
            {"input": _move("green", "top")},
            {"input": _move("camp", "top")},
            {
                "input": _move("green", "right"),
                "derived": [
                    _moved("green", "right", "left"),
                    _labor("A"),
                    {"type": "GoalClaimed", "player": "A", "goal": "labor5"},
                    {"type": "GoalRevealed", "goal": "twovp2"},
                    {"type": "GoalClaimed", "player": "B", "goal": "twovp2"},
                    {"type": "GoalRevealed", "goal": "workers2"},
                ],
            },
            {"input": _move("green", "left")},
            {
                "input": {"type": "Build", "building": "village"},
                "derived": [
                    {
                        "type": "BuildingBuilt",
                        "player": "A",
                        "building": "village",
                        "first": True,
                        "vp_scored": 2,
                    },
                    {"type": "WorkerPlaced", "piece": "village", "space": "top"},
                    {"type": "GoalClaimed", "player": "A", "goal": "workers2"},
                ],
            },
            {
                "input": {"type": "EndTurn"},
                "derived": [
                    {"type": "LaborDiscarded", "player": "A", "amount": 2},
                    {
                        "type": "GameEnded",
                        "reasons": ["all_buildings_built", "all_goals_resolved"],
                        "scores": {"A": _score(6, 2, 0, 0, 8, 4), "B": _score(6, 2, 2, 0, 10, 4)},
                        "winner": "B",
                        "tie_break": False,
                    },
                ],
            },
        ],
        {
            "status": "finished",
            "players": {
                "A": {
                    "coins": 1,
                    "built": ["mill", "smithy", "camp", "village"],
                    "goals": ["labor5", "workers2"],
                },
                "B": {"coins": 11, "goals": ["buildings4", "twovp2"]},
            },
            "goals": {"revealed": None, "hidden": [], "removed": ["coins5"]},
            "board": {
                "top": {"green": 1, "village": True},
                "right": {"green": 1, "camp": True},
                "left": {"green": 1},
            },
        },
    )
    assert RULESET.outcome(state) is not None


def test_e14_hiring_a_sailor_completes_the_workers_goal_at_once() -> None:
    run(
        {
            "turn": 25,
            "active": "A",
            "phase": "spending",
            "turn_state": {"moves": 1, "labor_gained": 1},
            "players": {
                "A": {
                    "coins": 4,
                    "labor": 1,
                    "built": ["camp", "union", "harbor"],
                    "first": ["camp", "union", "harbor"],
                },
                "B": {
                    "coins": 6,
                    "built": ["mill", "lender"],
                    "first": ["mill", "lender"],
                    "goals": ["coins5"],
                },
            },
            "board": {"top": {"green": 1}, "right": {"green": 1, "camp": True}, "left": {"green": 1}},
            "ships": {"faces": ["black", "white"], "result": "WB"},
            "harbor_master": "A",
            "goals": {"revealed": "workers2", "hidden": ["labor5", "twovp2", "buildings4"]},
        },
        [
            {
                "input": {"type": "HireSailor"},
                "derived": [
                    {"type": "SailorHired", "player": "A"},
                    {"type": "WorkerPlaced", "piece": "sailor", "space": "top", "owner": "A"},
                    {"type": "GoalClaimed", "player": "A", "goal": "workers2"},
                    {"type": "GoalRevealed", "goal": "labor5"},
                ],
            },
            {"input": {"type": "EndTurn"}, "derived": [*_next("A", 1, 26, "B"), _labor("B", "mill")]},
        ],
        {
            "turn": 26,
            "active": "B",
            "players": {
                "A": {"coins": 1, "sailors": 1, "goals": ["workers2"]},
                "B": {"coins": 6, "labor": 1},
            },
            "board": {
                "top": {"green": 1, "sailors": {"A": 1}},
                "right": {"green": 1, "camp": True},
                "left": {"green": 1},
            },
            "goals": {"revealed": "labor5", "hidden": ["twovp2", "buildings4"]},
            "supply": 21,
        },
    )


def test_a_rejected_input_leaves_the_state_untouched() -> None:
    state = play(
        replace(RULESET.initial(config()), status="in_progress"),
        [],
    )
    outcome = RULESET.decide(state, Command(TossShips(("white", "black")), None, "recorder"), NoRng())
    assert isinstance(outcome, Rejection)
