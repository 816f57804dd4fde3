"""The web viewer in a real browser: headless Chromium (Debian's `chromium`, driven by
Playwright) against a real `chronicle serve` process.

The pages are looked at as drawn: which cells are highlighted, what a seat's row reads, that
the tile board has tiles of a size, that `/schema` renders with every request to another host
refused. Every path reads through the one redaction: a seat token shows its own hand, the
public sees none.
"""

from __future__ import annotations

import importlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.cli.conftest import Cli, Server, serving

# Under CI a missing Playwright fails the import; locally the tests are skipped without it.
playwright_api: Any = (
    importlib.import_module("playwright.sync_api")
    if os.environ.get("CI")
    else pytest.importorskip("playwright.sync_api")
)

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = os.environ.get("CHRONICLE_SCREENSHOTS")  # a folder: keep a screenshot of each page there


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (.ci/run installs it)")
        pytest.skip("chromium is not installed")
    with playwright_api.sync_playwright() as driver:
        launched = driver.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
        )
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(Cli(tmp_path_factory.mktemp("web"))) as running:
        yield running


def _create(server: Server, ruleset: str, players: list[str]) -> dict[str, Any]:
    answer = httpx.post(f"{server.url}/games", json={"ruleset": ruleset, "players": players}, timeout=30)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def _page(browser: Any, server: Server) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(15_000)

    def only_local(route: Any) -> None:  # no page may load anything from elsewhere
        if route.request.url.startswith(server.url):
            route.continue_()
        else:
            route.abort()

    page.route("**/*", only_local)
    return page


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def _hand_cell(page: Any, seat: str) -> str:
    text: str = page.locator(f'table[data-section="players"] tr[data-key="{seat}"] td').nth(1).inner_text()
    return text.strip()


def _hand_text(hand: list[str]) -> str:
    counts: dict[str, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    return ", ".join(f"{n} {c}" if n > 1 else c for c, n in counts.items())


def test_a_dominion_replay_in_the_browser_shows_a_seat_its_own_hand_only(
    browser: Any, server: Server
) -> None:
    created = _create(server, "dominion", ["Ann", "Ben"])
    game_id, tokens = created["game_id"], created["seat_tokens"]
    recorder = {"authorization": f"Bearer {created['recorder_token']}"}
    ended = httpx.post(f"{server.url}/games/{game_id}/actions", json={"action": "end"}, headers=recorder)
    assert ended.status_code == 201, ended.text
    everything = httpx.get(f"{server.url}/games/{game_id}/state", headers=recorder).json()["state"]
    ann, ben = everything["players"]["p1"]["hand"], everything["players"]["p2"]["hand"]
    at = httpx.get(f"{server.url}/games/{game_id}").json()["version"]
    noted = httpx.post(
        f"{server.url}/games/{game_id}/annotations",
        json={"at": at, "text": "keep the Coppers", "glyph": "!?"},
        headers={"authorization": f"Bearer {tokens['p1']}"},
    )
    assert noted.status_code == 201, noted.text

    page = _page(browser, server)
    page.goto(f"{server.url}/")
    page.locator(f'tr[data-game="{game_id}"] a').click()
    page.wait_for_selector("body.ready")
    _shot(page, "dominion-first")
    last = int(page.locator("#of").inner_text().removeprefix("of "))
    page.keyboard.press("End")
    page.wait_for_function(f"document.body.dataset.version === '{last}'")
    # the public: nobody's hand
    assert page.locator("#viewer").inner_text() == "seen as public"
    assert _hand_cell(page, "p1") == f"{len(ann)} cards"
    assert _hand_cell(page, "p2") == f"{len(ben)} cards"
    assert page.locator("#event .note").count() == 0  # Ann's note is hers while the game runs
    # Ann's token: her hand, and only the size of Ben's
    page.fill("#token", tokens["p1"])
    page.click("#as button")
    page.wait_for_function("document.getElementById('viewer').textContent === 'seen as player:p1'")
    assert _hand_cell(page, "p1") == _hand_text(ann)
    assert _hand_cell(page, "p2") == f"{len(ben)} cards"
    assert page.locator("#event .note").inner_text() == "!? keep the Coppers (seat:p1)"
    assert page.locator(f'#moves li[data-version="{at}"] .note').count() == 1
    _shot(page, "dominion-as-ann")
    # step back, to a clicked move, and by search
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"document.body.dataset.version === '{last - 1}'")
    page.locator('#moves li[data-version="3"]').click()
    page.wait_for_function("document.body.dataset.version === '3'")
    assert "current" in (page.locator('#moves li[data-version="3"]').get_attribute("class") or "")
    page.keyboard.press("/")
    page.keyboard.type("shuffles")
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('event').textContent.includes('shuffles')")
    # what the step changed is drawn on yellow: a draw changes a hand
    page.keyboard.press("/")
    page.keyboard.type("draws")
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('event').textContent.includes('draws')")
    changed = page.locator("td.changed, dd.changed")
    assert changed.count() > 0
    colour = changed.first.evaluate("cell => getComputedStyle(cell).backgroundColor")
    assert colour == "rgb(255, 230, 109)"
    page.close()


def test_the_dominations_tiles_are_drawn_as_a_board(browser: Any, server: Server) -> None:
    created = _create(server, "dominations", ["Ann", "Ben"])
    page = _page(browser, server)
    page.goto(f"{server.url}/view/{created['game_id']}")
    page.wait_for_selector("body.ready")
    page.keyboard.press("End")
    tiles = page.locator('figure[data-section="board"] svg polygon')
    assert tiles.count() >= 1
    box = tiles.first.bounding_box()
    assert box is not None and box["width"] > 20 and box["height"] > 20
    _shot(page, "dominations")
    # another seat's hands stay hidden from the public
    assert "hidden" in page.locator('table[data-section="players"] tr[data-key="p2"]').inner_text()
    page.close()


def test_the_api_docs_render_without_any_other_host(browser: Any, server: Server) -> None:
    page = _page(browser, server)
    page.goto(f"{server.url}/schema")
    heading = page.locator("h2", has_text="Operations")
    assert heading.is_visible()
    assert page.locator("a", has_text="GET /games/{game_id}/picture").count() == 1
    _shot(page, "schema")
    page.close()
