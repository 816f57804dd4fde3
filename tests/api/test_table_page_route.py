"""The table page's route: `/table/{id}` is the app's own page, with its own script and style,
no token in any address it names, and a 404 problem for a game that does not exist."""

from __future__ import annotations

import re

from litestar import Litestar
from litestar.testing import TestClient

from tests.api.support import Api, assert_problem

EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", re.IGNORECASE)


def test_the_table_page_names_its_game_and_loads_only_the_apps_own_files(
    client: TestClient[Litestar], api: Api
) -> None:
    game = api.create(ruleset="dominion")
    page = client.get(f"/table/{game.id}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert not EXTERNAL.search(page.text)
    assert f'data-game="{game.id}"' in page.text
    # the token arrives in the fragment; the page sends no Referer that could carry one on
    assert '<meta name="referrer" content="no-referrer">' in page.text
    for asset in ("/static/viewer.css", "/static/table.css", "/static/viewer.js", "/static/table.js"):
        assert asset in page.text
        assert client.get(asset).status_code == 200, asset
    # the picture is drawn by the replay page's own drawing
    assert "drawPicture" in client.get("/static/viewer.js").text.rsplit("return", 1)[1]


def test_the_table_page_of_an_unknown_game_is_a_404_problem(client: TestClient[Litestar]) -> None:
    assert_problem(client.get("/table/00000000-0000-4000-8000-000000000000"), 404, "game_not_found")
    assert client.get("/table/not-a-game").status_code in (400, 404)
