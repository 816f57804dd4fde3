"""Scenario tests per rule and per error code of province.md 7.6."""

from __future__ import annotations

from typing import Any

import pytest

from domain.games.province import RULESET
from domain.games.province.actions import (
    Build,
    DetermineFirstPlayer,
    EndTurn,
    MoveWorker,
    RevealGoal,
    TossShips,
)
from domain.games.province.events import ShipsTossed
from domain.rng import NoRng
from domain.ruleset import Command, Rejection
from tests.unit.province.scenarios import make_state, play, run, ships

GOALS = {"revealed": "twovp2", "hidden": ["labor5", "workers2", "buildings4", "coins5"]}
BOARD = {"top": {"green": 1}, "right": {"green": 1}, "left": {"green": 1}}


def start(**overrides: Any) -> dict[str, Any]:
    """A turn-8 position of A in the labor phase (like E12), with overrides."""
    fixture: dict[str, Any] = {
        "turn": 8,
        "active": "A",
        "phase": "labor",
        "players": {"A": {"coins": 6}, "B": {"coins": 3}},
        "board": BOARD,
        "goals": GOALS,
    }
    fixture.update(overrides)
    return fixture


def spending(**overrides: Any) -> dict[str, Any]:
    turn_state = {"moves": 1, **overrides.pop("turn_state", {})}
    return start(phase="spending", turn_state=turn_state, **overrides)


def move(piece: str, src: str, **extra: Any) -> dict[str, Any]:
    return {"type": "MoveWorker", "piece": piece, "from": src, **extra}


def reject(code: str) -> dict[str, str]:
    return {"reject": code}


# --- common checks ----------------------------------------------------------------------------


def test_a_seat_cannot_act_when_it_is_not_its_turn() -> None:
    state = make_state(start())
    outcome = RULESET.decide(state, Command(MoveWorker("green", "top"), "B", "seat"), NoRng())
    assert isinstance(outcome, Rejection) and outcome.code == "not_active_player"
    outcome = RULESET.decide(state, Command(MoveWorker("green", "top"), None, "seat"), NoRng())
    assert isinstance(outcome, Rejection) and outcome.code == "not_active_player"


def test_the_recorder_acts_for_the_active_seat_but_not_for_the_other() -> None:
    state = make_state(start())
    assert not isinstance(
        RULESET.decide(state, Command(MoveWorker("green", "top"), None, "recorder"), NoRng()), Rejection
    )
    outcome = RULESET.decide(state, Command(MoveWorker("green", "top"), "B", "recorder"), NoRng())
    assert isinstance(outcome, Rejection) and outcome.code == "not_active_player"


def test_a_pending_random_input_comes_before_whose_turn_it_is() -> None:
    state = make_state(
        start(mode="physical", awaiting="ship_toss", goals={"revealed": "twovp2", "hidden_count": 4})
    )
    outcome = RULESET.decide(state, Command(MoveWorker("green", "top"), "B", "seat"), NoRng())
    assert isinstance(outcome, Rejection) and outcome.code == "awaiting_random_input"


@pytest.mark.parametrize(
    "step_input",
    [
        move("dragon", "top"),
        move("green", "middle"),
        move("green", "top", to="left"),
        move("green", "top", to="nowhere"),
        {"type": "Build", "building": "castle"},
        {"type": "UseLender", "target": "castle"},
        {"type": "Grind", "count": 0},
        {"type": "UnionConvert", "count": -1},
    ],
)
def test_malformed_payloads_are_refused_as_invalid_payload(step_input: dict[str, Any]) -> None:
    run(
        start(players={"A": {"coins": 6, "built": ["lender", "union"]}}),
        [{"input": step_input, "result": reject("invalid_payload")}],
    )


def test_a_move_may_name_its_destination_when_it_follows_the_arrow() -> None:
    run(
        start(),
        [{"input": move("green", "top", to="right"), "derived": [{"type": "WorkerMoved", "to": "right"}]}],
    )


def test_a_finished_game_refuses_every_input() -> None:
    state = make_state(start())
    from msgspec.structs import replace

    state = replace(state, status="finished")
    for action in (EndTurn(), TossShips(("white", "black")), RevealGoal("labor5")):
        outcome = RULESET.decide(state, Command(action, None, "recorder"), NoRng())
        assert isinstance(outcome, Rejection) and outcome.code == "game_over"


