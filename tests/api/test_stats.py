"""The statistics over HTTP: tables with stable ids, filters, pagination, CSV, figures, one
game's statistics, and a read that waits for its own write."""

from __future__ import annotations

import csv
import io
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from api.app import create_app
from store.app import Chronicle
from tests.api.support import ADMIN_TOKEN, assert_problem, bearer
from tests.projections.support import OPENING, physical_game, simulate
from tests.short_games import finished_game


@pytest.fixture
def stats_client(chronicle: Chronicle) -> Iterator[TestClient[Litestar]]:
    simulate(chronicle, 2, seed="api", names=("Ann", "Ben"))
    simulate(chronicle, 1, seed="api2", names=("Ben", "Cy"))
    with TestClient(create_app(chronicle, projections="inprocess")) as client:
        yield client


def head(chronicle: Chronicle) -> int:
    return chronicle.recorder.max_notification_id() or 0


def get(client: TestClient[Litestar], path: str, **params: Any) -> Any:
    response = client.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_tables_filters_pages_csv_figures_and_own_writes(
    stats_client: TestClient[Litestar], chronicle: Chronicle
) -> None:
    every_table_is_served_with_its_stable_id(stats_client, chronicle)
    filters_and_pages(stats_client, chronicle)
    csv_export_is_headed_by_column_ids(stats_client, chronicle)
    figures_are_keyed_by_stable_ids(stats_client, chronicle)
    a_reader_sees_the_game_it_just_finished(stats_client, chronicle)


def every_table_is_served_with_its_stable_id(
    stats_client: TestClient[Litestar], chronicle: Chronicle
) -> None:
    body = get(stats_client, "/stats", position=head(chronicle), wait=30)
    assert body["caught_up"] is True
    assert body["games"] == 3
    ids = [t["id"] for t in body["tables"]]
    assert ids == [
        "games_played",
        "game_length",
        "win_rate_by_seat",
        "player_records",
        "head_to_head",
        "rating",
        "decision_time",
        "dice_chi_square",
        "province_opening_orders",
    ]
    for served in body["tables"]:  # every table says what a row is and defines every column
        assert served["description"] and all(c["description"] for c in served["columns"]), served["id"]
    length = next(t for t in body["tables"] if t["id"] == "game_length")
    actions = next(c for c in length["columns"] if c["id"] == "mean_actions")
    assert "when no seat was asked" in actions["description"]
    seats = {r["seat"]: r for r in next(t for t in body["tables"] if t["id"] == "win_rate_by_seat")["rows"]}
    assert seats["A"]["games"] == 3
    assert seats["A"]["wins"] + seats["B"]["wins"] + seats["A"]["draws"] == 3


def filters_and_pages(stats_client: TestClient[Litestar], chronicle: Chronicle) -> None:
    position = head(chronicle)
    cy = get(stats_client, "/stats/tables/player_records", player="cy", position=position, wait=30)
    assert cy["total"] == 2  # Ben and Cy met once
    assert {r["player"] for r in cy["rows"]} == {"Ben", "Cy"}
    page = get(stats_client, "/stats/tables/player_records", offset=1, limit=1)
    assert (page["total"], page["offset"], page["limit"], len(page["rows"])) == (3, 1, 1, 1)
    assert get(stats_client, "/stats", mode="physical")["games"] == 0
    assert get(stats_client, "/stats", since="2999-01-01")["games"] == 0
    assert get(stats_client, "/stats", until="2999-01-01", ruleset="province")["games"] == 3
    assert get(stats_client, "/stats", variant="end_check=end_of_turn")["games"] == 3
    assert get(stats_client, "/stats", variant="end_check=end_of_round")["games"] == 0
    assert_problem(stats_client.get("/stats", params={"variant": "nonsense"}), 400, "invalid_filter")
    for bad in ({"since": "yesterday"}, {"variant": "foo=bar"}, {"ruleset": "chess"}):
        problem = stats_client.get("/stats/figures", params=bad)
        assert_problem(problem, 400, "invalid_filter")
        assert (
            "2026-03-14" in problem.json()["detail"]
            or "variant option" in problem.json()["detail"]
            or ("installed" in problem.json()["detail"])
        )
    across = get(stats_client, "/stats/tables/rating", across_rulesets="true")
    assert {r["ruleset"] for r in across["rows"]} == {"*"}
    assert_problem(stats_client.get("/stats/tables/no_such_table"), 404, "unknown_statistic")


def csv_export_is_headed_by_column_ids(stats_client: TestClient[Litestar], chronicle: Chronicle) -> None:
    response = stats_client.get(
        "/stats/tables/win_rate_by_seat", params={"format": "csv", "position": head(chronicle), "wait": 30}
    )
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert [r["seat"] for r in rows] == ["A", "B"]
    assert list(rows[0]) == [
        "ruleset_seat",
        "ruleset",
        "players",
        "seat",
        "games",
        "wins",
        "draws",
        "win_rate",
        "ci_low",
        "ci_high",
    ]


