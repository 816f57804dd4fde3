"""The web viewer's routes: the pages and their assets come from the app itself, the API docs
render without any other host, and a game's picture is redacted for the caller like its state."""

from __future__ import annotations

import re
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from tests.api.support import Api, Game, assert_problem, bearer

EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", re.IGNORECASE)


def _dominion(api: Api) -> Game:
    return api.create(ruleset="dominion")


def _row(picture: dict[str, Any], seat: str) -> list[str]:
    players = next(s for s in picture["sections"] if s["id"] == "players")
    cells: list[str] = next(r for r in players["rows"] if r["key"] == seat)["cells"]
    return cells


def test_the_pages_and_the_docs_load_nothing_from_another_host(
    client: TestClient[Litestar], api: Api
) -> None:
    game = _dominion(api)
    for path in ("/", f"/view/{game.id}", "/statistics", "/schema", "/rulebook", "/rulebook/dominion"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert page.headers["content-type"].startswith("text/html")
        assert not EXTERNAL.search(page.text), path
    assert "/static/viewer.js" in client.get("/").text
    script = client.get("/static/viewer.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert client.get("/static/viewer.css").status_code == 200
    # the charts' library is the app's own copy, named with its license
    assert '<a href="/statistics">' in client.get("/").text
    assert '<a href="/new" class="primary">New game</a>' in client.get("/").text
    for path in (f"/view/{game.id}", "/statistics"):
        assert '<script src="/static/vendor/chart.umd.min.js">' in client.get(path).text
    chart = client.get("/static/vendor/chart.umd.min.js")
    assert chart.status_code == 200 and "Chart.js v4.5.1" in chart.text[:200]
    assert "MIT License" in client.get("/static/vendor/chart.js.LICENSE.md").text
    assert "GET /games/{game_id}/picture" in client.get("/schema").text


def test_the_rulebook_pages_name_their_reference_and_every_other(client: TestClient[Litestar]) -> None:
    page = client.get("/rulebook/province")
    assert page.status_code == 200
    assert 'data-reference="province"' in page.text and 'data-missing=""' in page.text
    # the list of references travels as an escaped attribute: ids and titles, nothing else
    assert "[[&quot;dominations&quot;," in page.text or "&quot;province&quot;" in page.text
    assert "&quot;corrections&quot;" in page.text
    assert '<meta name="referrer" content="no-referrer">' in page.text
    assert "/static/rulebook.js" in page.text
    missing = client.get("/rulebook/chess")
    assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")
    assert 'data-reference="chess"' in missing.text and 'data-missing="true"' in missing.text
    # a name that is markup is text in the page
    odd = client.get('/rulebook/"><script>x</script>')
    assert odd.status_code == 404 and "<script>x" not in odd.text
    assert client.get("/static/rulebook.js").status_code == 200


def test_an_unknown_docs_path_is_a_404_problem_like_any_other(client: TestClient[Litestar]) -> None:
    assert_problem(client.get("/schema/swagger"), 404, "not_found")
    assert_problem(client.get("/schema/redoc"), 404, "not_found")
    assert_problem(client.get("/static/nothing.js"), 404, "not_found")
    assert client.get("/schema/openapi.json").status_code == 200


def test_the_picture_shows_a_seat_its_own_hand_and_the_public_none(api: Api) -> None:
    game = _dominion(api)
    everything = api.state(game, game.recorder)["state"]["players"]
    ann = api.get(f"/games/{game.id}/picture", game.seat("p1")).json()
    assert ann["view"] == "player:p1"
    assert all(card in _row(ann["picture"], "p1")[1] for card in everything["p1"]["hand"])
    assert _row(ann["picture"], "p2")[1] == f"{len(everything['p2']['hand'])} cards"
    public = api.get(f"/games/{game.id}/picture").json()
    assert public["view"] == "public"
    for seat in ("p1", "p2"):
        assert _row(public["picture"], seat)[1] == f"{len(everything[seat]['hand'])} cards"
    # the first version has no step before it; a later one names what its step changed
    assert api.get(f"/games/{game.id}/picture", None, at=1).json()["picture"]["changed"] == []
    changed = [
        api.get(f"/games/{game.id}/picture", None, at=v).json()["picture"]["changed"] for v in (2, 3, 4)
    ]
    assert any(changed)
    # since: what changed over several versions at once (a replay's step by action), the
    # union of each version's changes, and nothing against itself
    over = set(api.get(f"/games/{game.id}/picture", None, at=4, since=1).json()["picture"]["changed"])
    assert set().union(*changed) <= over
    assert api.get(f"/games/{game.id}/picture", None, at=4, since=4).json()["picture"]["changed"] == []


def test_a_bad_version_or_game_is_a_problem(client: TestClient[Litestar], api: Api) -> None:
    game = _dominion(api)
    assert_problem(client.get(f"/games/{game.id}/picture", params={"at": 0}), 400, "invalid_version")
    assert_problem(client.get(f"/games/{game.id}/picture", params={"at": 10_000}), 400, "invalid_version")
    assert_problem(
        client.get(f"/games/{game.id}/picture", params={"at": 3, "since": 4}), 400, "invalid_version"
    )
    missing = "00000000-0000-4000-8000-000000000000"
    assert_problem(client.get(f"/games/{missing}/picture"), 404, "game_not_found")
    assert_problem(client.get(f"/view/{missing}"), 404, "game_not_found")
    assert_problem(
        client.get(f"/games/{game.id}/picture", headers=bearer("not-a-token")), 401, "invalid_token"
    )


def test_the_turns_name_each_version_s_turn_and_seat_for_every_viewer(
    client: TestClient[Litestar], api: Api
) -> None:
    game = _dominion(api)
    api.act(game, "end", game.seat(api.active_seat(game)))  # to the Buy phase
    last = api.version(game)
    public = api.get(f"/games/{game.id}/turns").json()
    assert public["game_id"] == game.id and len(public["turns"]) == last
    assert public["turns"][0] == [0, None]  # created: no turn yet
    assert public["turns"][-1][0] == 1 and public["turns"][-1][1] in ("p1", "p2")
    # whose turn it is, and its number, is the same for everyone at the table
    assert api.get(f"/games/{game.id}/turns", game.seat("p2")).json() == public
    missing = "00000000-0000-4000-8000-000000000000"
    assert_problem(client.get(f"/games/{missing}/turns"), 404, "game_not_found")
    assert_problem(client.get(f"/games/{game.id}/turns", headers=bearer("not-a-token")), 401, "invalid_token")
