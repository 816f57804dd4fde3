"""A player's record over HTTP (`GET /players/{name}`): games, results, placings, streaks and
the rating after each game, per ruleset and across rulesets, under the statistics' rules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from api.app import create_app
from store.app import Chronicle
from tests.api.support import ADMIN_TOKEN, assert_problem, bearer
from tests.projections.support import resigned_games
from tests.short_games import finished_game, players


@pytest.fixture
def client(chronicle: Chronicle) -> Iterator[TestClient[Litestar]]:
    with TestClient(create_app(chronicle, projections="inprocess")) as test_client:
        yield test_client


def get(client: TestClient[Litestar], path: str, **params: Any) -> Any:
    response = client.get(path, params={"wait": 30, **params})
    assert response.status_code == 200, response.text
    return response.json()


def abandon(client: TestClient[Litestar], created: dict[str, Any]) -> None:
    recorder = bearer(created["recorder_token"])
    ended = client.post(f"/games/{created['game_id']}/abandon", json={}, headers=recorder)
    assert ended.status_code in (200, 201), ended.text


def test_a_players_results_streaks_and_rating_per_ruleset_and_across(
    client: TestClient[Litestar], chronicle: Chronicle
) -> None:
    # Seat A resigns each game: Ben beats Ann three times, then loses to Cy.
    beat_ann = [str(g) for g in resigned_games(chronicle, 3, ("Ann", "Ben"))]
    [lost] = [str(g) for g in resigned_games(chronicle, 1, ("Ben", "Cy"))]
    left = client.post("/games", json={"ruleset": "province", "players": ["Ann", "Ben"]}).json()
    abandon(client, left)
    running = client.post("/games", json={"ruleset": "dynasties", "players": ["Ben", "Di"]}).json()

    body = get(client, "/players/bEn")  # a name is case-insensitive, as the games list's filter
    assert body["player"] == "bEn" and body["caught_up"] is True and body["across_rulesets"] is False
    dynasties, province = body["records"]
    assert (province["key"], province["ruleset"], province["player"]) == ("province/Ben", "province", "Ben")
    assert {k: province[k] for k in ("played", "finished", "won", "abandoned", "running")} == {
        "played": 5,
        "finished": 4,
        "won": 3,
        "abandoned": 1,
        "running": 0,
    }
    assert province["placings"] == {"1": 3, "2": 1}
    assert (province["current_streak"], province["longest_streak"]) == (0, 3)
    assert [g["game_id"] for g in province["games"]] == [left["game_id"], lost, *reversed(beat_ann)]
    assert [g["result"] for g in province["games"]] == ["abandoned", "lost", "won", "won", "won"]
    assert province["games"][1]["players"] == ["Ben", "Cy"] and province["games"][1]["place"] == 2

    # the rating after each finished game, the statistics' own: the last is the rating table's
    ratings = province["ratings"]
    assert [r["game_id"] for r in ratings] == [*beat_ann, lost]
    assert [r["games"] for r in ratings] == [1, 2, 3, 4]
    assert ratings[0]["mu"] < ratings[1]["mu"] < ratings[2]["mu"] > ratings[3]["mu"]
    table = get(client, "/stats/tables/rating", ruleset="province")["rows"]
    [row] = [r for r in table if r["player_id"] == "province/Ben"]
    assert ratings[-1]["mu"] == pytest.approx(row["mu"]) and ratings[-1]["ordinal"] == pytest.approx(
        row["ordinal"]
    )

    assert dynasties["key"] == "dynasties/Ben" and dynasties["running"] == 1 and dynasties["ratings"] == []
    assert [g["result"] for g in dynasties["games"]] == ["running"]
    assert dynasties["games"][0]["game_id"] == running["game_id"]

    narrowed = get(client, "/players/Ben", ruleset="dynasties")["records"]
    assert [r["key"] for r in narrowed] == ["dynasties/Ben"]

    [across] = get(client, "/players/Ben", across_rulesets="true")["records"]
    assert (across["key"], across["ruleset"]) == ("Ben", "*")
    assert (across["played"], across["finished"], across["won"], across["running"]) == (6, 4, 3, 1)
    assert [r["game_id"] for r in across["ratings"]] == [*beat_ann, lost]

    [ann] = get(client, "/players/Ann")["records"]
    assert (ann["won"], ann["placings"], ann["current_streak"]) == (0, {"2": 3}, 0)


def test_an_unknown_player_is_a_problem(client: TestClient[Litestar], chronicle: Chronicle) -> None:
    resigned_games(chronicle, 1, ("Ann", "Ben"))
    assert_problem(client.get("/players/Nobody", params={"wait": 30}), 404, "unknown_player")
    assert_problem(client.get("/players/Ann", params={"ruleset": "dynasties"}), 404, "unknown_player")
    assert_problem(client.get("/players/Ann", params={"ruleset": "nope"}), 400, "invalid_filter")


def test_a_players_games_of_a_deal_in_play_are_withheld_as_the_statistics_withhold_them(
    client: TestClient[Litestar], chronicle: Chronicle
) -> None:
    """While a same-deal game runs, no game of its deal shows on a player's page, neither the
    finished one (its results, its place in the rating) nor the running one; once it ends,
    both show again."""
    first = finished_game(chronicle, "dynasties")
    name = players("dynasties")[0]
    [before] = get(client, f"/players/{name}")["records"]
    assert before["finished"] == 1 and len(before["ratings"]) == 1
    again = client.post(
        "/games",
        json={"ruleset": "dynasties", "players": players("dynasties"), "same_deal_as": str(first)},
        headers=bearer(ADMIN_TOKEN),
    )
    assert again.status_code == 201, again.text
    assert_problem(client.get(f"/players/{name}"), 404, "unknown_player")
    assert get(client, "/stats")["games"] == 0  # as the statistics withhold it
    abandon(client, again.json())
    [after] = get(client, f"/players/{name}")["records"]
    assert (after["finished"], after["abandoned"], after["played"]) == (1, 1, 2)
    assert [g["game_id"] for g in after["games"]] == [again.json()["game_id"], str(UUID(str(first)))]
    assert after["ratings"] == before["ratings"]


def test_a_name_with_a_slash_is_reached(client: TestClient[Litestar], chronicle: Chronicle) -> None:
    resigned_games(chronicle, 1, ("Ann/Bea", "Cy//Di"))
    [record] = get(client, "/players/Ann%2FBea")["records"]
    assert record["player"] == "Ann/Bea" and record["finished"] == 1
    [record] = get(client, "/players/Cy//Di")["records"]
    assert record["player"] == "Cy//Di"
    page = client.get("/player/Cy%2F%2FDi")
    assert page.status_code == 200 and "Cy//Di" in page.text
