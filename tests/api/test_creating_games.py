"""`POST /games`: digital and physical games, their tokens, and every refusal."""

from __future__ import annotations

import hashlib

import pytest

from tests.api.support import ADMIN_TOKEN, Api, assert_problem, bearer

SEED = bytes(range(32)).hex()


def game_count(api: Api) -> int:
    total: int = api.get("/games").json()["total"]
    return total


def test_creating_a_digital_game_returns_a_token_per_seat_a_recorder_token_and_the_seed_commitment(
    api: Api,
) -> None:
    response = api.client.post("/games", json={"ruleset": "province", "players": ["Ann", "Ben"]})

    assert response.status_code == 201
    created = response.json()
    assert created["seats"] == {"A": "Ann", "B": "Ben"}
    assert set(created["seat_tokens"]) == {"A", "B"}
    tokens = [*created["seat_tokens"].values(), created["recorder_token"]]
    assert len(set(tokens)) == 3 and all(len(t) >= 24 for t in tokens)
    assert len(created["commitment"]) == 64
    detail = api.client.get(f"/games/{created['game_id']}").json()
    assert detail["mode"] == "digital" and detail["status"] == "running"
    assert detail["commitment"] == created["commitment"]
    assert detail["version"] == created["version"]
    assert [p["seat"] for p in detail["prompts"]] in (["A"], ["B"])


def test_creating_a_physical_game_publishes_no_commitment_and_waits_for_the_table(api: Api) -> None:
    game = api.create(mode="physical", tags=["club night"])

    detail = api.detail(game)
    assert game.commitment == "" and detail["commitment"] == ""
    assert (detail["mode"], detail["tags"]) == ("physical", ["club night"])
    assert [p["seat"] for p in detail["prompts"]] == [None]
    assert "DetermineFirstPlayer" in detail["prompts"][0]["kinds"]


def test_a_token_is_valid_for_its_own_game_only(api: Api) -> None:
    first, second = api.create(), api.create()

    assert api.get(f"/games/{first.id}/state", first.recorder).status_code == 200
    assert_problem(api.get(f"/games/{second.id}/state", first.recorder), 401, "invalid_token")
    assert_problem(api.get(f"/games/{second.id}/state", first.seat("A")), 401, "invalid_token")


def test_a_fixed_server_seed_needs_the_administrator_token(api: Api) -> None:
    body = {"ruleset": "province", "players": ["Ann", "Ben"], "server_seed": SEED}

    assert_problem(api.client.post("/games", json=body), 401, "token_required")
    assert_problem(
        api.client.post("/games", json=body, headers=bearer("not-the-admin")), 403, "admin_required"
    )
    assert game_count(api) == 0
    response = api.client.post("/games", json=body, headers=bearer(ADMIN_TOKEN))
    assert response.status_code == 201
    assert response.json()["commitment"] == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"options": {"coin_supply_total": 1000}}, "invalid_option"),
        ({"options": {"coin_supply_total": 4}}, "invalid_option"),
        ({"options": {"end_check": "never"}}, "invalid_option"),
        ({"options": {"coin_supply_total": "many"}}, "invalid_option"),
        ({"options": {"no_such_option": 1}}, "unknown_option"),
        ({"ruleset": "chess"}, "unknown_ruleset"),
        ({"players": ["Ann"]}, "invalid_player_count"),
        ({"players": ["Ann", "Ben", "Cy"]}, "invalid_player_count"),
        # the default Dynasties map takes 2-7 players (dynasties-kingdoms.md 1.2, 8.3)
        ({"ruleset": "dynasties", "players": [f"P{i}" for i in range(8)]}, "player_count"),
        ({"ruleset": "dynasties", "players": [f"P{i}" for i in range(21)]}, "invalid_request"),
        ({"players": ["Ann", " "]}, "invalid_player_name"),
        ({"mode": "telepathic"}, "invalid_request"),
        ({"players": "Ann and Ben"}, "invalid_request"),
        ({"colour": "red"}, "invalid_request"),
        ({"server_seed": "abc"}, "invalid_seed"),
    ],
)
def test_a_game_that_cannot_be_created_is_a_400_problem_and_creates_nothing(
    api: Api, change: dict[str, object], code: str
) -> None:
    body = {"ruleset": "province", "players": ["Ann", "Ben"], **change}

    response = api.client.post("/games", json=body, headers=bearer(ADMIN_TOKEN))

    assert_problem(response, 400, code)
    assert game_count(api) == 0


def test_seven_players_sit_at_the_default_dynasties_map(api: Api) -> None:
    body = {"ruleset": "dynasties", "players": [f"P{i}" for i in range(7)]}
    response = api.client.post("/games", json=body)
    assert response.status_code == 201, response.text
    assert list(response.json()["seats"]) == [f"p{i}" for i in range(1, 8)]


def test_malformed_json_is_a_400_invalid_json_problem(api: Api) -> None:
    response = api.client.post(
        "/games",
        content=b'{"ruleset": "province", "players": [',
        headers={"Content-Type": "application/json"},
    )

    assert_problem(response, 400, "invalid_json")
    assert game_count(api) == 0


def test_a_missing_body_is_a_400_invalid_request_problem(api: Api) -> None:
    assert_problem(api.client.post("/games"), 400, "invalid_request")


def test_a_dominion_game_with_empires_is_created_with_its_landscapes_in_the_view(api: Api) -> None:
    body = {
        "ruleset": "dominion",
        "players": ["Ann", "Ben"],
        "options": {"kingdom": "advanced_intro", "expansions": "base,empires"},
    }
    response = api.client.post("/games", json=body)
    assert response.status_code == 201, response.text
    view = api.client.get(f"/games/{response.json()['game_id']}/state").json()
    state = view.get("state", view)
    assert state["landmarks"] == ["Arena", "Triumphal Arch"] and state["landmark_vp"] == {"Arena": 12}


@pytest.mark.parametrize(
    ("options", "players", "code"),
    [
        ({}, 5, "players_5_6"),
        ({"expansions": "empires"}, 2, "invalid_option"),
        ({"exclude": "Bogus"}, 2, "bad_exclude"),
    ],
)
def test_a_dominion_game_the_rules_refuse_is_a_400_problem_and_creates_nothing(
    api: Api, options: dict[str, object], players: int, code: str
) -> None:
    names = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"][:players]
    response = api.client.post("/games", json={"ruleset": "dominion", "players": names, "options": options})
    assert_problem(response, 400, code)
    assert game_count(api) == 0
