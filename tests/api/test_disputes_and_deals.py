"""The dispute routes and same-deal games over HTTP, on both stores: who opens, reads and rules
a dispute, what a seat's bundle of a running game holds, and the deal's other games answering
403 `same_deal_in_play` while a same-deal game runs."""

from __future__ import annotations

import json
from uuid import UUID

from store import evidence
from tests.api.support import ADMIN_TOKEN, Api, assert_problem, bearer
from tests.short_games import finished_game, plan


def _running(api: Api) -> tuple[str, dict[str, str], str, int]:
    game = api.create(ruleset="dominion")
    for step in plan(api.chronicle, game.uuid, 4, "http", one_seat=True):
        response = api.act(game, step.notation, game.recorder, seat=step.seat)
        assert response.status_code == 201, response.text
    version = api.chronicle.game(game.uuid).version
    return game.id, game.seat_tokens, game.recorder, version


def test_a_seat_opens_a_dispute_and_its_bundle_holds_only_what_it_may_see(api: Api) -> None:
    client = api.client
    game_id, seats, recorder, version = _running(api)
    body = {"from": 1, "to": version, "claim": "Ben's shuffle"}
    assert_problem(client.post(f"/games/{game_id}/disputes", json=body), 401, "token_required")
    too_far = body | {"to": version + 5}
    refused = client.post(f"/games/{game_id}/disputes", json=too_far, headers=bearer(seats["p1"]))
    assert_problem(refused, 400, "invalid_range")
    opened = client.post(f"/games/{game_id}/disputes", json=body, headers=bearer(seats["p1"]))
    assert opened.status_code == 201, opened.text
    dispute = opened.json()
    assert dispute["verdict"]["holds"] and dispute["view"] == "player:p1"
    dispute_id = dispute["dispute_id"]

    listed = client.get(f"/games/{game_id}/disputes")
    assert [d["dispute_id"] for d in listed.json()] == [dispute_id]
    assert listed.json()[0]["view"] == "public"
    assert_problem(client.get(f"/disputes/{UUID(int=3)}"), 404, "dispute_not_found")
    assert_problem(client.get("/disputes/not-an-id"), 404, "dispute_not_found")

    ruling = {"text": "stands"}
    assert_problem(
        client.post(f"/disputes/{dispute_id}/rulings", json=ruling, headers=bearer(seats["p2"])),
        403,
        "recorder_required",
    )
    ruled = client.post(f"/disputes/{dispute_id}/rulings", json=ruling, headers=bearer(recorder))
    assert ruled.status_code == 201 and ruled.json()["rulings"][0]["text"] == "stands"

    bundle = client.get(f"/disputes/{dispute_id}/bundle", headers=bearer(seats["p1"]))
    assert bundle.status_code == 200
    held = bundle.json()
    assert held["form"] == "redacted" and held["seed"] is None and held["chain"] is None
    seen = client.get(f"/games/{game_id}/events", headers=bearer(seats["p1"])).json()["events"]
    assert [e["data"] for e in held["events"]] == [e["data"] for e in seen]
    assert api.chronicle.secrets(UUID(game_id)).server_seed not in bundle.text
    assert evidence.verify(bundle.content).ok

    full = client.get(f"/disputes/{dispute_id}/bundle", headers=bearer(recorder)).json()
    assert full["form"] == "stored" and full["chain"]["head"]
    assert evidence.verify(json.dumps(full).encode()).ok


def test_while_a_same_deal_game_runs_its_deal_is_withheld_over_http(api: Api) -> None:
    client = api.client
    first = finished_game(api.chronicle, "province")
    again = api.create(players=("Cy", "Di"), same_deal_as=str(first))
    assert again.commitment == api.chronicle.game(first).commitment
    for token in (None, again.seat("A"), again.recorder):
        for path in ("events", "state", "audit", "export"):
            withheld = client.get(f"/games/{first}/{path}", headers=bearer(token))
            assert_problem(withheld, 403, "same_deal_in_play")
    assert client.get(f"/games/{first}/events", headers=bearer(ADMIN_TOKEN)).status_code == 200
    assert client.get(f"/games/{again.id}/events").status_code == 200  # its own, redacted

    refused = client.post(
        "/games", json={"ruleset": "province", "players": ["A", "B"], "same_deal_as": again.id}
    )
    assert_problem(refused, 400, "deal_not_finished")

    ended = client.post(f"/games/{again.id}/abandon", json={}, headers=bearer(again.recorder))
    assert ended.status_code in (200, 201), ended.text
    assert client.get(f"/games/{first}/events").status_code == 200

    compared = client.get("/stats/same-deal", params={"ruleset": "province"}).json()
    assert compared["id"] == "same_deal"
    assert [(r["table"], r["game"], r["status"]) for r in compared["rows"]] == [
        (1, str(first), "finished"),
        (2, again.id, "abandoned"),
    ]
    assert compared["rows"][1]["players"] == "Cy, Di"  # no outcome: the names alone
    assert client.get("/stats/same-deal", params={"ruleset": "dominion"}).json()["rows"] == []
