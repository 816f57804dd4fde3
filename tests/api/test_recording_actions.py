"""`POST /games/{id}/actions`: recording with seat and recorder tokens, and every refusal.

Each refusal is a problem-details answer with its stable code, and appends nothing: the game's
version is the same after it.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import msgspec
import pytest
from litestar.serialization import encode_json

from store.app import Recorded
from tests.api.support import Api, Game, assert_problem, bearer

MOVE = {"kind": "MoveWorker", "piece": "green", "from": "top"}


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


@contextmanager
def appends_nothing(api: Api, game: Game) -> Iterator[None]:
    before = api.events(game, game.recorder)
    yield
    assert api.events(game, game.recorder) == before
    assert api.version(game) == len(before)


@pytest.fixture
def game(api: Api) -> Game:
    return api.create()


def test_a_seat_token_records_its_own_move_and_gets_the_new_version_and_the_facts(
    api: Api, game: Game
) -> None:
    seat = api.active_seat(game)
    before = api.version(game)

    response = api.act(game, MOVE, game.seat(seat))

    assert response.status_code == 201, response.text
    recorded = response.json()
    assert recorded["game_id"] == game.id
    assert recorded["seq"] == 1
    assert recorded["version"] == before + 1 + len(recorded["facts"])
    assert (recorded["finished"], recorded["replayed"]) == (False, False)
    assert {
        "type": "WorkerMoved",
        "player": seat,
        "piece": "green",
        "from": "top",
        "to": "right",
    } in recorded["facts"]
    assert response.headers["etag"] == f'"{recorded["version"]}"'
    # the bytes Litestar renders for the answer (the route builds them itself)
    assert response.headers["content-type"] == "application/json"
    assert response.content == encode_json(msgspec.convert(recorded, Recorded))
    assert api.version(game) == recorded["version"]
    action = api.events(game)[before]
    assert action["type"] == "action" and action["data"]["action"] == {**MOVE, "to": None}
    assert (action["data"]["seat"], action["data"]["by"]) == (seat, "seat")


def test_an_action_in_notation_is_recorded_like_its_json_form(api: Api, game: Game) -> None:
    token = game.seat(api.active_seat(game))

    recorded = api.ok(game, "move green top", token)
    unreadable = api.act(game, "fly to the moon", token)

    assert {"type": "WorkerMoved", "piece": "green", "from": "top", "to": "right"}.items() <= next(
        f for f in recorded["facts"] if f["type"] == "WorkerMoved"
    ).items()
    (action,) = [e["data"] for e in api.events(game) if e["type"] == "action"]
    assert action["action"] == {**MOVE, "to": None}
    assert_problem(unreadable, 400, "invalid_payload")
    assert api.version(game) == recorded["version"]


def test_the_recorder_enters_the_physical_setup_and_then_acts_for_the_prompted_seat(api: Api) -> None:
    game = api.create(mode="physical")

    first = api.ok(game, {"kind": "DetermineFirstPlayer", "first": "B", "face": "black"}, game.recorder)
    reveal = api.ok(game, {"kind": "RevealGoal", "goal": "coins5"}, game.recorder)
    move = api.ok(game, MOVE, game.recorder)
    explicit = api.ok(
        game, {"kind": "MoveWorker", "piece": "green", "from": "right"}, game.recorder, seat="B"
    )

    assert [first["seq"], reveal["seq"], move["seq"], explicit["seq"]] == [1, 2, 3, 4]
    assert {"type": "GoalRevealed", "goal": "coins5"} in reveal["facts"]
    assert {"type": "TurnStarted", "turn": 1, "player": "B"} in reveal["facts"]
    actions = [e["data"] for e in api.events(game) if e["type"] == "action"]
    assert [(a["seat"], a["by"]) for a in actions] == [(None, "recorder")] * 3 + [("B", "recorder")]
    assert api.state(game)["state"]["turn"] == 1


def test_a_seat_token_acting_for_the_other_seat_is_refused_with_403_wrong_seat(api: Api, game: Game) -> None:
    seat = api.active_seat(game)

    with appends_nothing(api, game):
        assert_problem(api.act(game, MOVE, game.seat(other(seat)), seat=seat), 403, "wrong_seat")


def test_a_seat_token_acting_out_of_turn_is_refused_with_422_not_active_player(api: Api, game: Game) -> None:
    seat = api.active_seat(game)

    with appends_nothing(api, game):
        body = assert_problem(api.act(game, MOVE, game.seat(other(seat))), 422, "not_active_player")

    assert body["rule"].startswith("province")


def test_the_recorder_acting_for_the_seat_not_in_turn_is_refused_with_422_not_active_player(
    api: Api, game: Game
) -> None:
    seat = api.active_seat(game)

    with appends_nothing(api, game):
        assert_problem(api.act(game, MOVE, game.recorder, seat=other(seat)), 422, "not_active_player")


def test_recording_without_a_token_is_refused_with_401_token_required(api: Api, game: Game) -> None:
    with appends_nothing(api, game):
        response = api.act(game, MOVE, None)
        assert_problem(response, 401, "token_required")

    assert response.headers["www-authenticate"].startswith("Bearer")


@pytest.mark.parametrize("authorization", ["Bearer not-a-token-of-this-game", "Basic dXNlcjpwdw==", "Bearer"])
def test_recording_with_a_wrong_token_is_refused_with_401_invalid_token(
    api: Api, game: Game, authorization: str
) -> None:
    with appends_nothing(api, game):
        response = api.act(game, MOVE, None, headers={"Authorization": authorization})
        assert_problem(response, 401, "invalid_token")


def test_a_stale_expected_version_is_refused_with_409_and_appends_nothing(api: Api, game: Game) -> None:
    seat = api.active_seat(game)
    seen = api.version(game)
    api.ok(game, MOVE, game.seat(seat), expected_version=seen)

    with appends_nothing(api, game):
        response = api.act(game, {**MOVE, "from": "right"}, game.seat(seat), expected_version=seen)
        assert_problem(response, 409, "version_conflict")


def test_two_writers_racing_from_the_same_version_get_one_success_and_one_409(api: Api, game: Game) -> None:
    token, seen = game.seat(api.active_seat(game)), api.version(game)
    moves = [MOVE, {**MOVE, "from": "right"}] * 3

    with ThreadPoolExecutor(max_workers=len(moves)) as pool:
        answers = list(pool.map(lambda move: api.act(game, move, token, expected_version=seen), moves))

    assert sorted(a.status_code for a in answers) == [201] + [409] * (len(moves) - 1)
    winner = next(a.json() for a in answers if a.status_code == 201)
    assert api.version(game) == winner["version"]
    assert len([e for e in api.events(game) if e["type"] == "action"]) == 1


def test_if_match_works_like_expected_version(api: Api, game: Game) -> None:
    seat, seen = api.active_seat(game), api.version(game)
    token = game.seat(seat)
    fresh = api.act(game, MOVE, token, headers={"If-Match": f'"{seen}"'})
    assert fresh.status_code == 201, fresh.text

    with appends_nothing(api, game):
        assert_problem(api.act(game, MOVE, token, headers={"If-Match": str(seen)}), 409, "version_conflict")
        mismatch = {"If-Match": f'"{fresh.json()["version"]}"'}
        assert_problem(
            api.act(game, MOVE, token, expected_version=seen, headers=mismatch), 400, "invalid_request"
        )
        assert_problem(api.act(game, MOVE, token, headers={"If-Match": "yesterday"}), 400, "invalid_request")


def test_a_retry_with_the_same_action_id_returns_the_first_answer_and_appends_nothing(
    api: Api, game: Game
) -> None:
    token = game.seat(api.active_seat(game))
    first = api.act(game, MOVE, token, action_id="move-1")
    assert first.status_code == 201

    with appends_nothing(api, game):
        retry = api.act(game, MOVE, token, action_id="move-1", expected_version=1)

    assert retry.status_code == 200
    assert retry.json() == {**first.json(), "replayed": True}


def test_a_retry_answers_the_first_result_even_when_its_if_match_is_stale(api: Api, game: Game) -> None:
    seat, seen = api.active_seat(game), api.version(game)
    token = game.seat(seat)
    first = api.act(game, MOVE, token, action_id="move-1", headers={"If-Match": f'"{seen}"'})
    assert first.status_code == 201, first.text
    api.ok(game, {"kind": "MoveWorker", "piece": "green", "from": "right"}, token, action_id="move-2")

    with appends_nothing(api, game):
        retry = api.act(game, MOVE, token, action_id="move-1", headers={"If-Match": f'"{seen}"'})

    assert retry.status_code == 200, retry.text
    assert retry.json() == {**first.json(), "replayed": True}


def test_an_action_id_sent_with_another_seat_or_another_action_is_a_409_action_id_reused(
    api: Api, game: Game
) -> None:
    seat = api.active_seat(game)
    api.ok(game, MOVE, game.seat(seat), action_id="move-1")

    with appends_nothing(api, game):
        by_other_seat = api.act(game, MOVE, game.seat(other(seat)), action_id="move-1")
        other_action = {"kind": "MoveWorker", "piece": "green", "from": "right"}
        by_same_seat = api.act(game, other_action, game.seat(seat), action_id="move-1")
        by_recorder = api.act(game, MOVE, game.recorder, seat=other(seat), action_id="move-1")

    for refused in (by_other_seat, by_same_seat, by_recorder):
        body = assert_problem(refused, 409, "action_id_reused")
        assert "move-1" in body["detail"]
    assert "facts" not in by_other_seat.text  # nothing of the first answer goes to the other seat


def test_an_unknown_action_kind_is_refused_with_400_unknown_action(api: Api, game: Game) -> None:
    token = game.seat(api.active_seat(game))

    with appends_nothing(api, game):
        body = assert_problem(api.act(game, {"kind": "Castle", "side": "king"}, token), 400, "unknown_action")
        assert_problem(api.act(game, {"piece": "green"}, token), 400, "unknown_action")
        for kind in (["MoveWorker"], {"a": 1}, 7, None):  # found by fuzzing: a list was a 500
            assert_problem(api.act(game, {"kind": kind}, token), 400, "unknown_action")

    assert body["detail"] == (
        "Province (Kickstarter 2014, rules data province-ks2014-v1) has no action 'Castle'; it knows "
        "Build, DetermineFirstPlayer, DrawGoalOrder, EndTurn, Grind, HireSailor, MoveWorker, "
        "RepayLender, RevealGoal, TossShips, UnionConvert, UseLender."
    )


def test_an_action_with_a_malformed_payload_is_refused_with_400_invalid_payload(api: Api, game: Game) -> None:
    token = game.seat(api.active_seat(game))

    with appends_nothing(api, game):
        assert_problem(api.act(game, {"kind": "Build", "building": 5}, token), 400, "invalid_payload")
        assert_problem(api.act(game, {"kind": "MoveWorker", "piece": "green"}, token), 400, "invalid_payload")


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b'{"action": {"kind": "MoveWorker", "piece": "green", "from": "top"', "invalid_json"),
        (b"not json at all", "invalid_json"),
        (b'{"move": {"kind": "EndTurn"}}', "invalid_request"),
        (b'{"action": 5}', "invalid_request"),
        (b'{"action": {"kind": "EndTurn"}, "expected_version": "soon"}', "invalid_request"),
        (b'{"action": {"kind": "EndTurn"}, "expected_version": 0}', "invalid_request"),
        (b'{"action": {"kind": "EndTurn"}, "action_id": ""}', "invalid_request"),
        (b'[{"kind": "EndTurn"}]', "invalid_request"),
    ],
)
def test_a_body_that_is_not_json_or_not_an_action_request_is_a_400_problem(
    api: Api, game: Game, content: bytes, code: str
) -> None:
    headers = {"Content-Type": "application/json"} | bearer(game.recorder)

    with appends_nothing(api, game):
        response = api.client.post(f"/games/{game.id}/actions", content=content, headers=headers)
        assert_problem(response, 400, code)


def test_an_unknown_seat_is_refused_with_400_unknown_seat(api: Api, game: Game) -> None:
    with appends_nothing(api, game):
        assert_problem(api.act(game, MOVE, game.recorder, seat="C"), 400, "unknown_seat")


@pytest.mark.parametrize("game_id", ["6f1c0a52-7d2e-4c8b-9a51-3b0e8f2d4c17", "not-a-game-id", "0"])
def test_an_unknown_game_is_a_404_game_not_found_problem(api: Api, game: Game, game_id: str) -> None:
    action = {"action": MOVE}

    assert_problem(api.client.post(f"/games/{game_id}/actions", json=action), 404, "game_not_found")
    assert_problem(
        api.client.post(f"/games/{game_id}/actions", json=action, headers=bearer(game.recorder)),
        404,
        "game_not_found",
    )
    for path in ("", "/events", "/state", "/prompts", "/legal-actions", "/audit"):
        assert_problem(api.get(f"/games/{game_id}{path}", game.recorder), 404, "game_not_found")


def test_an_action_after_the_game_ended_is_refused_with_422_game_over(api: Api, game: Game) -> None:
    api.finish(game)

    with appends_nothing(api, game):
        body = assert_problem(api.act(game, {"kind": "EndTurn"}, game.recorder, seat="A"), 422, "game_over")

    assert body["rule"] == "records 3"
