"""Helpers of the API tests: a thin client for the routes under test and problem checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

import httpx
from litestar import Litestar
from litestar.testing import TestClient

from store.app import RECORDER, Chronicle

ADMIN_TOKEN = "the-administrator-token-of-the-tests"
PROBLEM = "application/problem+json"


def bearer(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def assert_problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The answer is an RFC 9457 problem with this status and stable code."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM), response.headers["content-type"]
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    assert body["type"] == f"https://chronicle.dev/problems/{code}"
    assert body["status"] == status
    assert body["title"] and body["detail"]
    return body


@dataclass(frozen=True)
class Game:
    id: str
    mode: str
    commitment: str
    seat_tokens: dict[str, str]
    recorder: str

    @property
    def uuid(self) -> UUID:
        return UUID(self.id)

    def seat(self, seat: str) -> str:
        return self.seat_tokens[seat]


class Api:
    """The routes the tests call most, over Litestar's test client."""

    def __init__(self, client: TestClient[Litestar], chronicle: Chronicle) -> None:
        self.client = client
        self.chronicle = chronicle

    def create(
        self,
        mode: str = "digital",
        players: tuple[str, ...] = ("Ann", "Ben"),
        token: str | None = None,
        ruleset: str = "province",
        **extra: Any,
    ) -> Game:
        body = {"ruleset": ruleset, "players": list(players), "mode": mode, **extra}
        response = self.client.post("/games", json=body, headers=bearer(token))
        assert response.status_code == 201, response.text
        created = response.json()
        return Game(
            created["game_id"], mode, created["commitment"], created["seat_tokens"], created["recorder_token"]
        )

    def act(
        self, game: Game, action: dict[str, Any] | str, token: str | None, **fields: Any
    ) -> httpx.Response:
        headers = bearer(token) | fields.pop("headers", {})
        return self.client.post(
            f"/games/{game.id}/actions", json={"action": action, **fields}, headers=headers
        )

    def ok(
        self, game: Game, action: dict[str, Any] | str, token: str | None, **fields: Any
    ) -> dict[str, Any]:
        response = self.act(game, action, token, **fields)
        assert response.status_code == 201, response.text
        body: dict[str, Any] = response.json()
        return body

    def get(self, path: str, token: str | None = None, /, **params: Any) -> httpx.Response:
        return self.client.get(path, headers=bearer(token), params=params)

    def detail(self, game: Game, token: str | None = None) -> dict[str, Any]:
        response = self.get(f"/games/{game.id}", token)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def version(self, game: Game) -> int:
        version: int = self.detail(game)["version"]
        return version

    def events(self, game: Game, token: str | None = None, /, **params: Any) -> list[dict[str, Any]]:
        response = self.get(f"/games/{game.id}/events", token, **params)
        assert response.status_code == 200, response.text
        events: list[dict[str, Any]] = response.json()["events"]
        return events

    def state(self, game: Game, token: str | None = None, /, **params: Any) -> dict[str, Any]:
        response = self.get(f"/games/{game.id}/state", token, **params)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def start_physical(self, game: Game, first: str = "A", goal: str = "workers2") -> None:
        """The recorder enters the first player and the first goal (province.md E2)."""
        self.ok(game, {"kind": "DetermineFirstPlayer", "first": first, "face": "white"}, game.recorder)
        self.ok(game, {"kind": "RevealGoal", "goal": goal}, game.recorder)

    def active_seat(self, game: Game) -> str:
        prompts = self.detail(game)["prompts"]
        seats = {p["seat"] for p in prompts if p["seat"] is not None}
        assert len(seats) == 1, prompts
        seat: str = seats.pop()
        return seat

    def finish(self, game: Game) -> None:
        """Play the game to its end through the service (fast): the first legal action of each
        kind in a fixed preference, which always ends a Province game."""
        play_to_end(self.chronicle, game.uuid)


PREFERENCE = ("Build", "MoveWorker", "Grind", "EndTurn")


def play_to_end(chronicle: Chronicle, game_id: UUID, limit: int = 2000) -> None:
    for _ in range(limit):
        game = chronicle.game(game_id)
        if game.outcome is not None:
            return
        prompts = chronicle.prompts(game_id, RECORDER)
        seat = next(p["seat"] for p in prompts)
        legal = chronicle.legal_actions(game_id, RECORDER, seat)["actions"]
        assert legal, f"no legal action at version {game.version}: {prompts}"
        ranked = sorted(legal, key=lambda a: PREFERENCE.index(a["kind"]) if a["kind"] in PREFERENCE else 99)
        chronicle.record(game_id, ranked[0], RECORDER, seat=seat)
    raise AssertionError(f"the game did not end within {limit} actions")
