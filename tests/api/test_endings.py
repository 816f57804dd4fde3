"""`POST /games/{id}/resign` and `POST /games/{id}/abandon` (domain/endings.py)."""

from __future__ import annotations

from tests.api.support import ADMIN_TOKEN, Api, assert_problem, bearer


def test_a_seat_resigns_over_http_and_the_game_reads_as_finished(api: Api) -> None:
    game = api.create(mode="physical")
    api.start_physical(game)
    refused = api.client.post(f"/games/{game.id}/resign", json={"seat": "B"}, headers=bearer(game.seat("A")))
    assert_problem(refused, 403, "wrong_seat")
    assert_problem(api.client.post(f"/games/{game.id}/resign", json={"seat": "B"}), 401, "token_required")
    answer = api.client.post(
        f"/games/{game.id}/resign", json={"reason": "called away"}, headers=bearer(game.seat("B"))
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["status"] == "finished" and body["outcome"]["ranks"] == {"A": 1, "B": 2}
    detail = api.detail(game)
    assert detail["status"] == "finished" and detail["prompts"] == []
    resigned = api.events(game)[-2]
    assert resigned["type"] == "resigned"
    assert resigned["data"] == {"seat": "B", "by": "seat", "reason": "called away"}
    again = api.client.post(f"/games/{game.id}/resign", json={}, headers=bearer(game.seat("A")))
    assert_problem(again, 422, "game_over")
    assert api.get(f"/games/{game.id}/audit").json()["clean"]


def test_the_recorder_or_the_administrator_abandons_a_game_and_a_seat_may_not(api: Api) -> None:
    game = api.create()
    seat_try = api.client.post(f"/games/{game.id}/abandon", json={}, headers=bearer(game.seat("A")))
    assert_problem(seat_try, 403, "recorder_required")
    answer = api.client.post(
        f"/games/{game.id}/abandon", json={"reason": "power cut"}, headers=bearer(ADMIN_TOKEN)
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "abandoned" and answer.json()["outcome"] is None
    assert api.detail(game)["status"] == "abandoned"
    listed = api.get("/games", None, status="abandoned").json()
    assert [g["game_id"] for g in listed["games"]] == [game.id]
    last = api.events(game)[-1]
    assert last["type"] == "abandoned" and last["data"]["by"] == "admin" and last["data"]["server_seed"]
    audit = api.get(f"/games/{game.id}/audit").json()
    assert audit["clean"] and audit["random_checked"]
    assert_problem(api.act(game, "end", game.recorder), 422, "game_over")