def figures_are_keyed_by_stable_ids(stats_client: TestClient[Litestar], chronicle: Chronicle) -> None:
    body = get(stats_client, "/stats/figures", position=head(chronicle), wait=30)
    figures = body["figures"]
    assert figures["win_rate_by_seat/province/2p/A/games"] == 3
    assert figures["rating/province/Ann/games"] == 2
    assert "dice_chi_square/province/first-player/d2/p_value" in figures


def a_reader_sees_the_game_it_just_finished(stats_client: TestClient[Litestar], chronicle: Chronicle) -> None:
    [game_id] = simulate(chronicle, 1, seed="api3", names=("Dee", "Eve"))
    body = get(stats_client, "/stats/tables/player_records", game=str(game_id), wait=30)
    assert {r["player"] for r in body["rows"]} >= {"Dee", "Eve"}
    status = get(stats_client, "/stats/status")
    assert [s["state"] for s in status] == ["active"]
    assert (status[0]["games_behind"], status[0]["lag_seconds"]) == (0, 0.0)


def test_one_games_statistics(client: TestClient[Litestar], chronicle: Chronicle) -> None:
    stats_client = client
    game_id = physical_game(chronicle, OPENING)
    assert_problem(stats_client.get(f"/games/{game_id}/stats"), 401, "token_required")
    response = stats_client.get(f"/games/{game_id}/stats", headers=bearer(ADMIN_TOKEN))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["statistics"]["actions"] == 7
    progression = next(t for t in body["tables"] if t["id"] == "progression")
    assert progression["rows"][1]["seat"] == "A"
    assert progression["rows"][1]["vp_A"] == 1.0
    exported = stats_client.get(
        f"/games/{game_id}/stats", params={"format": "csv"}, headers=bearer(ADMIN_TOKEN)
    )
    assert exported.text.startswith("turn,seat,vp_A,vp_B")
    assert_problem(stats_client.get("/games/not-a-game/stats"), 404, "game_not_found")


def test_an_administrator_rebuilds_the_view(client: TestClient[Litestar], chronicle: Chronicle) -> None:
    assert_problem(client.post("/stats/rebuild/stats"), 401, "token_required")
    assert_problem(
        client.post("/stats/rebuild/stats", headers=bearer("not-the-admin")), 403, "admin_required"
    )
    assert_problem(client.post("/stats/rebuild/nope", headers=bearer(ADMIN_TOKEN)), 404, "unknown_statistic")
    before = set(threading.enumerate())
    response = client.post("/stats/rebuild/stats", headers=bearer(ADMIN_TOKEN))
    # The rebuild runs in a thread of the server's; it must be over before the store goes away,
    # whatever the assertions below say.
    rebuilding = [t for t in threading.enumerate() if t.name == "rebuild-stats" and t not in before]
    try:
        assert response.status_code == 202, response.text
        deadline = time.monotonic() + 30
        while [s["state"] for s in get(client, "/stats/status")] != ["active"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        for thread in rebuilding:
            thread.join(timeout=30)
    assert not any(t.is_alive() for t in rebuilding)


def test_a_finished_game_leaves_the_public_statistics_while_another_table_plays_its_deal(
    chronicle: Chronicle,
) -> None:
    """The one withholding rule in the aggregate: while a same-deal game runs, the tables and
    figures over finished games (dice by face among them) and the same-deal comparison count
    none of the deal's games, then count them again once it ends."""
    first = finished_game(chronicle, "dynasties")
    with TestClient(create_app(chronicle, projections="inprocess")) as client:
        counted = get(client, "/stats", position=head(chronicle), wait=30)
        assert counted["games"] == 1
        dice_before = get(client, "/stats/tables/dice_chi_square")["rows"]
        assert sum(int(r["rolls"]) for r in dice_before) > 0
        again = client.post(
            "/games",
            json={"ruleset": "dynasties", "players": ["Cy", "Di"], "same_deal_as": str(first)},
            headers=bearer(ADMIN_TOKEN),
        )
        assert again.status_code == 201, again.text
        held = get(client, "/stats")
        assert held["games"] == 0 and all(
            t["rows"] == [] for t in held["tables"] if t["id"] == "dice_chi_square"
        )
        assert sum(int(r["rolls"]) for r in get(client, "/stats/tables/dice_chi_square")["rows"]) == 0
        assert get(client, "/stats/figures")["games"] == 0
        assert get(client, "/stats/same-deal")["rows"] == []
        recorder = {"Authorization": f"Bearer {again.json()['recorder_token']}"}
        ended = client.post(f"/games/{again.json()['game_id']}/abandon", json={}, headers=recorder)
        assert ended.status_code in (200, 201), ended.text
        assert get(client, "/stats")["games"] == 1
        assert get(client, "/stats/tables/dice_chi_square")["rows"] == dice_before
        assert len(get(client, "/stats/same-deal")["rows"]) == 2
