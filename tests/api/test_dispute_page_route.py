"""A dispute's page, `/dispute/{id}`: an HTML page of the app naming the dispute and its game
(escaped, as attribute values) and loading only the app's own scripts; a dispute there is not
is the API's 404 problem, as an unknown game's replay page is."""

from __future__ import annotations

from uuid import UUID

from tests.api.support import Api, assert_problem, bearer
from tests.api.test_viewer_routes import EXTERNAL


def test_a_dispute_has_its_own_page_and_an_unknown_one_is_a_404(api: Api) -> None:
    client = api.client
    game = api.create(ruleset="dominion")
    body = {"from": 1, "to": 1, "claim": "the setup is wrong"}
    opened = client.post(f"/games/{game.id}/disputes", json=body, headers=bearer(game.recorder))
    assert opened.status_code == 201, opened.text
    dispute_id = opened.json()["dispute_id"]

    page = client.get(f"/dispute/{dispute_id}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert f'data-dispute="{dispute_id}"' in page.text and f'data-game="{game.id}"' in page.text
    assert f'href="/view/{game.id}"' in page.text
    assert '<script src="/static/disputes.js">' in page.text
    assert '<meta name="referrer" content="no-referrer">' in page.text
    assert not EXTERNAL.search(page.text)
    assert "the setup is wrong" not in page.text  # the claim is read through the API, for the reader
    assert client.get("/static/disputes.js").status_code == 200
    # the replay page loads the disputes panel after its own script
    replay = client.get(f"/view/{game.id}").text
    assert replay.index("/static/viewer.js") < replay.index("/static/disputes.js")

    assert_problem(client.get(f"/dispute/{UUID(int=7)}"), 404, "dispute_not_found")
    assert_problem(client.get('/dispute/"><script>x'), 404, "dispute_not_found")
