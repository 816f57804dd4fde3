"""`GET /rulesets/{id}/setup`: what a New game form offers besides the variant options, for the
options given as query parameters (typed as each option is declared), and the New game page
that reads it (`/new`), served with everything it loads."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from tests.api.support import assert_problem
from tests.api.test_viewer_routes import EXTERNAL

# The recommended kingdoms of the 2nd edition's (2016) base rulebook, as named in the card data.
SIX_2E = ["deck_top", "first_game", "improvements", "silver_and_silver", "size_distortion", "sleight_of_hand"]


def test_dominion_s_setup_follows_the_sets_and_edition_asked_for(client: TestClient[Litestar]) -> None:
    plain = client.get("/rulesets/dominion/setup")
    assert plain.status_code == 200, plain.text
    body = plain.json()
    assert body["ruleset"] == "dominion"
    assert body["options"]["kingdom"] == "random" and body["options"]["base_edition"] == 1
    kingdom = body["choices"]["kingdom"]
    assert len(kingdom["presets"]) == 5 and len(kingdom["piles"]) == 32 and kingdom["landscapes"] == []

    asked = client.get("/rulesets/dominion/setup", params={"base_edition": "2", "expansions": "base,empires"})
    assert asked.status_code == 200, asked.text
    assert (asked.json()["options"]["base_edition"], asked.json()["options"]["expansions"]) == (
        2,
        "base,empires",
    )
    kingdom = asked.json()["choices"]["kingdom"]
    assert [p["name"] for p in kingdom["presets"]] == sorted([*SIX_2E, "advanced_intro", "basic_intro"])
    assert len(kingdom["landscapes"]) == 34
    flagged = client.get("/rulesets/dominion/setup", params={"open_counts": "true"})
    assert flagged.status_code == 200 and flagged.json()["options"]["open_counts"] is True


def test_the_2nd_edition_s_six_presets_are_offered_and_each_creates_its_kingdom(
    client: TestClient[Litestar],
) -> None:
    asked = client.get("/rulesets/dominion/setup", params={"base_edition": "2"})
    assert asked.status_code == 200, asked.text
    presets = {p["name"]: p["piles"] for p in asked.json()["choices"]["kingdom"]["presets"]}
    assert sorted(presets) == SIX_2E
    assert "Merchant" in presets["first_game"] and "Woodcutter" not in presets["first_game"]
    for name, mode in (("silver_and_silver", "digital"), ("deck_top", "physical")):
        body = {"ruleset": "dominion", "players": ["Ann", "Ben"], "mode": mode}
        created = client.post("/games", json={**body, "options": {"base_edition": 2, "kingdom": name}})
        assert created.status_code == 201, created.text
        view = client.get(f"/games/{created.json()['game_id']}/state").json()
        assert sorted(view.get("state", view)["kingdom"]) == sorted(presets[name])
    refused = client.post(
        "/games", json={"ruleset": "dominion", "players": ["Ann", "Ben"], "options": {"kingdom": "deck_top"}}
    )
    problem = assert_problem(refused, 400, "preset_needs_base_edition_2")
    assert "base_edition=2" in problem["detail"]


def test_a_ruleset_without_setup_choices_answers_its_options_only(client: TestClient[Litestar]) -> None:
    answer = client.get("/rulesets/province/setup", params={"max_builds_per_turn": "unlimited"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["choices"] == {}
    assert answer.json()["options"]["max_builds_per_turn"] == "unlimited"  # a choice spelled as text


def test_bad_options_are_a_400_and_an_unknown_ruleset_a_404(client: TestClient[Litestar]) -> None:
    assert_problem(
        client.get("/rulesets/dominion/setup", params={"base_edition": "3"}), 400, "invalid_option"
    )
    assert_problem(
        client.get("/rulesets/dominion/setup", params={"open_counts": "maybe"}), 400, "invalid_option"
    )
    unknown = assert_problem(
        client.get("/rulesets/dominion/setup", params={"colour": "red"}), 400, "unknown_option"
    )
    assert "colour" in unknown["detail"]
    assert_problem(client.get("/rulesets/chess/setup"), 404, "unknown_ruleset")


def test_the_setup_route_is_in_the_api_document(client: TestClient[Litestar]) -> None:
    operation = client.get("/schema/openapi.json").json()["paths"]["/rulesets/{ruleset_id}/setup"]["get"]
    assert {"200", "400", "404"} <= set(operation["responses"])


def test_the_new_game_page_loads_nothing_from_another_host(client: TestClient[Litestar]) -> None:
    page = client.get("/new")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert not EXTERNAL.search(page.text)
    assert '<meta name="referrer" content="no-referrer">' in page.text
    for asset in ("/static/new.js", "/static/new.css", "/static/vendor/qrcode-generator.js"):
        assert asset in page.text
        assert client.get(asset).status_code == 200, asset
    assert client.get("/static/vendor/qrcode-generator.LICENSE.md").status_code == 200
