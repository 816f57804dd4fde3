"""The routes around the games: health, rulesets, the OpenAPI document, unknown routes."""

from __future__ import annotations

import gc
import os
import re

import pytest
from eventsourcing.persistence import OperationalError
from litestar import Litestar
from litestar.testing import TestClient

from api.app import YOUNG_OBJECTS, create_app
from store.app import Chronicle
from tests.api.support import Api, assert_problem

METHODS = ("get", "post", "put", "patch", "delete")


def test_health_answers_ok_and_names_the_store(client: TestClient[Litestar], store_url: str) -> None:
    response = client.get("/health")

    assert response.status_code == 200
    answer = response.json()
    assert answer.pop("process") == os.getpid()  # the test client serves in this process
    # over an application object it was given, the server leaves the view to others
    assert answer == {"status": "ok", "store": store_url.split(":", 1)[0], "projections": "external"}


def test_the_rulesets_list_names_province_with_its_seats_and_options(client: TestClient[Litestar]) -> None:
    rulesets = client.get("/rulesets").json()["rulesets"]

    province = next(r for r in rulesets if r["id"] == "province")
    assert province["seat_ids"] == ["A", "B"]
    assert province["min_players"] == province["max_players"] == 2
    assert {"name", "default", "choices", "min", "max", "description"} <= set(province["options"][0])


def test_the_rules_a_rejection_cites_are_served_whole_or_by_section(client: TestClient[Litestar]) -> None:
    whole = client.get("/rulesets/province/rules").json()
    assert whole["reference"] == "province" and whole["section"] is None
    assert {"id": "3.2", "title": "Labour phase"} in whole["sections"]
    section = client.get("/rulesets/province/rules/3.2").json()
    assert section["text"].startswith("### 3.2 Labour phase") and section["text"] in whole["text"]
    assert client.get("/rules/corrections/2b").json()["title"] == "A random outcome"
    assert client.get("/rules/records").json()["title"].startswith("Records")
    assert_problem(client.get("/rulesets/province/rules/99"), 404, "unknown_rules")
    assert_problem(client.get("/rules/chess"), 404, "unknown_rules")


def test_a_ruleset_shows_its_options_with_bounds_and_each_action_kind_as_a_json_schema(
    client: TestClient[Litestar],
) -> None:
    province = client.get("/rulesets/province").json()

    options = {o["name"]: o for o in province["options"]}
    supply = options["coin_supply_total"]
    assert (supply["default"], supply["min"], supply["choices"]) == (28, 5, None)
    assert options["end_check"]["choices"] == ["end_of_turn", "immediate", "end_of_round"]
    kinds = {"MoveWorker", "Build", "Grind", "EndTurn", "TossShips", "DetermineFirstPlayer", "RevealGoal"}
    assert kinds <= set(province["actions"])
    move = province["actions"]["MoveWorker"]
    definition = move["$defs"]["MoveWorker"] if "$defs" in move else move
    assert {"kind", "piece", "from"} <= set(definition["properties"])


def test_an_unknown_ruleset_is_a_404_problem(client: TestClient[Litestar]) -> None:
    assert_problem(client.get("/rulesets/chess"), 404, "unknown_ruleset")


def test_an_unknown_route_is_a_404_problem(client: TestClient[Litestar]) -> None:
    assert_problem(client.get("/no/such/route"), 404, "not_found")


def test_a_wrong_method_is_a_405_problem(client: TestClient[Litestar]) -> None:
    assert_problem(client.delete("/rulesets"), 405, "method_not_allowed")


def test_every_405_names_exactly_the_methods_of_its_path_in_allow(client: TestClient[Litestar]) -> None:
    """Each documented path (its parameters filled in), and the paths left out of the document
    (the docs, the static files, a live stream that also upgrades to a WebSocket)."""
    paths = client.get("/schema/openapi.json").json()["paths"]
    documented = {
        re.sub(r"\{[^}]+\}", "x", path): {m.upper() for m in item if m in METHODS}
        for path, item in paths.items()
    }
    undocumented = {"/schema": {"GET"}, "/static/viewer.css": {"GET", "HEAD"}}
    for path, methods in (documented | undocumented).items():
        response = client.request("TRACE", path)
        assert_problem(response, 405, "method_not_allowed")
        allowed = {m.strip() for m in response.headers["allow"].split(",")}
        assert allowed == methods | {"OPTIONS"}, path
    assert documented["/games/x/live"] == {"GET"}  # no `websocket` in its Allow


def test_the_openapi_document_describes_every_route_and_the_problem_answers(
    client: TestClient[Litestar],
) -> None:
    assert client.get("/schema").status_code == 200
    document = client.get("/schema/openapi.json").json()

    paths = document["paths"]
    for path in (
        "/health",
        "/rulesets",
        "/rulesets/{ruleset_id}",
        "/games",
        "/games/{game_id}",
        "/games/{game_id}/actions",
        "/games/{game_id}/events",
        "/games/{game_id}/state",
        "/games/{game_id}/prompts",
        "/games/{game_id}/legal-actions",
        "/games/{game_id}/audit",
    ):
        assert path in paths, path
    record = paths["/games/{game_id}/actions"]["post"]
    assert {"200", "201", "409", "422"} <= set(record["responses"])
    assert "application/problem+json" in record["responses"]["409"]["content"]
    headers = [p for p in record["parameters"] if p["in"] == "header"]  # read by the handler itself
    assert [(p["name"], p["required"]) for p in headers] == [("If-Match", False)]
    events = {p["name"] for p in paths["/games/{game_id}/events"]["get"]["parameters"]}
    assert {"from", "to"} <= events


def test_a_fault_of_the_server_is_a_500_problem_that_shows_no_internals(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = api.create()

    def broken(game_id: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(api.chronicle, "prompts", broken)

    body = assert_problem(api.get(f"/games/{game.id}/prompts"), 500, "internal_error")
    assert "secret" not in body["detail"]


def test_an_unavailable_store_is_a_503_problem(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable() -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(api.chronicle.recorder, "max_notification_id", unavailable)

    assert_problem(api.get("/health"), 503, "store_unavailable")


def test_an_app_made_from_a_store_url_opens_the_store_when_it_starts_and_finds_its_games_again(
    store_url: str,
) -> None:
    with TestClient(create_app(store=store_url)) as first:
        created = first.post("/games", json={"ruleset": "province", "players": ["Ann", "Ben"]}).json()

    with TestClient(create_app(store=store_url)) as second:
        assert second.get(f"/games/{created['game_id']}").json()["version"] == created["version"]
        assert [g["game_id"] for g in second.get("/games").json()["games"]] == [created["game_id"]]


def test_an_app_takes_an_application_object_or_a_store_url_not_both(
    chronicle: Chronicle, store_url: str
) -> None:
    with pytest.raises(ValueError, match="not both"):
        create_app(chronicle, store=store_url)


def test_a_running_server_collects_young_objects_less_often_and_leaves_the_collector_as_it_was(
    store_url: str,
) -> None:
    before = gc.get_threshold()
    with TestClient(create_app(store=store_url)) as client:
        assert client.get("/health").status_code == 200
        assert gc.get_threshold() == (YOUNG_OBJECTS, *before[1:]) and before[0] < YOUNG_OBJECTS
        assert gc.get_freeze_count() > 0  # what start-up built is out of the collector's sight
    assert gc.get_threshold() == before