# --- the work cycle ---------------------------------------------------------------------------


def test_only_its_owner_may_move_a_sailor() -> None:
    board = {
        "top": {"green": 1, "sailors": {"B": 1}},
        "right": {"green": 1, "sailors": {"A": 1}},
        "left": {"green": 1},
    }
    run(
        start(board=board, players={"A": {"coins": 6, "sailors": 1}, "B": {"coins": 3, "sailors": 1}}),
        [
            {"input": move("sailor", "top"), "result": reject("piece_not_accessible")},
            {"input": move("sailor", "left"), "result": reject("piece_not_on_space")},
            {
                "input": move("sailor", "right"),
                "derived": [{"type": "WorkerMoved", "piece": "sailor", "to": "left"}],
            },
            {"input": move("sailor", "left"), "result": reject("piece_already_moved")},
        ],
        {"board": {"right": {"green": 1}, "left": {"green": 1, "sailors": {"A": 1}}}},
    )


def test_moves_end_with_the_labor_phase() -> None:
    run(
        spending(),
        [{"input": move("green", "top"), "result": reject("wrong_phase")}],
    )


def test_a_borrowed_bank_doubles_only_later_landings() -> None:
    board = {"top": {}, "right": {"green": 1}, "left": {"green": 2}}
    run(
        start(
            board=board,
            players={"A": {"coins": 6, "built": ["lender"]}, "B": {"coins": 3, "built": ["lender", "bank"]}},
        ),
        [
            {
                "input": move("green", "left"),
                "derived": [{"type": "CoinsGained", "amount": 1, "requested": 1}],
            },
            {"input": {"type": "UseLender", "target": "bank"}},
            {
                "input": move("green", "left"),
                "derived": [{"type": "CoinsGained", "amount": 2, "requested": 2}],
            },
        ],
        {"players": {"A": {"coins": 9}}, "lender_coin": "A"},
    )


def test_a_coin_landing_with_an_empty_supply_pays_nothing() -> None:
    board = {"top": {}, "right": {}, "left": {"green": 3}}
    run(
        start(board=board, players={"A": {"coins": 14}, "B": {"coins": 14}}),
        [{"input": move("green", "left"), "derived": [{"type": "CoinsGained", "amount": 0, "requested": 1}]}],
        {"supply": 0},
    )


# --- building ---------------------------------------------------------------------------------


def test_a_player_with_seven_buildings_has_no_token_left() -> None:
    built = ["lender", "bank", "camp", "village", "mill", "smithy", "union"]
    run(
        spending(players={"A": {"coins": 20, "labor": 9, "built": built}, "B": {"coins": 3}}),
        [{"input": {"type": "Build", "building": "harbor"}, "result": reject("no_building_tokens")}],
    )


def test_a_building_costs_its_coins() -> None:
    run(
        spending(players={"A": {"coins": 1, "labor": 3}, "B": {"coins": 3}}),
        [{"input": {"type": "Build", "building": "camp"}, "result": reject("insufficient_coins")}],
    )


def test_a_borrowed_building_does_not_satisfy_a_prerequisite() -> None:
    run(
        start(
            players={
                "A": {"coins": 9, "labor": 4, "built": ["lender"]},
                "B": {"coins": 3, "built": ["union"]},
            }
        ),
        [
            {"input": {"type": "UseLender", "target": "union"}},
            {"input": move("green", "top")},
            {"input": {"type": "Build", "building": "harbor"}, "result": reject("prerequisite_missing")},
        ],
    )


def test_a_second_builder_scores_nothing_and_places_no_piece() -> None:
    state = run(
        spending(
            players={"A": {"coins": 6, "labor": 2}, "B": {"coins": 3, "built": ["camp"], "first": ["camp"]}},
            board={"top": {"green": 1, "camp": True}, "right": {"green": 1}, "left": {"green": 1}},
        ),
        [
            {
                "input": {"type": "Build", "building": "camp"},
                "derived": [{"type": "BuildingBuilt", "first": False, "vp_scored": 0}],
            }
        ],
        {"players": {"A": {"built": ["camp"], "first": []}}},
    )
    assert sum(space.camp for space in state.board) == 1


