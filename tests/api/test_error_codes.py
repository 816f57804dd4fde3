"""One style of error code across games: `code` is snake_case in every game's problems, and
where a rules spec names the code differently, its name stands beside as `spec_code`."""

from __future__ import annotations

import re

import pytest

from domain.ruleset import Rejection
from tests.api.support import Api, assert_problem, bearer

SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")


@pytest.mark.parametrize(
    ("ruleset", "action", "code", "spec_code"),
    [
        ("province", {"kind": "EndTurn"}, "no_worker_moved", None),
        ("dynasties", "zzz", "bad_parameter", "BAD_PARAMETER"),
        ("dominations", "zzz", "bad_params", "E_BAD_PARAMS"),
        ("dominations", {"kind": "end_turn"}, "grow_not_done", "E_GROW_NOT_DONE"),
    ],
)
def test_a_rules_refusal_has_a_snake_case_code_and_the_specs_name_beside_it(
    api: Api, ruleset: str, action: object, code: str, spec_code: str | None
) -> None:
    created = api.client.post("/games", json={"ruleset": ruleset, "players": ["Ann", "Ben"]}).json()
    response = api.client.post(
        f"/games/{created['game_id']}/actions",
        json={"action": action},
        headers=bearer(created["recorder_token"]),
    )
    body = assert_problem(response, response.status_code, code)
    assert response.status_code in (400, 422)
    assert body.get("spec_code") == spec_code


def test_every_spec_style_code_reads_as_snake_case() -> None:
    for spec, snake in [("WRONG_PHASE", "wrong_phase"), ("E_BAD_PARAMS", "bad_params"), ("x_y", "x_y")]:
        rejection = Rejection(spec, "m", "r")
        assert rejection.stable_code == snake and SNAKE.match(rejection.stable_code)
        assert rejection.spec_code == (None if spec == snake else spec)


def test_the_command_line_names_both_codes_in_its_one_line() -> None:
    from replay_cli.errors import rejection_of

    line = rejection_of(Rejection("WRONG_PHASE", "Not now.", "dominion.md 2"))
    assert line == "rejected (wrong_phase, WRONG_PHASE in the rules): Not now. [dominion.md 2]"
    assert rejection_of(Rejection("no_worker_moved", "Move.", "province.md 3.2")).startswith(
        "rejected (no_worker_moved): "
    )
