"""End to end over a real server process: uvicorn serving `api.asgi:app`, on an SQLite file and
on PostgreSQL.

A physical Province game (the recorder enters the first player, the goal reveal and two turns,
province.md E2/E3, and corrects one action), a digital one (seat tokens, the server deals) and
a short digital game of every ruleset are recorded over HTTP; then the server is killed without
warning and a new process on the same store must serve every event it had acknowledged,
retractions included.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from store.sealing import KEY_VARIABLE
from tests.e2e.support import Server
from tests.short_games import RULESET_IDS, new_options, players

ADMIN_TOKEN = "e2e-administrator-token"
SHORT_GAME = 4  # actions of each ruleset's game


KEY = base64.b64encode(bytes(range(1, 33))).decode()


def serve(store_url: str, log: Path) -> Server:
    # A PostgreSQL store has no key file: its secrets' key comes from the environment.
    key = {} if store_url.startswith("sqlite") else {KEY_VARIABLE: KEY}
    return Server(store_url, log, {"CHRONICLE_ADMIN_TOKEN": ADMIN_TOKEN} | key)


@pytest.fixture
def server(store_url: str, tmp_path: Path) -> Iterator[Server]:
    first = serve(store_url, tmp_path / "server.log")
    try:
        yield first
    finally:
        first.kill()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def record(
    http: httpx.Client, game_id: str, token: str, action: dict[str, Any], **fields: Any
) -> dict[str, Any]:
    response = http.post(
        f"/games/{game_id}/actions", json={"action": action, **fields}, headers=bearer(token)
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def record_physical_game(http: httpx.Client) -> str:
    created = http.post("/games", json={"ruleset": "province", "players": ["Ann", "Ben"], "mode": "physical"})
    assert created.status_code == 201, created.text
    game_id: str = created.json()["game_id"]
    recorder: str = created.json()["recorder_token"]

    record(http, game_id, recorder, {"kind": "DetermineFirstPlayer", "first": "A", "face": "white"})
    revealed = record(http, game_id, recorder, {"kind": "RevealGoal", "goal": "workers2"})
    assert {"type": "TurnStarted", "turn": 1, "player": "A"} in revealed["facts"]
    for seat, building in (("A", "camp"), ("B", "mill")):  # E3, then the same turn for B
        for space in ("top", "right", "left"):
            record(
                http, game_id, recorder, {"kind": "MoveWorker", "piece": "green", "from": space}, seat=seat
            )
        record(http, game_id, recorder, {"kind": "Build", "building": building}, seat=seat)
        record(http, game_id, recorder, {"kind": "EndTurn"}, seat=seat)
    # The table ended Ben's turn too early: the recorder retracts it and enters it again.
    retracted = http.post(
        f"/games/{game_id}/retractions", json={"reason": "too early"}, headers=bearer(recorder)
    )
    assert retracted.status_code == 201, retracted.text
    assert retracted.json()["retracted"] == [12]
    record(http, game_id, recorder, {"kind": "EndTurn"}, seat="B")

    state = http.get(f"/games/{game_id}/state").json()["state"]
    assert state["turn"] == 3
    return game_id


def record_digital_game(http: httpx.Client) -> str:
    created = http.post(
        "/games", json={"ruleset": "province", "players": ["Cleo", "Dan"], "client_seed": "e2e"}
    )
    assert created.status_code == 201, created.text
    game_id: str = created.json()["game_id"]
    seat_tokens: dict[str, str] = created.json()["seat_tokens"]

    for turn in range(4):
        version = http.get(f"/games/{game_id}").json()["version"]
        (prompt,) = http.get(f"/games/{game_id}/prompts").json()["prompts"]
        token = seat_tokens[prompt["seat"]]
        legal = http.get(f"/games/{game_id}/legal-actions", headers=bearer(token)).json()["actions"]
        moves = [a for a in legal if a["kind"] == "MoveWorker"]
        record(http, game_id, token, moves[0], expected_version=version, action_id=f"turn-{turn}-move")
        record(http, game_id, token, {"kind": "EndTurn"}, action_id=f"turn-{turn}-end")
    return game_id


def record_short_game(http: httpx.Client, ruleset: str) -> str:
    """A few actions of a digital game of `ruleset`, each a legal one its seat's token lists (the
    recorder's, where the table itself is prompted: anyone may act in a game of `any`)."""
    body = {"ruleset": ruleset, "players": players(ruleset), "options": new_options(ruleset)}
    created = http.post("/games", json=body)
    assert created.status_code == 201, created.text
    game_id: str = created.json()["game_id"]
    seat_tokens: dict[str, str] = created.json()["seat_tokens"]
    recorder: str = created.json()["recorder_token"]
    bot = random.Random(ruleset)
    for _ in range(SHORT_GAME):
        prompts = http.get(f"/games/{game_id}/prompts").json()["prompts"]
        seat = bot.choice(sorted((p["seat"] for p in prompts), key=str))
        token = recorder if seat is None else seat_tokens[seat]
        legal = http.get(f"/games/{game_id}/legal-actions", headers=bearer(token)).json()["actions"]
        record(http, game_id, token, bot.choice(legal))
    return game_id


def test_games_recorded_over_http_are_all_served_again_after_the_server_is_killed(
    server: Server, store_url: str, tmp_path: Path
) -> None:
    with httpx.Client(base_url=server.url, timeout=10.0) as http:
        games = [record_physical_game(http), record_digital_game(http)]
        games += [record_short_game(http, ruleset) for ruleset in RULESET_IDS]
        acknowledged = {
            game_id: http.get(f"/games/{game_id}/events", headers=bearer(ADMIN_TOKEN)).json()["events"]
            for game_id in games
        }
    server.kill()

    second = serve(store_url, tmp_path / "second.log")
    try:
        with httpx.Client(base_url=second.url, timeout=10.0) as http:
            for game_id, events in acknowledged.items():
                again = http.get(f"/games/{game_id}/events", headers=bearer(ADMIN_TOKEN)).json()["events"]
                assert again == events
                assert all("retracted" in e for e in again)
                assert http.get(f"/games/{game_id}").json()["version"] == len(events)
            listed = http.get("/games").json()
            assert {g["game_id"] for g in listed["games"]} == set(games)
            ndjson = http.get(f"/games/{games[0]}/events", headers={"Accept": "application/x-ndjson"})
            assert ndjson.headers["content-type"].startswith("application/x-ndjson")
            assert len(ndjson.text.splitlines()) == len(acknowledged[games[0]])
            undone = [e for e in acknowledged[games[0]] if e["retracted"]]
            assert undone[0]["type"] == "action" and undone[0]["data"]["seq"] == 12
            corrected = http.get(f"/games/{games[0]}/events", params={"hide_retracted": "true"})
            assert len(corrected.json()["events"]) == len(acknowledged[games[0]]) - len(undone)
    finally:
        second.kill()