def test_a_second_harbor_builder_does_not_toss_by_default() -> None:
    state = make_state(
        spending(
            players={
                "A": {"coins": 9, "labor": 4, "built": ["union"]},
                "B": {"coins": 3, "built": ["union", "harbor"]},
            },
            harbor_master="B",
            ships={"faces": ["white", "white"], "result": "WW"},
        )
    )
    state = play(state, [{"input": {"type": "Build", "building": "harbor"}}])
    rng = ships((0, (1, 2)))
    facts = RULESET.decide(state, Command(EndTurn(), "A", "seat"), rng)
    assert not isinstance(facts, Rejection)
    assert [f.reason for f in facts if isinstance(f, ShipsTossed)] == ["harbor_master_turn"]
    rng.assert_all_drawn()


# --- grinding and the union -------------------------------------------------------------------


def test_grinding_needs_two_labor_per_coin() -> None:
    run(
        spending(players={"A": {"coins": 6, "labor": 3}, "B": {"coins": 3}}),
        [
            {"input": {"type": "Grind", "count": 2}, "result": reject("insufficient_labor")},
            {"input": {"type": "Grind"}},
        ],
        {"players": {"A": {"coins": 7, "labor": 1}}},
    )


# --- harbor and sailors -----------------------------------------------------------------------


def harbor_start(result: str, faces: list[str], **players: Any) -> dict[str, Any]:
    return spending(
        players=players or {"A": {"coins": 6, "built": ["union", "harbor"]}, "B": {"coins": 3}},
        harbor_master="A",
        ships={"faces": faces, "result": result},
    )


def test_sailors_are_hired_only_when_the_ships_show_white_and_black() -> None:
    run(
        harbor_start("WW", ["white", "white"]),
        [{"input": {"type": "HireSailor"}, "result": reject("ships_not_white_black")}],
    )


def test_a_sailor_costs_three_coins() -> None:
    run(
        harbor_start("WB", ["white", "black"], A={"coins": 2, "built": ["union", "harbor"]}, B={"coins": 3}),
        [{"input": {"type": "HireSailor"}, "result": reject("insufficient_coins")}],
    )


def test_the_shared_sailor_pool_runs_out() -> None:
    run(
        harbor_start(
            "WB",
            ["white", "black"],
            A={"coins": 6, "built": ["union", "harbor"], "sailors": 1},
            B={"coins": 3, "sailors": 2},
        ),
        [{"input": {"type": "HireSailor"}, "result": reject("no_sailor_available")}],
    )


def test_a_borrowed_harbor_pays_its_current_income_at_once() -> None:
    lender_start = start(
        players={"A": {"coins": 6, "built": ["lender"]}, "B": {"coins": 3, "built": ["union", "harbor"]}},
        harbor_master="B",
        ships={"faces": ["black", "black"], "result": "BB"},
    )
    run(
        lender_start,
        [
            {
                "input": {"type": "UseLender", "target": "harbor"},
                "derived": [{"type": "CoinsGained", "player": "A", "amount": 1, "source": "lender_harbor"}],
            }
        ],
        {"harbor_master": "B", "players": {"A": {"coins": 7}}},
    )
    ww = {**lender_start, "ships": {"faces": ["white", "white"], "result": "WW"}}
    run(
        ww,
        [
            {
                "input": {"type": "UseLender", "target": "harbor"},
                "derived": [{"type": "LaborGained", "player": "A", "amount": 1, "source": "lender_harbor"}],
            }
        ],
    )
    wb = {**lender_start, "ships": {"faces": ["white", "black"], "result": "WB"}}
    run(
        wb,
        [
            {"input": {"type": "UseLender", "target": "harbor"}},
            {"input": move("green", "top")},
            {"input": {"type": "HireSailor"}, "derived": [{"type": "SailorHired", "player": "A"}]},
        ],
        {"players": {"A": {"sailors": 1, "coins": 3}}},
    )


def test_the_harbor_cannot_be_borrowed_before_the_first_toss() -> None:
    run(
        start(
            players={"A": {"coins": 6, "built": ["lender"]}, "B": {"coins": 3, "built": ["union", "harbor"]}}
        ),
        [{"input": {"type": "UseLender", "target": "harbor"}, "result": reject("no_ship_state")}],
    )


# --- the lender -------------------------------------------------------------------------------


