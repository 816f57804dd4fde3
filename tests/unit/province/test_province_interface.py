"""The ruleset's reading side: meta, codec, pending, legal actions, views, redaction, describe."""

from __future__ import annotations

import msgspec

from domain.games.province import RULESET
from domain.games.province.actions import MoveWorker
from domain.games.province.events import Fact, GameEnded, GoalOrderDrawn, WorkerMoved
from domain.games.province.state import Score, State
from domain.rng import NoRng, ScriptedRng
from domain.ruleset import OMNISCIENT, PUBLIC, Command, Rejection, Viewer, all_rulesets, get_ruleset
from tests.unit.province.scenarios import config, fold, make_state

ORDER = ["coins5", "buildings4", "twovp2", "labor5", "workers2"]


def digital_game() -> tuple[list[Fact], State]:
    cfg = config()
    state = RULESET.initial(cfg)
    facts = list(
        RULESET.setup(
            cfg, state, ScriptedRng(rolls={("first-player", 0): (1,)}, shuffles={("goals", 0): ORDER})
        )
    )
    return facts, fold(state, facts)


def test_province_is_registered_with_its_meta() -> None:
    assert get_ruleset("province") is RULESET
    assert RULESET in all_rulesets()
    meta = RULESET.meta
    assert (meta.id, meta.seat_ids, meta.min_players, meta.max_players) == ("province", ("A", "B"), 2, 2)
    assert meta.hidden_information and meta.chance and meta.spec == "province"
    kinds = set(RULESET.codec.action_kinds())
    assert {
        "MoveWorker",
        "Build",
        "Grind",
        "UnionConvert",
        "HireSailor",
        "UseLender",
        "RepayLender",
        "EndTurn",
        "DetermineFirstPlayer",
        "RevealGoal",
        "TossShips",
    } <= kinds
    assert RULESET.codec.action_schemas()["MoveWorker"]


def test_actions_decode_from_json_with_the_from_field_and_refuse_unknown_fields() -> None:
    assert RULESET.codec.decode_action({"kind": "MoveWorker", "piece": "green", "from": "top"}) == MoveWorker(
        "green", "top"
    )
    try:
        RULESET.codec.decode_action({"kind": "EndTurn", "extra": 1})
    except msgspec.ValidationError:
        pass
    else:
        raise AssertionError("unknown field accepted")


def test_facts_round_trip_through_the_codec() -> None:
    facts, _ = digital_game()
    for fact in facts:
        encoded = RULESET.codec.encode(fact)
        assert RULESET.codec.decode_fact(msgspec.json.decode(msgspec.json.encode(encoded))) == fact


def test_the_goal_order_is_hidden_from_players_and_the_public() -> None:
    facts, state = digital_game()
    for viewer in (PUBLIC, Viewer("seat", "A"), Viewer("seat", "B")):
        text = msgspec.json.encode(RULESET.view(state, viewer)).decode()
        assert all(f'"{goal}"' not in text for goal in ORDER[1:])
        assert '"hidden_count":4' in text
        drawn = RULESET.redact(facts[1], viewer)
        assert isinstance(drawn, GoalOrderDrawn) and drawn.order == () and drawn.count == 5 and drawn.redacted
    assert RULESET.view(state, OMNISCIENT)["goals"]["hidden"] == ORDER[1:]
    assert RULESET.redact(facts[1], OMNISCIENT) == facts[1]


def test_the_view_shows_the_board_and_the_supply() -> None:
    _, state = digital_game()
    seen = RULESET.view(state, PUBLIC)
    assert seen["supply"] == 23 and seen["active"] == "A" and seen["phase"] == "labor"
    assert seen["board"]["top"] == {"green": 1, "camp": False, "village": False, "sailors": {"A": 0, "B": 0}}
    assert msgspec.json.encode(seen)


def test_the_active_seat_is_prompted_with_the_kinds_it_may_play() -> None:
    _, state = digital_game()
    (prompt,) = RULESET.pending(state)
    assert prompt.seat == "A" and prompt.kinds == ("MoveWorker",)
    assert RULESET.legal_actions(state, "B") == ()
    assert RULESET.legal_actions(state, "A") == RULESET.legal_actions(state, None)
    assert {RULESET.format_action(a) for a in RULESET.legal_actions(state, "A")} == {
        "move green top",
        "move green right",
        "move green left",
    }
    assert RULESET.progress(state) == (1, "A")


def test_the_recorder_is_prompted_for_a_physical_random_input() -> None:
    cfg = config("physical")
    state = RULESET.initial(cfg)
    state = fold(state, RULESET.setup(cfg, state, NoRng()))
    (prompt,) = RULESET.pending(state)
    assert prompt.seat is None and prompt.kinds == ("DetermineFirstPlayer",)
    assert len(RULESET.legal_actions(state, None)) == 6
    assert RULESET.legal_actions(state, "A") == ()
    assert RULESET.progress(state) == (0, None)


def test_legal_actions_are_exactly_the_probe_actions_decide_accepts() -> None:
    state = make_state(
        {
            "turn": 5,
            "active": "A",
            "phase": "spending",
            "turn_state": {"moves": 1},
            "players": {
                "A": {"coins": 9, "labor": 5, "built": ["lender", "union", "harbor"]},
                "B": {"coins": 3, "built": ["mill", "camp", "lender"]},
            },
            "harbor_master": "A",
            "ships": {"faces": ["white", "black"], "result": "WB"},
            "board": {"top": {"green": 1, "camp": True}, "right": {"green": 1}, "left": {"green": 1}},
            "goals": {"revealed": "twovp2", "hidden": ["labor5", "workers2", "buildings4", "coins5"]},
        }
    )
    legal = RULESET.legal_actions(state, "A")
    for action in RULESET.probe_actions(state):
        accepted = not isinstance(RULESET.decide(state, Command(action, "A", "seat"), NoRng()), Rejection)
        assert accepted == (action in legal), action
    assert len(legal) > 10


def test_describe_speaks_of_the_seats_by_name() -> None:
    cfg = config()
    assert (
        RULESET.describe(WorkerMoved("A", "green", "top", "right"), cfg)
        == "Ann moves a green worker from top to right."
    )
    facts, _ = digital_game()
    lines = [RULESET.describe(f, cfg) for f in facts]
    assert lines[0] == "Ann goes first (ship shows white)."
    assert "Ann gains" not in lines[-1]
    score = Score(5, 1, 2, 0, 8, 4)
    ended = GameEnded(("seven_buildings",), {"A": score, "B": Score(6, 2, 2, 0, 10, 4)}, "B", False)
    assert RULESET.describe(ended, cfg) == "Game over: Ben wins 10 to 8."
    for fact in facts:
        assert RULESET.describe(fact, cfg).endswith(".")
