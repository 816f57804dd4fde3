"""One scenario (at least) per variant option of province.md 10.4 (decisions D3-D27)."""

from __future__ import annotations

from typing import Any

from domain.games.province import RULESET
from domain.games.province.events import FirstPlayerDetermined, GoalOrderDrawn
from domain.rng import NoRng, ScriptedRng
from domain.ruleset import Rejection, resolve_options
from tests.unit.province.scenarios import config, fold, make_state, play, run, ships

GOALS = {"revealed": "twovp2", "hidden": ["labor5", "workers2", "buildings4", "coins5"]}
BOARD = {"top": {"green": 1}, "right": {"green": 1}, "left": {"green": 1}}
TEN_OPTIONS = {
    "coin_supply_total",
    "coin_change",
    "grind_on_empty_supply",
    "labor_carryover",
    "max_builds_per_turn",
    "union_uses_per_turn",
    "bank_doubles",
    "harbor_toss_on_any_build",
    "harbor_beneficiaries",
    "sailor_pool",
    "lender_use_while_holding",
    "lender_uses_per_turn",
    "lender_timing",
    "lender_repay_timing",
    "goal_check",
    "labor_goal_counts_conversions",
    "workers_goal_basis",
    "twovp_goal_counts",
    "buildings_goal_counts",
    "goal_pool",
    "end_check",
    "first_player_method",
    "rng_algorithm",
    "harbor_income_timing",
    "lender_targets",
}