def lender_start(**overrides: Any) -> dict[str, Any]:
    fixture = start(
        players={
            "A": {"coins": 6, "built": ["lender"]},
            "B": {"coins": 3, "built": ["lender", "mill", "camp", "union"]},
        },
        board={"top": {"green": 1, "camp": True}, "right": {"green": 1}, "left": {"green": 1}},
    )
    fixture.update(overrides)
    return fixture


def test_a_player_cannot_borrow_the_lender_while_holding_its_coin() -> None:
    run(
        lender_start(lender_coin="A"),
        [{"input": {"type": "UseLender", "target": "mill"}, "result": reject("lender_coin_held")}],
    )


@pytest.mark.parametrize("target", ["lender", "bank", "smithy"])
def test_the_lender_borrows_only_what_the_opponent_built(target: str) -> None:
    run(
        lender_start(),
        [{"input": {"type": "UseLender", "target": target}, "result": reject("invalid_lender_target")}],
    )


def test_the_lender_cannot_borrow_a_building_the_borrower_has() -> None:
    fixture = lender_start()
    fixture["players"]["A"]["built"] = ["lender", "mill"]
    run(
        fixture,
        [{"input": {"type": "UseLender", "target": "mill"}, "result": reject("invalid_lender_target")}],
    )


def test_the_camp_is_borrowed_only_in_the_labor_phase() -> None:
    run(
        lender_start(phase="spending", turn_state={"moves": 1}),
        [
            {"input": {"type": "UseLender", "target": "camp"}, "result": reject("lender_timing")},
            {
                "input": {"type": "UseLender", "target": "mill"},
                "derived": [{"type": "LaborGained", "source": "lender_mill"}],
            },
        ],
    )


def test_repaying_needs_three_coins() -> None:
    run(
        lender_start(
            phase="spending",
            turn_state={"moves": 1},
            lender_coin="A",
            players={"A": {"coins": 2, "built": ["lender"]}, "B": {"coins": 3}},
        ),
        [{"input": {"type": "RepayLender"}, "result": reject("insufficient_coins")}],
    )


def test_after_repaying_the_lender_cannot_be_used_again_that_turn() -> None:
    run(
        lender_start(lender_coin="A"),
        [
            {"input": move("green", "top")},
            {
                "input": {"type": "RepayLender"},
                "derived": [{"type": "LenderCoinMoved", "from": "A", "to": "supply"}],
            },
            {"input": {"type": "UseLender", "target": "mill"}},
            {"input": {"type": "RepayLender"}},
            {"input": {"type": "UseLender", "target": "union"}, "result": reject("lender_already_used")},
        ],
        {"lender_coin": "supply", "players": {"A": {"coins": 0, "labor": 2}}},
    )


# --- goals ------------------------------------------------------------------------------------


def test_the_labor_goal_counts_only_for_the_active_player() -> None:
    run(
        spending(
            players={"A": {"coins": 6, "labor": 2}, "B": {"coins": 5}},
            goals={"revealed": "labor5", "hidden": ["coins5"]},
            turn_state={"moves": 1, "labor_gained": 5},
        ),
        [
            {
                "input": {"type": "Grind"},
                "derived": [
                    {"type": "GoalClaimed", "player": "A", "goal": "labor5"},
                    {"type": "GoalRevealed", "goal": "coins5"},
                    {"type": "GoalRemoved", "goal": "coins5"},
                ],
            }
        ],
        {"goals": {"revealed": None, "hidden": [], "removed": ["coins5"]}},
    )


def test_the_opponent_claims_a_goal_revealed_during_the_active_players_turn() -> None:
    run(
        spending(
            players={
                "A": {"coins": 4, "labor": 2, "built": ["lender", "camp", "mill"]},
                "B": {"coins": 3, "built": ["bank", "smithy"]},
            },
            goals={"revealed": "buildings4", "hidden": ["twovp2", "coins5"]},
        ),
        [
            {"input": {"type": "Build", "building": "union"}, "result": reject("insufficient_labor")},
            {"input": {"type": "Build", "building": "mill"}, "result": reject("already_built")},
            {"input": {"type": "Grind"}},
        ],
        {"goals": {"revealed": "buildings4", "hidden": ["twovp2", "coins5"]}},
    )
    run(
        spending(
            players={
                "A": {"coins": 4, "labor": 3, "built": ["lender", "camp", "mill"]},
                "B": {"coins": 3, "built": ["bank", "smithy"]},
            },
            goals={"revealed": "buildings4", "hidden": ["twovp2", "coins5"]},
        ),
        [
            {
                "input": {"type": "Build", "building": "union"},
                "derived": [
                    {"type": "GoalClaimed", "player": "A", "goal": "buildings4"},
                    {"type": "GoalRevealed", "goal": "twovp2"},
                    {"type": "GoalClaimed", "player": "B", "goal": "twovp2"},
                ],
            }
        ],
    )


