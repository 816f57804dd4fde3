"""Reading a game: events (JSON and NDJSON), state at a version, prompts, legal actions, the
audit, each redacted for the caller."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from api.routes import reading
from tests.api.support import ADMIN_TOKEN, Api, Game, assert_problem

MOVE = {"kind": "MoveWorker", "piece": "green", "from": "top"}
NDJSON = "application/x-ndjson"
SEED = bytes(range(32)).hex()


@pytest.fixture
def game(api: Api) -> Game:
    """A digital game two moves in, dealt from a fixed seed (so each run sees the same order)."""
    game = api.create(token=ADMIN_TOKEN, server_seed=SEED)
    token = game.seat(api.active_seat(game))
    api.ok(game, MOVE, token)
    api.ok(game, {"kind": "MoveWorker", "piece": "green", "from": "right"}, token)
    return game


def goal_orders(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e["data"] for e in events if e["type"] == "fact" and e["data"]["type"] == "GoalOrderDrawn"]


def test_the_events_run_from_the_creation_in_version_order_with_a_human_line_each(
    api: Api, game: Game
) -> None:
    events = api.events(game)

    assert [e["version"] for e in events] == list(range(1, api.version(game) + 1))
    assert events[0]["type"] == "created"
    assert events[0]["data"]["commitment"] == game.commitment
    assert {e["type"] for e in events} == {"created", "fact", "action"}
    assert all(e["text"] and e["at"] for e in events)


def test_from_and_to_select_an_inclusive_range_of_versions(api: Api, game: Game) -> None:
    last = api.version(game)

    assert [e["version"] for e in api.events(game, **{"from": 2, "to": 4})] == [2, 3, 4]
    assert [e["version"] for e in api.events(game, **{"from": last})] == [last]
    assert [e["version"] for e in api.events(game, to=2)] == [1, 2]
    assert api.events(game, **{"from": last + 1}) == []


@pytest.mark.parametrize("params", [{"from": 0}, {"to": 0}, {"from": -3}])
def test_a_version_below_one_is_a_400_invalid_version_problem(
    api: Api, game: Game, params: dict[str, int]
) -> None:
    assert_problem(api.get(f"/games/{game.id}/events", **params), 400, "invalid_version")


def test_the_events_stream_as_ndjson_one_event_per_line_when_asked(
    api: Api, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reading, "PAGE", 3)  # several pages, read as the client consumes them
    headers = {"Accept": NDJSON, "Authorization": f"Bearer {game.recorder}"}

    response = api.client.get(f"/games/{game.id}/events", headers=headers)
    ranged = api.client.get(f"/games/{game.id}/events", headers=headers, params={"from": 2, "to": 8})

    assert response.status_code == 200
    assert response.headers["content-type"].startswith(NDJSON)
    lines = response.text.splitlines()
    assert [json.loads(line) for line in lines] == api.events(game, game.recorder)
    assert [json.loads(line)["version"] for line in ranged.text.splitlines()] == list(range(2, 9))


def test_an_ndjson_request_for_an_unknown_game_is_still_a_problem(api: Api) -> None:
    response = api.client.get(f"/games/{'0' * 32}/events", headers={"Accept": NDJSON})

    assert_problem(response, 404, "game_not_found")


def test_the_state_at_version_n_is_the_state_after_that_event(api: Api, game: Game) -> None:
    latest = api.state(game, game.recorder)
    first_move, second_move = [e["version"] for e in api.events(game) if e["type"] == "action"]

    before = api.state(game, game.recorder, at=first_move - 1)
    between = api.state(game, game.recorder, at=second_move - 1)

    assert latest["version"] == api.version(game)
    assert (before["version"], between["version"]) == (first_move - 1, second_move - 1)
    assert before["state"]["players"] != between["state"]["players"] != latest["state"]["players"]
    assert (
        api.state(game, game.recorder, at=first_move)["state"] == before["state"]
    )  # an action alone changes nothing
    assert latest["status"] == "running" and latest["outcome"] is None
    assert latest["view"] == "omniscient"


@pytest.mark.parametrize("at", [0, 10_000])
def test_a_state_version_outside_the_game_is_a_400_invalid_version_problem(
    api: Api, game: Game, at: int
) -> None:
    assert_problem(api.get(f"/games/{game.id}/state", at=at), 400, "invalid_version")


def test_the_prompts_name_the_seat_to_act_and_the_kinds_that_answer(api: Api, game: Game) -> None:
    seat = api.active_seat(game)

    prompts = api.get(f"/games/{game.id}/prompts").json()["prompts"]

    assert [p["seat"] for p in prompts] == [seat]
    assert "MoveWorker" in prompts[0]["kinds"] and prompts[0]["text"]


def test_legal_actions_are_shown_to_a_seat_for_itself_and_to_the_recorder_for_any_seat(
    api: Api, game: Game
) -> None:
    seat = api.active_seat(game)
    opponent = "B" if seat == "A" else "A"
    path = f"/games/{game.id}/legal-actions"

    own = api.get(path, game.seat(seat)).json()
    by_recorder = api.get(path, game.recorder, seat=seat).json()

    assert own == by_recorder
    assert own["seat"] == seat and own["version"] == api.version(game)
    assert own["actions"] and len(own["notation"]) == len(own["actions"])
    assert {"kind": "EndTurn"} in own["actions"]
    assert_problem(api.get(path, game.seat(seat), seat=opponent), 403, "wrong_seat")
    assert_problem(api.get(path), 401, "token_required")
    recorded = api.act(game, own["actions"][0], game.seat(seat))
    assert recorded.status_code == 201, recorded.text


def test_a_seat_or_the_public_never_sees_the_digital_goal_order_but_the_recorder_does(
    api: Api, game: Game
) -> None:
    recorder_orders = goal_orders(api.events(game, game.recorder))
    assert len(recorder_orders) == 1 and len(recorder_orders[0]["order"]) == 5
    secret = recorder_orders[0]["order"]
    hidden_stack = json.dumps(secret[1:])[1:-1]

    for token in (None, game.seat("A"), game.seat("B")):
        events = api.events(game, token)
        (redacted,) = goal_orders(events)
        assert redacted["redacted"] is True and redacted["count"] == 5
        assert redacted["order"] != secret
        state = api.state(game, token)
        assert state["view"] in ("public", "player:A", "player:B")
        for shown in (events, state, api.get(f"/games/{game.id}/prompts", token).json()):
            assert hidden_stack not in json.dumps(shown)
    assert hidden_stack in json.dumps(api.state(game, game.recorder))


def test_after_the_game_ends_everything_is_public_and_the_seed_revealed_matches_the_commitment(
    api: Api, game: Game
) -> None:
    api.finish(game)

    public = api.events(game)
    assert public == api.events(game, game.recorder) == api.events(game, game.seat("A"))
    finished = public[-1]
    assert finished["type"] == "finished"
    seed = bytes.fromhex(finished["data"]["server_seed"])
    assert hashlib.sha256(seed).hexdigest() == game.commitment == public[0]["data"]["commitment"]
    assert goal_orders(public)[0]["redacted"] is False
    state = api.state(game)
    assert (state["view"], state["status"]) == ("omniscient", "finished")
    assert state["outcome"]["winners"] is not None
    detail = api.detail(game)
    assert (detail["status"], detail["prompts"]) == ("finished", [])
    assert detail["outcome"] == state["outcome"]


def test_the_audit_of_a_running_digital_game_is_sealed_except_for_the_administrator(
    api: Api, game: Game
) -> None:
    path = f"/games/{game.id}/audit"

    for token in (None, game.seat("A"), game.recorder):
        assert_problem(api.get(path, token), 403, "seed_sealed")
    report = api.get(path, ADMIN_TOKEN).json()

    assert report["game_id"] == game.id
    assert (report["clean"], report["random_checked"], report["divergence"]) == (True, True, None)
    assert report["actions"] == 2


def test_the_audit_of_a_running_physical_game_waits_for_its_end(api: Api) -> None:
    game = api.create(mode="physical")
    api.start_physical(game)

    assert_problem(api.get(f"/games/{game.id}/audit", game.recorder), 403, "game_running")
    report = api.get(f"/games/{game.id}/audit", ADMIN_TOKEN).json()
    assert (report["clean"], report["actions"]) == (True, 2)


def test_the_audit_of_a_finished_game_is_open_to_everyone_and_checks_every_random_outcome(
    api: Api, game: Game
) -> None:
    api.finish(game)

    response = api.get(f"/games/{game.id}/audit")

    assert response.status_code == 200
    report = response.json()
    assert (report["clean"], report["random_checked"], report["divergence"]) == (True, True, None)
    assert report["actions"] == len([e for e in api.events(game) if e["type"] == "action"])
    assert report["facts"] == len([e for e in api.events(game) if e["type"] == "fact"])