def start(variants: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    fixture: dict[str, Any] = {
        "variants": variants,
        "turn": 8,
        "active": "A",
        "phase": "labor",
        "players": {"A": {"coins": 6}, "B": {"coins": 3}},
        "board": BOARD,
        "goals": GOALS,
    }
    fixture.update(overrides)
    return fixture


def spending(variants: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    turn_state = {"moves": 1, **overrides.pop("turn_state", {})}
    return start(variants, phase="spending", turn_state=turn_state, **overrides)


def move(piece: str, src: str) -> dict[str, Any]:
    return {"type": "MoveWorker", "piece": piece, "from": src}


def reject(code: str) -> dict[str, str]:
    return {"reject": code}


def test_every_variant_of_the_spec_is_an_option_with_its_default() -> None:
    names = {o.name for o in RULESET.meta.options}
    assert names == TEN_OPTIONS | {"first_player"}
    defaults = resolve_options(RULESET.meta, {})
    assert not isinstance(defaults, Rejection)
    assert defaults["coin_supply_total"] == 28 and defaults["max_builds_per_turn"] == "1"
    assert defaults["union_uses_per_turn"] == "unlimited" and defaults["end_check"] == "end_of_turn"


def test_d3_a_retail_supply_of_35_coins() -> None:
    run(start({"coin_supply_total": 35}), [], {"supply": 26})


def test_d4_exact_coin_tokens_are_refused_at_creation() -> None:
    refused = resolve_options(RULESET.meta, {"coin_change": "exact_tokens"})
    assert isinstance(refused, Rejection) and refused.code == "invalid_option"


def test_d5_grinding_with_an_empty_supply_may_pay_nothing() -> None:
    players = {"A": {"coins": 14, "labor": 2}, "B": {"coins": 14}}
    run(spending({}, players=players), [{"input": {"type": "Grind"}, "result": reject("supply_empty")}])
    run(
        spending({"grind_on_empty_supply": "allow_no_gain"}, players=players),
        [
            {
                "input": {"type": "Grind"},
                "derived": [
                    {"type": "LaborSpent", "amount": 2},
                    {"type": "CoinsGained", "amount": 0, "requested": 1},
                ],
            }
        ],
        {"players": {"A": {"labor": 0, "coins": 14}}},
    )


def test_d6_labor_may_carry_over_as_a_house_rule() -> None:
    state = run(
        spending({"labor_carryover": True}, players={"A": {"coins": 6, "labor": 3}, "B": {"coins": 3}}),
        [{"input": {"type": "EndTurn"}}],
        {"active": "B", "players": {"A": {"labor": 3}}},
    )
    assert state.phase == "labor"


def test_d7_several_buildings_per_turn() -> None:
    players = {"A": {"coins": 9, "labor": 4}, "B": {"coins": 3}}
    run(
        spending({}, players=players),
        [
            {"input": {"type": "Build", "building": "mill"}},
            {"input": {"type": "Build", "building": "lender"}, "result": reject("build_limit_reached")},
        ],
    )
    run(
        spending({"max_builds_per_turn": "unlimited"}, players=players),
        [
            {"input": {"type": "Build", "building": "mill"}},
            {"input": {"type": "Build", "building": "lender"}},
        ],
        {"players": {"A": {"built": ["mill", "lender"], "coins": 5, "labor": 1}}},
    )


def test_d8_one_union_conversion_per_turn() -> None:
    players = {"A": {"coins": 9, "built": ["union"]}, "B": {"coins": 3}}
    run(
        spending({"union_uses_per_turn": "1"}, players=players),
        [
            {"input": {"type": "UnionConvert", "count": 2}, "result": reject("union_limit_reached")},
            {"input": {"type": "UnionConvert"}},
            {"input": {"type": "UnionConvert"}, "result": reject("union_limit_reached")},
        ],
        {"players": {"A": {"coins": 7, "labor": 1}}},
    )
    run(
        spending({}, players=players),
        [{"input": {"type": "UnionConvert", "count": 4}}],
        {"players": {"A": {"coins": 1}}},
    )


def b_turn_start(variants: dict[str, Any], result: str, faces: list[str], **players: Any) -> dict[str, Any]:
    """A ends turn 8; B (not Harbor Master) starts turn 9 with the given ships."""
    return spending(variants, players=players, harbor_master="A", ships={"faces": faces, "result": result})


def test_d9_the_bank_may_double_harbor_coins() -> None:
    players = {
        "A": {"coins": 6, "built": ["union", "harbor"]},
        "B": {"coins": 3, "built": ["union", "harbor", "lender", "bank"]},
    }
    income = [
        {"input": {"type": "EndTurn"}, "derived": [{"type": "CoinsGained", "player": "B", "requested": 1}]}
    ]
    run(b_turn_start({}, "BB", ["black", "black"], **players), income, {"players": {"B": {"coins": 4}}})
    doubled = [
        {"input": {"type": "EndTurn"}, "derived": [{"type": "CoinsGained", "player": "B", "requested": 2}]}
    ]
    run(
        b_turn_start({"bank_doubles": "cycle_and_harbor"}, "BB", ["black", "black"], **players),
        doubled,
        {"players": {"B": {"coins": 5}}},
    )


def test_d10_a_second_harbor_builder_may_toss_too() -> None:
    fixture = spending(
        {"harbor_toss_on_any_build": True},
        players={
            "A": {"coins": 9, "labor": 4, "built": ["union"]},
            "B": {"coins": 3, "built": ["union", "harbor"]},
        },
        harbor_master="B",
        ships={"faces": ["white", "white"], "result": "WW"},
    )
    run(
        fixture,
        [
            {"input": {"type": "Build", "building": "harbor"}},
            {
                "input": {"type": "EndTurn"},
                "derived": [
                    {"type": "ShipsTossed", "reason": "harbor_built"},
                    {"type": "TurnStarted", "player": "B"},
                    {"type": "ShipsTossed", "reason": "harbor_master_turn"},
                ],
            },
        ],
        {"harbor_master": "B"},
        rng=ships((0, (1, 2)), (1, (2, 2))),
    )


def test_d11_only_the_harbor_master_may_take_harbor_income() -> None:
    players = {
        "A": {"coins": 6, "built": ["union", "harbor"]},
        "B": {"coins": 3, "built": ["union", "harbor"]},
    }
    run(
        b_turn_start({}, "WW", ["white", "white"], **players),
        [{"input": {"type": "EndTurn"}}],
        {"players": {"B": {"labor": 1}}},
    )
    state = run(
        b_turn_start({"harbor_beneficiaries": "master_only"}, "WB", ["white", "black"], **players),
        [{"input": {"type": "EndTurn"}}, {"input": move("green", "top")}, {"input": {"type": "HireSailor"}}],
        {"players": {"B": {"sailors": 1}}},
    )
    assert state.active == "B"
    run(
        b_turn_start({"harbor_beneficiaries": "master_only"}, "WW", ["white", "white"], **players),
        [{"input": {"type": "EndTurn"}}],
        {"players": {"B": {"labor": 0}}},
    )


def test_d12_each_player_may_have_their_own_three_sailors() -> None:
    fixture = spending(
        {"sailor_pool": "per_player_3"},
        players={
            "A": {"coins": 6, "built": ["union", "harbor"], "sailors": 1},
            "B": {"coins": 3, "sailors": 2},
        },
        harbor_master="A",
        ships={"faces": ["white", "black"], "result": "WB"},
        board={"top": {"green": 1, "sailors": {"A": 1, "B": 2}}, "right": {"green": 1}, "left": {"green": 1}},
    )
    run(fixture, [{"input": {"type": "HireSailor"}}], {"players": {"A": {"sailors": 2}}})
    run(
        {**fixture, "variants": {}},
        [{"input": {"type": "HireSailor"}, "result": reject("no_sailor_available")}],
    )


def lender_fixture(variants: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    return start(
        variants,
        players={
            "A": {"coins": 9, "built": ["lender", "mill"]},
            "B": {"coins": 3, "built": ["lender", "mill", "smithy", "camp", "union", "bank"]},
        },
        board={"top": {"green": 1, "camp": True}, "right": {"green": 1}, "left": {"green": 1}},
        **overrides,
    )


def test_d13_and_d14_a_debtor_may_borrow_again_and_more_than_once() -> None:
    both = {"lender_use_while_holding": True, "lender_uses_per_turn": "unlimited"}
    state = run(
        lender_fixture(both),
        [
            {
                "input": {"type": "UseLender", "target": "smithy"},
                "derived": [{"type": "LenderCoinMoved", "to": "A"}],
            },
            {"input": {"type": "UseLender", "target": "union"}},
            {"input": {"type": "UseLender", "target": "smithy"}, "result": reject("invalid_lender_target")},
        ],
        {"lender_coin": "A", "players": {"A": {"labor": 1}}},
    )
    assert state.turn_state.lender_used == ("smithy", "union")
    run(
        lender_fixture({"lender_uses_per_turn": "unlimited"}),
        [
            {"input": {"type": "UseLender", "target": "smithy"}},
            {"input": {"type": "UseLender", "target": "union"}, "result": reject("lender_coin_held")},
        ],
    )
    run(
        lender_fixture({"lender_use_while_holding": True}, lender_coin="A"),
        [
            {
                "input": {"type": "UseLender", "target": "smithy"},
                "derived": [{"type": "LaborGained", "source": "lender_smithy"}],
            },
            {"input": {"type": "UseLender", "target": "union"}, "result": reject("lender_already_used")},
        ],
    )


def test_d14_unlimited_uses_still_need_the_coin_repaid_in_between() -> None:
    run(
        lender_fixture({"lender_uses_per_turn": "unlimited"}, lender_coin="B"),
        [
            {"input": move("green", "top")},
            {
                "input": {"type": "UseLender", "target": "union"},
                "derived": [{"type": "LenderCoinMoved", "from": "B", "to": "A"}],
            },
            {"input": {"type": "RepayLender"}},
            {"input": {"type": "UseLender", "target": "smithy"}},
        ],
        {"lender_coin": "A", "players": {"A": {"coins": 6}}},
    )


def test_d15_any_building_may_be_borrowed_in_either_phase() -> None:
    run(
        lender_fixture({"lender_timing": "any_phase"}, phase="spending", turn_state={"moves": 1}),
        [
            {
                "input": {"type": "UseLender", "target": "camp"},
                "derived": [{"type": "LenderUsed", "target": "camp"}],
            }
        ],
        {"lender_coin": "A"},
    )


def test_d16_the_lender_may_be_repaid_during_the_labor_phase() -> None:
    run(
        lender_fixture({}, lender_coin="A"),
        [{"input": {"type": "RepayLender"}, "result": reject("no_worker_moved")}],
    )
    run(
        lender_fixture({"lender_repay_timing": "any_time_own_turn"}, lender_coin="A"),
        [{"input": {"type": "RepayLender"}}, {"input": move("green", "top")}],
        {"phase": "labor", "lender_coin": "supply", "players": {"A": {"coins": 6}}},
    )


def test_d17_goals_may_be_checked_only_at_the_end_of_the_turn() -> None:
    fixture = spending(
        {"goal_check": "end_of_turn"},
        players={"A": {"coins": 4, "labor": 2}, "B": {"coins": 3}},
        goals={"revealed": "coins5", "hidden": ["labor5"]},
    )
    run(
        fixture,
        [
            {"input": {"type": "Grind"}, "derived": [{"type": "CoinsGained"}]},
            {
                "input": {"type": "EndTurn"},
                "derived": [
                    {"type": "GoalClaimed", "player": "A", "goal": "coins5"},
                    {"type": "LaborDiscarded"},
                    {"type": "TurnStarted"},
                ],
            },
        ],
        {"goals": {"revealed": "labor5"}, "players": {"A": {"goals": ["coins5"]}}},
    )
    run({**fixture, "variants": {}}, [{"input": {"type": "Grind"}, "derived": [{"type": "GoalClaimed"}]}])


def test_d18_union_labor_may_be_left_out_of_the_labor_goal() -> None:
    fixture = spending(
        {},
        players={"A": {"coins": 6, "built": ["union"]}, "B": {"coins": 3}},
        turn_state={"labor_gained": 4},
        goals={"revealed": "labor5", "hidden": ["coins5"]},
    )
    run(
        fixture, [{"input": {"type": "UnionConvert"}, "derived": [{"type": "GoalClaimed", "goal": "labor5"}]}]
    )
    run(
        {**fixture, "variants": {"labor_goal_counts_conversions": False}},
        [{"input": {"type": "UnionConvert"}}],
        {"goals": {"revealed": "labor5"}},
    )


def test_the_labor_goal_is_never_claimed_by_the_player_who_is_not_active() -> None:
    run(
        spending(
            {},
            players={"A": {"coins": 4, "labor": 5}, "B": {"coins": 3}},
            turn_state={"labor_gained": 4},
            goals={"revealed": "coins5", "hidden": ["labor5"]},
        ),
        [
            {
                "input": {"type": "Grind"},
                "derived": [{"type": "GoalClaimed", "goal": "coins5"}, {"type": "GoalRevealed"}],
            },
            {"input": {"type": "EndTurn"}},
        ],
        {"goals": {"revealed": "labor5"}},
    )


def test_d19_the_workers_goal_may_require_two_non_green_moves() -> None:
    board = {"top": {"green": 1, "camp": True, "village": True}, "right": {"green": 1}, "left": {"green": 1}}
    players = {"A": {"coins": 6, "built": ["camp", "village"]}, "B": {"coins": 3}}
    goals = {"revealed": "workers2", "hidden": ["labor5"]}
    run(
        start({"workers_goal_basis": "moved_in_one_turn"}, board=board, players=players, goals=goals),
        [
            {"input": move("camp", "top"), "derived": [{"type": "WorkerMoved"}]},
            {
                "input": move("village", "top"),
                "derived": [{"type": "GoalClaimed", "player": "A", "goal": "workers2"}],
            },
        ],
    )
    # By default the two buildings give access 2: the goal would have been taken when revealed.
    poorer = {"A": {"coins": 4, "built": ["camp", "village"]}, "B": {"coins": 3}}
    run(
        start({}, board=board, players=poorer, goals={"revealed": "coins5", "hidden": ["workers2"]}),
        [
            {
                "input": move("green", "left"),
                "derived": [
                    {"type": "GoalClaimed", "goal": "coins5"},
                    {"type": "GoalClaimed", "goal": "workers2"},
                ],
            }
        ],
    )


def test_d20_and_d21_goals_may_count_only_scored_buildings() -> None:
    players = {
        "A": {
            "coins": 4,
            "labor": 2,
            "built": ["bank", "village", "lender", "camp"],
            "first": ["village", "lender", "camp"],
        },
        "B": {"coins": 3, "built": ["bank", "mill"], "first": ["bank", "mill"]},
    }
    for goal in ("twovp2", "buildings4"):
        fixture = spending({}, players=players, goals={"revealed": "coins5", "hidden": [goal]})
        run(
            fixture,
            [
                {
                    "input": {"type": "Grind"},
                    "derived": [
                        {"type": "GoalRevealed", "goal": goal},
                        {"type": "GoalClaimed", "player": "A", "goal": goal},
                    ],
                }
            ],
        )
    twovp = spending(
        {"twovp_goal_counts": "scored"}, players=players, goals={"revealed": "coins5", "hidden": ["twovp2"]}
    )
    run(twovp, [{"input": {"type": "Grind"}}], {"goals": {"revealed": "twovp2"}})
    four = spending(
        {"buildings_goal_counts": "scored"},
        players=players,
        goals={"revealed": "coins5", "hidden": ["buildings4"]},
    )
    run(four, [{"input": {"type": "Grind"}}], {"goals": {"revealed": "buildings4"}})


def test_d22_the_goal_pool_comes_from_the_rules_data() -> None:
    option = RULESET.meta.option("goal_pool")
    assert option is not None and option.choices == ("ks5",)
    assert isinstance(resolve_options(RULESET.meta, {"goal_pool": "retail9"}), Rejection)


SEVENTH = {
    "A": {
        "coins": 9,
        "labor": 4,
        "built": ["lender", "bank", "camp", "village", "mill", "smithy"],
        "first": ["lender", "bank", "camp", "village", "mill", "smithy"],
    },
    "B": {"coins": 3},
}


def test_d23_the_game_may_end_immediately() -> None:
    run(
        spending({"end_check": "immediate"}, players=SEVENTH),
        [
            {
                "input": {"type": "Build", "building": "union"},
                "derived": [
                    {"type": "BuildingBuilt"},
                    {"type": "LaborDiscarded", "amount": 1},
                    {"type": "GameEnded", "reasons": ["seven_buildings"]},
                ],
            },
            {"input": {"type": "Grind"}, "result": reject("game_over")},
        ],
        {"status": "finished"},
    )


def test_d23_the_game_may_end_at_the_end_of_the_round() -> None:
    state = run(
        spending({"end_check": "end_of_round"}, turn=9, players=SEVENTH),
        [
            {"input": {"type": "Build", "building": "union"}},
            {
                "input": {"type": "EndTurn"},
                "derived": [
                    {"type": "FinalTurnSet", "player": "B", "reasons": ["seven_buildings"]},
                    {"type": "TurnStarted", "player": "B"},
                ],
            },
            {"input": move("green", "top")},
            {
                "input": {"type": "EndTurn"},
                "derived": [{"type": "GameEnded", "reasons": ["seven_buildings"]}],
            },
        ],
        {"status": "finished", "final_turn": True},
    )
    assert state.turn == 10
    # The second player's own trigger ends the game at once.
    run(
        spending(
            {"end_check": "end_of_round"}, active="B", turn=8, players={"B": SEVENTH["A"], "A": {"coins": 3}}
        ),
        [
            {"input": {"type": "Build", "building": "union"}},
            {
                "input": {"type": "EndTurn"},
                "derived": [{"type": "GameEnded", "reasons": ["seven_buildings"]}],
            },
        ],
        {"status": "finished"},
    )


def test_d24_the_first_player_may_be_chosen() -> None:
    order = ["coins5", "buildings4", "twovp2", "labor5", "workers2"]
    cfg = config(variants={"first_player_method": "chosen", "first_player": "B"})
    rng = ScriptedRng(shuffles={("goals", 0): order})  # no first-player roll is scripted: none may be drawn
    state = RULESET.initial(cfg)
    facts = RULESET.setup(cfg, state, rng)
    assert facts[0] == FirstPlayerDetermined(first="B", chosen=True)
    assert isinstance(facts[1], GoalOrderDrawn) and facts[1].n == 0
    state = fold(state, facts)
    assert state.active == "B" and state.draws.first_player == 0
    physical = config("physical", {"first_player_method": "chosen"})
    table = RULESET.initial(physical)
    table = fold(table, RULESET.setup(physical, table, NoRng()))
    play(
        table,
        [
            {
                "input": {"type": "DetermineFirstPlayer", "first": "B", "face": "white"},
                "result": reject("invalid_payload"),
            },
            {"input": {"type": "DetermineFirstPlayer", "first": "B"}},
        ],
    )
    rng.assert_all_drawn()


def test_d25_only_the_hmac_sha256_v1_algorithm_is_offered() -> None:
    option = RULESET.meta.option("rng_algorithm")
    assert option is not None and option.choices == ("hmac-sha256-v1",)


def test_d26_the_harbor_master_may_take_the_first_tosss_income() -> None:
    fixture = spending(
        {"harbor_income_timing": "on_toss"},
        players={"A": {"coins": 9, "labor": 4, "built": ["union"]}, "B": {"coins": 3}},
    )
    build = {"input": {"type": "Build", "building": "harbor"}}
    run(
        fixture,
        [
            build,
            {
                "input": {"type": "EndTurn"},
                "derived": [
                    {"type": "ShipsTossed"},
                    {"type": "CoinsGained", "player": "A", "source": "harbor"},
                    {"type": "TurnStarted"},
                ],
            },
        ],
        {"players": {"A": {"coins": 5}}},
        rng=ships((0, (2, 2))),
    )
    run(
        fixture,
        [
            build,
            {
                "input": {"type": "EndTurn"},
                "derived": [
                    {"type": "LaborGained", "player": "A", "source": "harbor"},
                    {"type": "LaborDiscarded", "player": "A", "amount": 1},
                ],
            },
        ],
        {"players": {"A": {"labor": 0}}},
        rng=ships((0, (1, 1))),
    )
    run(
        {**fixture, "variants": {}},
        [build, {"input": {"type": "EndTurn"}}],
        {"players": {"A": {"coins": 4}}},
        rng=ships((0, (2, 2))),
    )


def test_d27_the_lender_may_borrow_a_building_the_borrower_also_has() -> None:
    fixture = lender_fixture({"lender_targets": "any_opponent_building"})
    run(
        fixture,
        [
            {
                "input": {"type": "UseLender", "target": "mill"},
                "derived": [{"type": "LaborGained", "player": "A", "source": "lender_mill"}],
            }
        ],
    )
    run(
        lender_fixture({}),
        [{"input": {"type": "UseLender", "target": "mill"}, "result": reject("invalid_lender_target")}],
    )
    run(
        fixture,
        [{"input": {"type": "UseLender", "target": "lender"}, "result": reject("invalid_lender_target")}],
    )


def test_immediate_end_also_follows_a_turn_start_that_resolves_the_last_goal() -> None:
    state = make_state(
        spending(
            {"end_check": "immediate"},
            players={"A": {"coins": 4}, "B": {"coins": 3, "built": ["mill"]}},
            goals={"revealed": "coins5", "hidden": []},
        )
    )
    state = play(state, [{"input": {"type": "EndTurn"}}])
    assert state.status == "in_progress"
    state = make_state(
        spending(
            {"end_check": "immediate"},
            players={"A": {"coins": 4, "labor": 2}, "B": {"coins": 3}},
            goals={"revealed": "coins5", "hidden": []},
        )
    )
    state = play(
        state,
        [
            {
                "input": {"type": "Grind"},
                "derived": [
                    {"type": "GoalClaimed"},
                    {"type": "GameEnded", "reasons": ["all_goals_resolved"]},
                ],
            }
        ],
    )
    assert state.status == "finished"
