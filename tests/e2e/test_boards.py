"""The game boards in a real browser (api/static/boards.js): a finished game of each ruleset
drawn as SVG at phone and desktop size, counted against the picture the API serves; a seat sees
its own hand's cards and only the backs of another's; what a step changed is marked; nothing
drawn runs out of its drawing; the tables stay one toggle away.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from store.app import Chronicle
from store.simulation import play
from tests.cli.conftest import Cli, Server, serving
from tests.e2e.browsers import DESKTOP, PHONE, browser, local_page, shot
from tests.e2e.web_checks import assert_accessible, assert_fits
from tests.short_games import finished_game, players, ruleset_named

__all__ = ["browser"]  # the fixture, shared by every browser test

RULESETS = ("dominion", "province", "dynasties", "dominations")


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(tmp_path_factory.mktemp("boards"))


@pytest.fixture(scope="module")
def server(cli: Cli) -> Iterator[Server]:
    with serving(cli) as running:
        yield running


@pytest.fixture(scope="module")
def finished(cli: Cli, server: Server) -> dict[str, str]:
    """One short finished bot game of each ruleset (tests/short_games.py), recorded in the
    served store: ruleset -> game id."""
    app = Chronicle(cli.store)
    try:
        games = {ruleset: str(finished_game(app, ruleset)) for ruleset in RULESETS if ruleset != "dynasties"}
        # the shortest Dynasties game ends before any battle: this one fights a few
        fights = play(app, ruleset_named("dynasties"), "short-1", 0, players("dynasties"), {}, 5_000)
        games["dynasties"] = str(fights.game_id)
        return games
    finally:
        app.close()


def _picture(server: Server, game_id: str, version: int, token: str = "") -> dict[str, Any]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    answer = httpx.get(f"{server.url}/games/{game_id}/picture", params={"at": version}, headers=headers)
    assert answer.status_code == 200, answer.text
    picture: dict[str, Any] = answer.json()["picture"]
    return picture


def _open(
    browser: Any, server: Server, game_id: str, viewport: dict[str, int], version: int | None = None
) -> Any:
    page = local_page(browser, server, viewport)
    page.goto(f"{server.url}/view/{game_id}")
    page.wait_for_selector("body.ready")
    _go(page, version)
    return page


def _go(page: Any, version: int | None) -> None:
    """Show `version` (None: the last) and wait until it is drawn."""
    if version is None:
        version = int(page.locator("#of").inner_text().removeprefix("of "))
    if page.evaluate("document.body.dataset.version") != str(version):
        page.fill("#version", str(version))
        page.press("#version", "Enter")
    page.wait_for_function(f"document.body.dataset.version === '{version}'")


# Every drawn part of every board inside its drawing's box (a pixel of rounding allowed).
OVERFLOWS = """() => {
  const out = [];
  for (const drawing of document.querySelectorAll("#picture svg")) {
    const box = drawing.getBoundingClientRect();
    for (const part of drawing.querySelectorAll("g, polygon, text")) {
      const r = part.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const out_x = r.left < box.left - 1 || r.right > box.right + 1;
      const out_y = r.top < box.top - 1 || r.bottom > box.bottom + 1;
      const name = part.dataset.key || part.textContent.slice(0, 20);
      if (out_x || out_y) out.push(`${drawing.dataset.section || "?"} ${part.tagName} ${name}`);
    }
  }
  return out;
}"""


def _sections(picture: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [s for s in picture["sections"] if s["type"] == kind]


def _count(page: Any, selector: str) -> int:
    found: int = page.locator(selector).count()
    return found


def _check_counts(page: Any, ruleset: str, picture: dict[str, Any]) -> None:
    if ruleset == "dominion":
        zones = [z for s in _sections(picture, "cards") for z in s["zones"]]
        assert _count(page, "#picture svg g.card") == sum(len(z["cards"]) for z in zones)
        piles = sum(1 for z in zones if z["pile"] and not z["cards"] and z["size"])
        assert _count(page, "#picture svg g.back") == sum(z["backs"] for z in zones) + piles
        supply = next(z for z in zones if z["key"] == "supply")
        counts = page.locator('figure[data-section="table"] g.zone[data-key="supply"] g.card text.count')
        assert counts.evaluate_all("all => all.map((t) => t.textContent)") == [
            str(c["count"]) for c in supply["cards"]
        ]
    elif ruleset == "province":
        (cycle,) = _sections(picture, "cycle")
        assert _count(page, "#picture svg g.space") == len(cycle["spaces"])
        pieces = sum(p["count"] for s in cycle["spaces"] for p in s["pieces"])
        assert _count(page, "#picture svg .piece") == pieces
        buildings = [c for s in _sections(picture, "cards") for z in s["zones"] for c in z["cards"]]
        assert _count(page, "#picture svg g.card") == len(buildings) > 0
    elif ruleset == "dynasties":
        (drawn,) = _sections(picture, "map")
        assert _count(page, "#picture svg g.province") == len(drawn["nodes"]) == 23
        assert _count(page, "#picture svg line.border") == len(drawn["edges"])
        cities = sum(1 for n in drawn["nodes"] if "city" in n["marks"])
        assert _count(page, "#picture svg rect.city") == cities
    else:
        (board,) = _sections(picture, "board")
        assert _count(page, 'figure[data-section="board"] svg polygon') == len(board["tiles"]) > 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_finished_game_is_drawn_as_its_board_at_phone_and_desktop_size(
    browser: Any, server: Server, finished: dict[str, str], ruleset: str
) -> None:
    game_id = finished[ruleset]
    last = httpx.get(f"{server.url}/games/{game_id}").json()["version"]
    picture = _picture(server, game_id, last)
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = _open(browser, server, game_id, viewport)
        drawings = page.locator("#picture svg[role=img]")
        assert drawings.count() >= 1
        for label in drawings.evaluate_all("all => all.map((d) => d.getAttribute('aria-label'))"):
            assert label and len(label) > 10
        _check_counts(page, ruleset, picture)
        assert page.evaluate(OVERFLOWS) == []
        assert_fits(page)
        # the tables a board replaces are hidden, and one toggle brings them back
        replaced = {r for s in picture["sections"] if s["type"] != "table" for r in s.get("replaces", [])}
        for table in replaced:
            assert not page.locator(f'table[data-section="{table}"]').is_visible()
        if replaced and viewport == PHONE:
            if ruleset == "dominion":  # the most drawn (axe takes seconds a page)
                assert_accessible(page)
            page.click("button.table-view")
            page.wait_for_selector(f'table[data-section="{sorted(replaced)[0]}"]', state="visible")
            assert page.locator("button.table-view").get_attribute("aria-pressed") == "true"
            assert not page.locator("figure.drawn").first.is_visible()
            page.click("button.table-view")
            page.wait_for_selector("figure.drawn svg", state="visible")
        shot(page, f"board-{ruleset}-{name}")
        page.close()


def test_the_dominations_top_row_of_tiles_is_inside_the_drawing(
    browser: Any, server: Server, finished: dict[str, str]
) -> None:
    page = _open(browser, server, finished["dominations"], PHONE)
    box = page.locator('figure[data-section="board"] svg').bounding_box()
    tops = page.locator('figure[data-section="board"] svg polygon').evaluate_all(
        "all => all.map((p) => p.getBoundingClientRect().top)"
    )
    assert box is not None and min(tops) >= box["y"] - 0.5
    page.close()


def _create_dominion(server: Server) -> dict[str, Any]:
    answer = httpx.post(f"{server.url}/games", json={"ruleset": "dominion", "players": ["Ann", "Ben"]})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def _hand(page: Any, seat: str) -> Any:
    return page.locator(f'figure[data-section="seat-{seat}"] g.zone[data-key="hand"]')


def test_a_seat_sees_its_own_hand_as_cards_and_another_seat_s_as_backs(browser: Any, server: Server) -> None:
    created = _create_dominion(server)
    game_id, tokens = created["game_id"], created["seat_tokens"]
    recorder = {"authorization": f"Bearer {created['recorder_token']}"}
    state = httpx.get(f"{server.url}/games/{game_id}/state", headers=recorder).json()["state"]
    ann, ben = state["players"]["p1"]["hand"], state["players"]["p2"]["hand"]
    assert ann and ben
    page = _open(browser, server, game_id, PHONE)
    for seat, hand in (("p1", ann), ("p2", ben)):  # the public: backs only
        assert _hand(page, seat).locator("g.card").count() == 0
        assert _hand(page, seat).locator("g.back").count() == len(hand)
    shot(page, "board-dominion-hands-public")
    page.fill("#token", tokens["p1"])
    page.click("#as button")
    page.wait_for_function("document.getElementById('viewer').textContent === 'seen as player:p1'")
    names = _hand(page, "p1").locator("g.card").evaluate_all("all => all.map((c) => c.dataset.name)")
    assert names == ann
    assert _hand(page, "p1").locator("g.back").count() == 0
    assert _hand(page, "p2").locator("g.card").count() == 0
    assert _hand(page, "p2").locator("g.back").count() == len(ben)
    shot(page, "board-dominion-hands-ann")
    page.close()


def test_what_a_step_changed_is_marked_on_the_board(
    browser: Any, server: Server, finished: dict[str, str]
) -> None:
    drawn_kinds = ("cards", "cycle", "map", "board")
    for ruleset in ("dominion", "dynasties"):
        game_id = finished[ruleset]
        last = httpx.get(f"{server.url}/games/{game_id}").json()["version"]
        versions = list(range(max(2, last - 8), last + 1))
        if ruleset == "dynasties":  # where a battle begins, to see it drawn too
            events = httpx.get(f"{server.url}/games/{game_id}/events").json()["events"]
            versions = [e["version"] for e in events if e["text"].startswith("Battle (")][:2]
        found: list[tuple[bool, int, str, str]] = []  # (no battle on the map, version, section, key)
        for version in versions:
            picture = _picture(server, game_id, version)
            ids = {s["id"] for s in picture["sections"] if s["type"] in drawn_kinds}
            marked = [c for c in picture["changed"] if c.split("/")[0] in ids]
            battle = any("battle" in n["marks"] for s in _sections(picture, "map") for n in s["nodes"])
            if marked:
                found.append((not battle, version, *marked[0].split("/", 1)))
        assert found, f"no step of {ruleset} changed a board"
        calm, version, section, key = min(found)  # a battle in progress first
        page = _open(browser, server, game_id, DESKTOP, version)
        part = page.locator(f'#picture svg[data-section="{section}"] g[data-key="{key}"]')
        assert part.count() == 1
        assert "changed" in (part.get_attribute("class") or "")
        assert page.locator(f'#picture svg[data-section="{section}"] g.changed').count() == sum(
            1 for c in _picture(server, game_id, version)["changed"] if c.startswith(f"{section}/")
        )
        if ruleset == "dynasties":
            assert not calm
            assert page.locator("#picture svg g.province.battle").count() == 1
        shot(page, f"board-{ruleset}-changed")
        page.close()
