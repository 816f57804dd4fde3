"""Table notation: parsing, printing and their round trip."""

from __future__ import annotations

import pytest

from domain.games.province import RULESET
from domain.games.province.actions import (
    Build,
    DetermineFirstPlayer,
    EndTurn,
    Grind,
    HireSailor,
    MoveWorker,
    RepayLender,
    RevealGoal,
    TossShips,
    UnionConvert,
    UseLender,
)
from domain.ruleset import Rejection
from tests.unit.province.scenarios import make_state

STATE = make_state({"turn": 1, "active": "A", "phase": "labor", "board": {"top": {"green": 1}}})


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("move green top", MoveWorker("green", "top")),
        ("move sailor left top", MoveWorker("sailor", "left", "top")),
        ("build camp", Build("camp")),
        ("grind", Grind(1)),
        ("grind 2", Grind(2)),
        ("union 2", UnionConvert(2)),
        ("lend union", UseLender("union")),
        ("repay", RepayLender()),
        ("hire", HireSailor()),
        ("END", EndTurn()),
        ("first A", DetermineFirstPlayer("A")),
        ("first A white", DetermineFirstPlayer("A", "white")),
        ("reveal labor5", RevealGoal("labor5")),
        ("toss white black", TossShips(("white", "black"))),
        (
            "toss black black result=BB reason=harbor_built",
            TossShips(("black", "black"), "BB", "harbor_built"),
        ),
    ],
)
def test_the_table_notation_reads_each_action(text: str, action: object) -> None:
    assert RULESET.parse_notation(text, STATE) == action


@pytest.mark.parametrize(
    "text", ["", "fly away", "move green", "grind two", "build", "hire now", "toss white x=1"]
)
def test_unreadable_notation_is_refused_as_invalid_payload(text: str) -> None:
    outcome = RULESET.parse_notation(text, STATE)
    assert isinstance(outcome, Rejection) and outcome.code == "invalid_payload"


def test_every_probe_action_round_trips_through_the_notation() -> None:
    for action in RULESET.probe_actions(STATE):
        text = RULESET.format_action(action)
        assert RULESET.parse_notation(text, STATE) == action, text


def test_the_notation_prints_the_short_forms() -> None:
    assert RULESET.format_action(MoveWorker("green", "top")) == "move green top"
    assert RULESET.format_action(Grind(2)) == "grind 2"
    assert RULESET.format_action(UseLender("union")) == "lend union"
    assert RULESET.format_action(DetermineFirstPlayer("A", "white")) == "first A white"
    assert RULESET.format_action(TossShips(("white", "black"))) == "toss white black"