def test_a_physical_game_pauses_a_goal_check_for_the_next_reveal_and_resumes_it() -> None:
    fixture = spending(
        mode="physical",
        players={"A": {"coins": 4, "labor": 3, "built": ["lender", "camp", "mill"]}, "B": {"coins": 6}},
        goals={"revealed": "buildings4", "hidden_count": 2, "removed": ["labor5"]},
    )
    run(
        fixture,
        [
            {
                "input": {"type": "Build", "building": "union"},
                "derived": [
                    {"type": "GoalClaimed", "goal": "buildings4"},
                    {"type": "RandomInputRequested", "awaiting": "goal_reveal"},
                ],
            },
            {"input": {"type": "EndTurn"}, "result": reject("awaiting_random_input")},
            {"input": {"type": "RevealGoal", "goal": "castle"}, "result": reject("goal_not_in_pool")},
            {"input": {"type": "RevealGoal", "goal": "labor5"}, "result": reject("goal_already_seen")},
            {
                "input": {"type": "TossShips", "faces": ["white", "black"]},
                "result": reject("awaiting_random_input"),
            },
            {
                "input": {"type": "RevealGoal", "goal": "coins5"},
                "derived": [
                    {"type": "GoalRevealed", "goal": "coins5"},
                    {"type": "GoalClaimed", "player": "B", "goal": "coins5"},
                    {"type": "RandomInputRequested", "awaiting": "goal_reveal"},
                ],
            },
            {"input": {"type": "RevealGoal", "goal": "workers2"}},
            {"input": {"type": "EndTurn"}},
        ],
        {
            "active": "B",
            "goals": {"revealed": "workers2", "hidden_count": 0, "removed": ["labor5"]},
            "players": {"B": {"goals": ["coins5"]}},
        },
    )


def test_a_physical_recorder_only_enters_tosses_when_one_is_due() -> None:
    state = make_state(start(mode="physical", goals={"revealed": "twovp2", "hidden_count": 4}))
    for action, code in (
        (TossShips(("white", "black")), "no_toss_pending"),
        (TossShips(("white",)), "invalid_random_result"),
        (TossShips(("white", "white"), result="BB"), "invalid_random_result"),
        (DetermineFirstPlayer("A"), "wrong_phase"),
        (DetermineFirstPlayer("C"), "invalid_payload"),
        (DetermineFirstPlayer("A", "grey"), "invalid_random_result"),
    ):
        outcome = RULESET.decide(state, Command(action, None, "recorder"), NoRng())
        assert isinstance(outcome, Rejection) and outcome.code == code, (action, outcome)
    outcome = RULESET.decide(state, Command(TossShips(("white", "black")), "A", "seat"), NoRng())
    assert isinstance(outcome, Rejection) and outcome.code == "random_input_not_allowed"


def test_a_physical_toss_at_the_end_of_the_harbor_turn_starts_the_next_turn() -> None:
    run(
        spending(
            mode="physical",
            players={"A": {"coins": 9, "labor": 4, "built": ["union"]}, "B": {"coins": 3}},
            goals={"revealed": "twovp2", "hidden_count": 4},
        ),
        [
            {"input": {"type": "Build", "building": "harbor"}},
            {
                "input": {"type": "EndTurn"},
                "derived": [
                    {"type": "RandomInputRequested", "awaiting": "ship_toss", "reason": "harbor_built"}
                ],
            },
            {
                "input": {"type": "TossShips", "faces": ["black", "black"], "reason": "harbor_master_turn"},
                "result": reject("invalid_random_result"),
            },
            {
                "input": {
                    "type": "TossShips",
                    "faces": ["black", "black"],
                    "result": "BB",
                    "reason": "harbor_built",
                },
                "derived": [
                    {"type": "ShipsTossed", "observed": True, "reason": "harbor_built"},
                    {"type": "TurnStarted", "turn": 9, "player": "B"},
                ],
            },
        ],
        {
            "active": "B",
            "phase": "labor",
            "ships": {"faces": ["black", "black"], "result": "BB"},
            "players": {"A": {"coins": 4}},
        },
    )


