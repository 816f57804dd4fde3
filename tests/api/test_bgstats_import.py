"""A BG Stats export over HTTP: `POST /games/import/bgstats` stores each play as a finished game
of `any`, a second post adds nothing, and the statistics list every title with its plays and
wins; a player's record names the title."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from api.app import create_app
from store.app import Chronicle
from tests.api.support import assert_problem

FIXTURE = Path(__file__).parents[1] / "data" / "bgstats" / "game-nights.json"


@pytest.fixture
def stats_client(chronicle: Chronicle) -> Iterator[TestClient[Litestar]]:
    with TestClient(create_app(chronicle, projections="inprocess")) as client:
        yield client


def _rows(body: dict[str, Any], table_id: str) -> dict[str, dict[str, Any]]:
    table = next(t for t in body["tables"] if t["id"] == table_id)
    return {row[table["key"]]: row for row in table["rows"]}


def test_a_bgstats_file_posted_twice_lists_every_title_once(
    stats_client: TestClient[Litestar], chronicle: Chronicle
) -> None:
    data = json.loads(FIXTURE.read_text())
    first = stats_client.post("/games/import/bgstats", json={"file": data})
    assert first.status_code == 201, first.text
    assert (first.json()["imported"], first.json()["skipped"], first.json()["refused"]) == (8, 0, 0)
    again = stats_client.post("/games/import/bgstats", json={"file": data}).json()
    assert (again["imported"], again["skipped"]) == (0, 8)
    head = chronicle.recorder.max_notification_id() or 0
    answer = stats_client.get("/stats", params={"ruleset": "any", "position": head, "wait": 30, "limit": 100})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    titles = _rows(body, "any_titles")
    assert {title: row["games"] for title, row in titles.items()} == {
        "Azul": 3,
        "Catan": 1,
        "Codenames": 1,
        "Golf": 1,
        "Pandemic": 2,
    }
    players = _rows(body, "any_title_players")
    assert players["Azul/Ann"]["wins"] == 1 and players["Catan/Ann"]["wins"] == 1
    assert players["Golf/Ann"]["wins"] == 1 and players["Pandemic/Ben"]["shared"] == 1
    assert {"any:Azul/Ann", "any:Catan/Ann"} <= set(_rows(body, "rating"))
    record = stats_client.get("/players/Ann", params={"wait": 30})
    assert record.status_code == 200, record.text
    rulesets = {r["ruleset"] for r in record.json()["records"]}
    assert {"any:Azul", "any:Catan", "any:Golf", "any:Pandemic", "any:Codenames"} == rulesets
    azul = next(r for r in record.json()["records"] if r["ruleset"] == "any:Azul")
    assert azul["finished"] == 3 and {g["title"] for g in azul["games"]} == {"Azul"}


def test_a_file_that_is_no_bgstats_export_is_a_problem(client: TestClient[Litestar]) -> None:
    path = "/games/import/bgstats"
    assert_problem(client.post(path, json={"file": {"plays": []}}), 422, "bgstats_invalid")
    unnamed = {"games": [{"name": "x"}], "players": [], "plays": []}  # a game without its id
    assert_problem(client.post(path, json={"file": unnamed}), 422, "bgstats_invalid")
