"""`GET /games`: filters and pagination over the game index."""

from __future__ import annotations

import pytest

from tests.api.support import Api, assert_problem


def listed(api: Api, **params: object) -> list[str]:
    response = api.get("/games", **params)
    assert response.status_code == 200, response.text
    return [g["game_id"] for g in response.json()["games"]]


def test_games_are_listed_newest_first_and_each_filter_narrows_the_list(api: Api) -> None:
    league = api.create(players=("Ann", "Ben"), tags=["league"])
    friendly = api.create(mode="physical", players=("Cleo", "Ann"), tags=["friendly"])
    finished = api.create(players=("Dan", "Eve"), tags=["league"])
    api.finish(finished)

    assert listed(api) == [finished.id, friendly.id, league.id]
    assert listed(api, ruleset="province") == [finished.id, friendly.id, league.id]
    assert listed(api, ruleset="dominion") == []
    assert listed(api, player="ann") == [friendly.id, league.id]
    assert listed(api, status="finished") == [finished.id]
    assert listed(api, status="running") == [friendly.id, league.id]
    assert listed(api, tag="league") == [finished.id, league.id]
    assert listed(api, tag="league", status="running", player="Ben") == [league.id]
    summary = api.get("/games", tag="friendly").json()["games"][0]
    assert summary["seats"] == {"A": "Cleo", "B": "Ann"}
    assert (summary["mode"], summary["status"], summary["ruleset"]) == ("physical", "running", "province")


def test_the_list_is_paginated_with_offset_and_limit_and_reports_the_total(api: Api) -> None:
    games = [api.create(players=(f"P{i}", "Ben")).id for i in range(5)]
    newest_first = games[::-1]

    page = api.get("/games", offset=1, limit=2).json()

    assert page == {"games": page["games"], "total": 5, "offset": 1, "limit": 2}
    assert [g["game_id"] for g in page["games"]] == newest_first[1:3]
    assert listed(api, offset=4, limit=2) == newest_first[4:]
    assert listed(api, offset=9) == []
    assert api.get("/games").json()["limit"] == 50


@pytest.mark.parametrize(
    "params",
    [{"limit": 0}, {"limit": 501}, {"offset": -1}, {"limit": "many"}, {"status": "paused"}],
)
def test_paging_or_filter_values_out_of_range_are_a_400_problem(api: Api, params: dict[str, object]) -> None:
    assert_problem(api.get("/games", **params), 400, "invalid_request")