# --- the end ----------------------------------------------------------------------------------


def test_the_game_does_not_end_before_the_turn_ends_and_later_actions_count() -> None:
    built = ["lender", "bank", "camp", "village", "mill", "smithy"]
    run(
        spending(players={"A": {"coins": 10, "labor": 8, "built": built, "first": built}, "B": {"coins": 3}}),
        [
            {"input": {"type": "Build", "building": "union"}},
            {"input": {"type": "Grind", "count": 2}},
            {
                "input": {"type": "EndTurn"},
                "derived": [{"type": "GameEnded", "reasons": ["seven_buildings"], "winner": "A"}],
            },
        ],
        {"status": "finished", "players": {"A": {"coins": 10}}},
    )


def test_a_drawn_game_has_no_winner_and_shares_first_rank() -> None:
    state = run(
        spending(
            players={
                "A": {"coins": 5, "built": ["camp"], "first": ["camp"]},
                "B": {"coins": 5, "built": ["mill"], "first": ["mill"]},
            },
            goals={"revealed": None, "hidden": []},
        ),
        [
            {
                "input": {"type": "EndTurn"},
                "derived": [
                    {
                        "type": "GameEnded",
                        "reasons": ["all_goals_resolved"],
                        "winner": None,
                        "tie_break": True,
                    }
                ],
            }
        ],
    )
    result = RULESET.outcome(state)
    assert result is not None and result.winners == () and result.ranks == {"A": 1, "B": 1}


def test_a_build_refused_for_labor_does_not_start_the_spending_phase() -> None:
    state = run(
        start(turn_state={"moves": 0}),
        [
            {"input": move("green", "top")},
            {"input": {"type": "Build", "building": "camp"}, "result": reject("insufficient_labor")},
        ],
        {"phase": "labor"},
    )
    assert not isinstance(
        RULESET.decide(state, Command(MoveWorker("green", "right"), "A", "seat"), NoRng()), Rejection
    )


def test_turn_start_income_from_the_mill_and_the_smithy() -> None:
    run(
        spending(players={"A": {"coins": 6}, "B": {"coins": 3, "built": ["mill", "smithy"]}}),
        [
            {
                "input": {"type": "EndTurn"},
                "derived": [
                    {"type": "LaborGained", "player": "B", "source": "mill"},
                    {"type": "LaborGained", "player": "B", "source": "smithy"},
                ],
            }
        ],
        {"players": {"B": {"labor": 2}}},
    )


def test_the_harbor_master_retosses_before_income_at_each_turn_start() -> None:
    run(
        start(
            active="B",
            turn=9,
            phase="spending",
            turn_state={"moves": 1},
            players={"A": {"coins": 6, "built": ["union", "harbor"]}, "B": {"coins": 3}},
            harbor_master="A",
            ships={"faces": ["white", "black"], "result": "WB"},
        ),
        [
            {
                "input": {"type": "EndTurn"},
                "derived": [
                    {"type": "TurnStarted", "player": "A"},
                    {"type": "ShipsTossed", "faces": ["black", "black"]},
                    {"type": "CoinsGained", "player": "A", "source": "harbor"},
                ],
            }
        ],
        {"players": {"A": {"coins": 7}}},
        rng=ships((0, (2, 2))),
    )


def test_build_is_accepted_in_the_labor_phase_after_a_move_and_opens_spending() -> None:
    state = run(
        start(players={"A": {"coins": 6, "labor": 1}, "B": {"coins": 3}}),
        [
            {"input": move("green", "top")},
            {
                "input": {"type": "Build", "building": "mill"},
                "derived": [{"type": "PhaseChanged", "phase": "spending"}],
            },
        ],
        {"phase": "spending"},
    )
    assert isinstance(RULESET.decide(state, Command(Build("camp"), "A", "seat"), NoRng()), Rejection)
