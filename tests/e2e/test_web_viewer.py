"""The web viewer in a real browser: headless Chromium (Debian's `chromium`, driven by
Playwright) against a real `chronicle serve` process.

The pages are looked at as drawn: which cells are highlighted, what a seat's row reads, that
the tile board has tiles of a size, that `/schema` renders with every request to another host
refused. Every path reads through the one redaction: a seat token shows its own hand, the
public sees none.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.cli.conftest import Cli, Server, serving
from tests.e2e.browsers import browser, local_page, shot
from tests.e2e.steps import heads, stop_of

__all__ = ["browser"]  # the fixture, shared by every browser test


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(tmp_path_factory.mktemp("web"))


@pytest.fixture(scope="module")
def server(cli: Cli) -> Iterator[Server]:
    with serving(cli) as running:
        yield running


@pytest.fixture(scope="module")
def finished(cli: Cli, server: Server) -> dict[str, str]:
    """One finished bot game of Dominion and one of Dynasties (dice), counted by the statistics
    view: ruleset -> game id."""
    games: dict[str, str] = {}
    for ruleset in ("dominion", "dynasties"):
        cli.ok("simulate", ruleset, "--games", "1", "--seed", "3")
        listed = httpx.get(f"{server.url}/games", params={"ruleset": ruleset, "status": "finished"}).json()
        games[ruleset] = listed["games"][0]["game_id"]
    counted = httpx.get(
        f"{server.url}/stats/figures", params={"game": games["dynasties"], "wait": 20}, timeout=30
    )
    assert counted.json()["caught_up"] and counted.json()["games"] >= 2, counted.text
    return games


def _create(server: Server, ruleset: str, players: list[str]) -> dict[str, Any]:
    answer = httpx.post(f"{server.url}/games", json={"ruleset": ruleset, "players": players}, timeout=30)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


# How much of a canvas is drawn in colour: the charts' series are coloured, their axes, grid
# and labels grey, so an empty or unfinished chart counts (almost) nothing.
COLOURED = """canvas => {
  const {data} = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
  let n = 0;
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
    if (a > 128 && Math.max(r, g, b) - Math.min(r, g, b) > 50) n += 1;
  }
  return n;
}"""


def _coloured(page: Any, selector: str) -> int:
    count: int = page.locator(selector).evaluate(COLOURED)
    return count


def _points(page: Any, selector: str) -> list[int]:
    """How many elements Chart.js drew for each dataset of the chart on `selector`."""
    found: list[int] = page.locator(selector).evaluate(
        "canvas => { const c = Chart.getChart(canvas);"
        " return c.data.datasets.map((_, i) => c.getDatasetMeta(i).data.length); }"
    )
    return found


def _version(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def _press(page: Any, key: str) -> int:
    """Press a key and wait for the step it starts; the version it shows."""
    before = page.evaluate("document.body.dataset.version")
    page.keyboard.press(key)
    page.wait_for_function(f"document.body.dataset.version !== '{before}'")
    return _version(page)


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

    page = local_page(browser, server)
    page.goto(f"{server.url}/")
    page.locator(f'tr[data-game="{game_id}"] a[href^="/view/"]').click()
    page.wait_for_selector("body.ready")
    shot(page, "dominion-first")
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
    # her note by her name, with what its author may do (api/static/annotate.js), under its move
    assert page.locator("#event .note .words").inner_text() == "!? keep the Coppers (Ann)"
    step = page.locator(f'#moves li[data-version="{at}"]').get_attribute("data-step")
    assert page.locator(f'#moves li[data-version="{step}"] .note button.edit').count() == 1
    shot(page, "dominion-as-ann")
    # by event (every fact a step, and every move listed): step back, to a clicked move, and by search
    page.keyboard.press("e")
    assert page.locator("#every-event").is_checked()
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
    page = local_page(browser, server)
    page.goto(f"{server.url}/view/{created['game_id']}")
    page.wait_for_selector("body.ready")
    _press(page, "End")  # the last version drawn, so no tile read is of a picture being replaced
    tiles = page.locator('figure[data-section="board"] svg polygon')
    assert tiles.count() >= 1
    box = tiles.first.bounding_box()
    assert box is not None and box["width"] > 20 and box["height"] > 20
    shot(page, "dominations")
    # another seat's hands stay hidden from the public
    assert "hidden" in page.locator('table[data-section="players"] tr[data-key="p2"]').inner_text()
    page.close()


def test_the_api_docs_render_without_any_other_host(browser: Any, server: Server) -> None:
    page = local_page(browser, server)
    page.goto(f"{server.url}/schema")
    heading = page.locator("h2", has_text="Operations")
    assert heading.is_visible()
    assert page.locator("a", has_text="GET /games/{game_id}/picture").count() == 1
    shot(page, "schema")
    page.close()


def test_the_statistics_page_draws_every_dashboard_chart(
    browser: Any, server: Server, finished: dict[str, str]
) -> None:
    page = local_page(browser, server)
    page.goto(f"{server.url}/")
    page.click('a[href="/statistics"]')
    page.wait_for_selector("body.ready")
    assert "finished games match" in page.locator("#summary").inner_text()
    for figure in ("score", "win-rate", "ratings"):
        canvas = f"#{figure} canvas"
        assert page.locator(canvas).is_visible(), figure
        assert all(n > 0 for n in _points(page, canvas)), figure
        assert _coloured(page, canvas) > 500, f"{figure}: nothing drawn in colour"
    # every player is named beside their rating, none skipped for room
    ticks, labels = page.locator("#ratings canvas").evaluate(
        "c => { const ch = Chart.getChart(c); return [ch.scales.y.ticks.length, ch.data.labels.length]; }"
    )
    assert ticks == labels == 4  # two players in each of two games
    # dice against fair dice: Dynasties' d6, each face a bar and the fair line across
    die = page.locator('#dice .die[data-stream^="dynasties/dice/d6"] canvas')
    assert _points(page, '#dice .die[data-stream^="dynasties/dice/d6"] canvas') == [6, 6]
    assert die.evaluate(COLOURED) > 300
    # the Dominion card table: a bar pair per kingdom card, and the table under it
    assert _coloured(page, "#cards canvas") > 300
    cards = page.locator("#card-table tbody tr")
    assert cards.count() == _points(page, "#cards canvas")[0] >= 10
    shot(page, "statistics")
    # a filter the API offers: only Dynasties; the card table has nothing to show
    page.select_option('select[name="ruleset"]', "dynasties")
    page.click("#filters button")
    page.wait_for_selector("body.ready")
    assert page.locator("#score figcaption").inner_text() == "Score over time: dynasties"
    assert "ruleset=dynasties" in page.url
    assert page.locator("#cards").is_hidden()
    assert page.locator('#dice .die[data-stream^="dominion"]').count() == 0
    assert _coloured(page, "#win-rate canvas") > 500
    shot(page, "statistics-dynasties")
    # no game matches: each figure says so instead of drawing an empty frame, and says again
    # what it shows once games match
    page.fill('input[name="player"]', "nobody")
    page.click("#filters button")
    page.wait_for_selector("body.ready")
    assert page.locator("#win-rate canvas").is_hidden()
    assert page.locator("#win-rate .note").inner_text() == "No finished games match the filters."
    page.fill('input[name="player"]', "")
    page.click("#filters button")
    page.wait_for_selector("body.ready")
    assert "Wilson interval" in page.locator("#win-rate .note").inner_text()
    assert _coloured(page, "#win-rate canvas") > 500
    page.close()


def test_a_game_page_charts_the_game_only_for_whoever_may_see_its_statistics(
    browser: Any, server: Server, finished: dict[str, str]
) -> None:
    page = local_page(browser, server)
    page.goto(f"{server.url}/view/{finished['dominion']}")
    page.wait_for_selector("body.ready")
    assert page.locator("#metric").input_value() == "vp"
    points = _points(page, "#game-canvas")
    assert len(points) == 2 and min(points) > 5  # a line per seat, a point per turn
    assert _coloured(page, "#game-canvas") > 300
    shot(page, "dominion-finished")
    # a running game's statistics: not for the public, drawn for a seat
    created = _create(server, "dominion", ["Ann", "Ben"])
    page.goto(f"{server.url}/view/{created['game_id']}")
    page.wait_for_selector("body.ready")
    assert page.locator("#game-chart").is_hidden()
    assert "need a seat or recorder token" in page.locator("#chart-note").inner_text()
    page.fill("#token", created["seat_tokens"]["p2"])
    page.click("#as button")
    page.wait_for_function("document.getElementById('viewer').textContent === 'seen as player:p2'")
    page.wait_for_selector("#game-chart:not([hidden])")
    assert _points(page, "#game-canvas") == [2, 2]  # after setup (turn 0), and turn 1 so far
    page.close()


def test_the_replay_keys_step_by_turn_by_player_and_to_bookmarks(
    browser: Any, server: Server, finished: dict[str, str]
) -> None:
    game_id = finished["dominion"]
    turns = httpx.get(f"{server.url}/games/{game_id}/turns").json()["turns"]
    events = httpx.get(f"{server.url}/games/{game_id}/events").json()["events"]
    first_of: dict[int, int] = {}
    for version, (turn, _seat) in enumerate(turns, start=1):
        first_of.setdefault(turn, version)
    page = local_page(browser, server)
    page.goto(f"{server.url}/view/{game_id}")
    page.wait_for_selector("body.ready")
    keys = page.locator("#keys").inner_text()
    for shown in ("next/previous turn", "this player's next move", "bookmark", "next bookmark"):
        assert shown in keys
    assert page.locator("#moves li.turn").count() == len(first_of) - 1  # every turn but setup
    # by turn: forward to each turn's start, back to the one before; by action (the default) a
    # turn starts where the step that starts it ends, the turn's player to act
    assert _press(page, "t") == stop_of(events, first_of[1])
    assert _press(page, "t") == stop_of(events, first_of[2])
    assert _press(page, "t") == stop_of(events, first_of[3])
    assert _press(page, "Shift+T") == stop_of(events, first_of[2])
    # to the next move of the player who made this one: shown with all it caused
    here = _press(page, "]")
    mover = events[here - 1]["text"].split(": ")[0].split(" ", 1)[1]
    there = _press(page, ".")
    moved = heads(events)[there - 1]
    assert there == stop_of(events, moved) and moved > here and events[moved - 1]["type"] == "action"
    assert events[moved - 1]["text"].split(": ")[0].split(" ", 1)[1] == mover
    assert all(
        e["type"] != "action" or e["text"].split(": ")[0].split(" ", 1)[1] != mover
        for e in events[here : moved - 1]
    )
    # bookmarks: mark here, go on, come back with '
    page.keyboard.press("m")
    assert page.locator("#marks").inner_text() == f"marks: {there}"
    assert page.locator(f'#moves li.marked[data-version="{there}"]').count() == 1
    _press(page, "End")
    assert _press(page, "'") == there
    page.close()
