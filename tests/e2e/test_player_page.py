"""The player page (`/player/{name}`) in a real browser against a real `chronicle serve`: a
player's name on the games list leads to it, and it shows the record per ruleset, the rating
drawn as a line over the rated games, and the games, each a link to its replay. The replay and
the statistics tables link the names they show to the same page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import httpx
import pytest

from tests.cli.conftest import Cli, Server, serving
from tests.e2e.browsers import DESKTOP, PHONE, browser, local_page, shot
from tests.e2e.test_web_viewer import COLOURED
from tests.e2e.web_checks import assert_fits, assert_touch_targets

__all__ = ["browser"]  # the fixture, shared by every browser test

NAME = "Bot p1"  # `chronicle simulate`'s name for a game's first seat


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(tmp_path_factory.mktemp("player"))


@pytest.fixture(scope="module")
def server(cli: Cli) -> Iterator[Server]:
    with serving(cli) as running:
        yield running


@pytest.fixture(scope="module")
def games(cli: Cli, server: Server) -> list[str]:
    """Three finished Dynasties bot games, counted by the statistics, and a game of
    Dominations the same name plays still: the finished games' ids, oldest first."""
    cli.ok("simulate", "dynasties", "--games", "3", "--seed", "3")
    listed = httpx.get(f"{server.url}/games", params={"ruleset": "dynasties", "status": "finished"}).json()
    ids = [g["game_id"] for g in reversed(listed["games"])]
    counted = httpx.get(f"{server.url}/stats/figures", params={"game": ids[-1], "wait": 20}, timeout=30)
    assert counted.json()["caught_up"], counted.text
    created = httpx.post(
        f"{server.url}/games", json={"ruleset": "dominations", "players": [NAME, "Ann"]}, timeout=30
    )
    assert created.status_code == 201, created.text
    return ids


def _rated_pixels(page: Any) -> int:
    count: int = page.locator("#rating-chart").evaluate(COLOURED)
    return count


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_name_on_the_games_list_opens_the_players_page(
    browser: Any, server: Server, games: list[str], viewport: dict[str, int]
) -> None:
    page = local_page(browser, server, viewport)
    page.goto(f"{server.url}/")
    page.wait_for_selector("#games tbody tr")
    link = page.locator("#games tbody tr").first.locator("a.player-link", has_text=NAME).first
    link.click()
    page.wait_for_selector("body.ready")
    assert unquote(page.url).endswith(f"/player/{NAME}")
    assert page.locator("h1").inner_text() == NAME

    # one record per ruleset: the finished games and their rating, the running one
    records = page.locator(".record")
    assert records.count() == 2
    dynasties = page.locator('.record[data-key="dynasties/Bot p1"]')
    assert "of 3 finished" in dynasties.locator('dd[data-fact="won"]').inner_text()
    assert "3 rated" in dynasties.locator('dd[data-fact="rating"]').inner_text()
    running = page.locator('.record[data-key="dominations/Bot p1"]')
    assert running.locator('dd[data-fact="running"]').inner_text() == "1"

    # the rating over time, drawn: one point per rated game, in colour on the canvas
    points = page.locator("#rating-chart").evaluate(
        "canvas => Chart.getChart(canvas).getDatasetMeta(0).data.length"
    )
    assert points == 3
    assert _rated_pixels(page) > 200

    # the games, newest first, each a link to its replay; the other players link to theirs
    rows = page.locator("#player-games tbody tr")
    assert rows.count() == 4
    assert [rows.nth(i).get_attribute("data-game") for i in range(1, 4)] == games[::-1]
    assert rows.first.locator("a.player-link", has_text="Ann").count() == 1
    replay = rows.nth(1).locator(f'a[href="/view/{games[-1]}"]')
    assert replay.count() == 1
    assert_fits(page)
    assert_touch_targets(page)
    shot(page, f"player-{'phone' if viewport is PHONE else 'desktop'}")

    # across rulesets: one record for the name, the same rated games
    page.locator('input[name="across_rulesets"]').check()
    page.locator('#options button[type="submit"]').click()
    page.wait_for_function("document.querySelectorAll('.record').length === 1")
    page.wait_for_selector("body.ready")
    assert page.locator('.record[data-key="Bot p1"] dd[data-fact="played"]').inner_text() == "4"
    assert "across_rulesets=true" in page.url

    # the replay names its seats, each a link to the player's page
    replay.click()
    page.wait_for_selector("body.ready")
    seat = page.locator("#seats a.player-link", has_text=NAME)
    assert seat.get_attribute("href") == "/player/Bot%20p1"
    page.context.close()


def test_an_unknown_player_says_so(browser: Any, server: Server, games: list[str]) -> None:
    page = local_page(browser, server, PHONE)
    page.goto(f"{server.url}/player/Nobody%20here")
    page.wait_for_selector("body.ready")
    assert "No game has a player named" in page.locator("#summary").inner_text()
    assert page.locator(".record").count() == 0
    assert page.evaluate("document.body.dataset.rated") == "0"
    page.context.close()


def test_the_statistics_tables_link_each_named_player(browser: Any, server: Server, games: list[str]) -> None:
    page = local_page(browser, server, DESKTOP)
    page.goto(f"{server.url}/statistics")
    page.wait_for_selector("body.ready")
    rating = page.locator('table[data-table="rating"] a.player-link', has_text=NAME)
    assert rating.count() == 1
    assert rating.get_attribute("href") == "/player/Bot%20p1"
    page.context.close()
