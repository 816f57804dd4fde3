"""The New game page (`/new`) in a real browser against a real `chronicle serve`: every installed
ruleset is created through its form, Dominion with a 2nd-edition preset and with ten chosen
cards, and the answer shows one link per seat and one for the recorder, each with its QR code,
whose token opens the game as that seat. The server's access log never holds a token: the
tokens travel in the links' fragments and in Authorization headers only."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.cli.conftest import Cli, Server, serving
from tests.e2e.browsers import DESKTOP, PHONE, browser, local_page, shot

__all__ = ["browser"]  # the fixture, shared by every browser test

TOKENS: list[str] = []  # every token the page was answered, for the access log's check


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(tmp_path_factory.mktemp("new-game"))


@pytest.fixture(scope="module")
def access_log(cli: Cli) -> Path:
    return cli.home / "access.log"


@pytest.fixture(scope="module")
def server(cli: Cli, access_log: Path) -> Iterator[Server]:
    with serving(cli, {"CHRONICLE_ACCESS_LOG": str(access_log)}) as running:
        yield running


def _open(browser: Any, server: Server, viewport: dict[str, int]) -> Any:
    page = local_page(browser, server, viewport)
    page.goto(f"{server.url}/new")
    page.wait_for_function("document.body.dataset.ready === '1'")
    return page


def _choose_ruleset(page: Any, ruleset: str) -> None:
    if page.locator("#ruleset").input_value() != ruleset:
        page.select_option("#ruleset", ruleset)
    page.wait_for_function(f"document.body.dataset.ruleset === '{ruleset}'")


def _name_players(page: Any, names: list[str]) -> None:
    while page.locator("#player-list input").count() < len(names):
        page.click("#add-player")
    for i, name in enumerate(names):
        page.locator("#player-list input").nth(i).fill(name)


def _create(page: Any) -> dict[str, Any]:
    """Press Create; the game's answer as the page was given it (its tokens are kept)."""
    with page.expect_response(lambda r: r.url.endswith("/games") and r.request.method == "POST") as answer:
        page.click("#create")
    created: dict[str, Any] = answer.value.json()
    assert answer.value.status == 201, created
    TOKENS.extend([*created["seat_tokens"].values(), created["recorder_token"]])
    page.wait_for_selector("#created:not([hidden])")
    page.wait_for_function("document.body.dataset.gameId !== undefined")
    return created


def _fits(page: Any, width: int) -> None:
    scroll: int = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways: {scroll} > {width}"


def _touch_targets(page: Any) -> None:
    """Every visible button, text field, select and choice is at least 44 px high."""
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, input, select, summary')]
          .filter(e => e.offsetParent !== null)
          .filter(e => e.getBoundingClientRect().height < 44)
          .map(e => e.id || e.name || e.textContent.trim())"""
    )
    assert small == [], small


def _labelled(page: Any) -> None:
    """Every control has a name a screen reader says: a <label>, an aria-label, or its text."""
    nameless = page.evaluate(
        """() => [...document.querySelectorAll('button, input, select')]
          .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
                       && !(e.tagName === 'BUTTON' && e.textContent.trim()))
          .map(e => e.outerHTML.slice(0, 80))"""
    )
    assert nameless == [], nameless


def _game(server: Server, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    answer = httpx.get(f"{server.url}/games/{game_id}", headers=headers)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def _check_links(page: Any, server: Server, created: dict[str, Any]) -> None:
    """One link per seat and one for the recorder, each with its QR code drawn as SVG, the game
    id in its text and a token in its fragment that opens the game as that seat."""
    game_id = created["game_id"]
    items = page.locator("#link-list li.link-item")
    assert items.count() == len(created["seats"]) + 1
    for seat in created["seats"]:
        item = page.locator(f'#link-list li[data-seat="{seat}"]')
        assert item.locator(".qr svg path").count() == 1
        text = item.locator("a.table-link").inner_text()
        assert text.startswith(f"{server.url}/table/{game_id}#token=")
        token = text.split("#token=", 1)[1]
        seen = httpx.get(f"{server.url}/games/{game_id}/state", headers={"authorization": f"Bearer {token}"})
        assert seen.status_code == 200 and seen.json()["view"] == f"player:{seat}", seen.text
        assert item.locator("button.copy").is_visible()
        assert "key" in item.inner_text()
    recorder = page.locator('#link-list li[data-role="recorder"]')
    assert recorder.locator(".qr svg path").count() == 1
    token = recorder.locator("a.table-link").inner_text().split("#token=", 1)[1]
    assert token == created["recorder_token"]
    assert page.locator("#replay-link").get_attribute("href") == f"/view/{game_id}"


def test_every_ruleset_is_created_through_its_form(browser: Any, server: Server) -> None:
    rulesets = httpx.get(f"{server.url}/rulesets").json()["rulesets"]
    assert {r["id"] for r in rulesets} >= {"dominion", "province", "dynasties", "dominations"}
    page = _open(browser, server, PHONE)
    for ruleset in rulesets:
        if ruleset["id"] == "any":
            continue  # a title and a definition: test_an_any_game_with_a_shipped_definition
        _choose_ruleset(page, ruleset["id"])
        names = [f"Ann {ruleset['id']}", f"Ben {ruleset['id']}", "Cy", "Di"][: ruleset["min_players"]]
        _name_players(page, names)
        assert page.locator("#player-list input").count() == ruleset["min_players"]
        page.check('input[name="mode"][value="physical"]')
        # one variant option changed from its default: the first flag the form lists
        if page.locator("#options").get_attribute("open") is None:
            page.click("#options summary")
        flag = page.locator('#option-list input[type="checkbox"]').first
        option = flag.get_attribute("data-option")
        declared = next(o for o in ruleset["options"] if o["name"] == option)
        flag.set_checked(not declared["default"])
        help_text = page.locator(f'[data-row="{option}"] .help').inner_text()
        assert help_text == declared["description"]
        _fits(page, PHONE["width"])
        _touch_targets(page)
        _labelled(page)
        if ruleset["id"] == "dominion":
            shot(page, "new-game-form-phone")
        created = _create(page)
        game = _game(server, created["game_id"])
        assert game["ruleset"] == ruleset["id"] and game["mode"] == "physical"
        assert list(game["seats"].values()) == names
        assert game["options"][option] is (not declared["default"])
        _check_links(page, server, created)
        _fits(page, PHONE["width"])
        if ruleset["id"] == "province":
            shot(page, "new-game-links-phone")
        page.click("#another")
    page.close()


def test_a_rule_section_in_an_option_s_help_links_to_the_rulebook(browser: Any, server: Server) -> None:
    page = _open(browser, server, DESKTOP)
    _choose_ruleset(page, "dominion")
    link = page.locator('[data-row="four_piles_at_four_players"] .help a')
    assert link.text_content() == "8.1"
    assert link.get_attribute("href") == "/rulebook/dominion#8.1"
    page.close()


def test_a_dominion_game_with_a_2nd_edition_preset(browser: Any, server: Server) -> None:
    page = _open(browser, server, DESKTOP)
    _choose_ruleset(page, "dominion")
    _name_players(page, ["Ann", "Ben", "Cy"])
    page.check('input[name="kingdom-how"][value="preset"]')
    first_edition = page.locator("#preset option").all_inner_texts()
    assert "first game" in first_edition
    page.select_option('[data-option="base_edition"]', "2")
    # a 2nd-edition base game is offered its 2016 rulebook's six, none of the 1st edition's own
    second_edition = ["deck top", "first game", "improvements", "silver and silver", "size distortion"]
    second_edition.append("sleight of hand")
    page.wait_for_function(
        "names => [...document.querySelectorAll('#preset option')].map(o => o.textContent).join() == names",
        arg=",".join(second_edition),
    )
    assert page.locator("#no-presets").is_hidden()
    page.select_option("#preset", "silver_and_silver")
    page.wait_for_selector('#preset-cards li[data-card="Vassal"]')
    assert page.locator("#preset-cards li").count() == 10
    assert page.locator('#preset-cards li[data-card="Woodcutter"]').count() == 0
    shot(page, "new-game-preset-2e-desktop")
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "new-game-preset-2e-phone")
    page.set_viewport_size(DESKTOP)
    page.select_option("#preset", "first_game")  # the 2016 set of that name
    page.wait_for_selector('#preset-cards li[data-card="Merchant"]')
    page.select_option('[data-option="expansions"]', "base,empires")
    page.wait_for_function("() => document.querySelectorAll('#preset option').length == 8")
    assert page.locator("#preset option").all_inner_texts() == sorted(
        ["advanced intro", "basic intro", *second_edition]
    )
    page.select_option("#preset", "basic_intro")
    page.click("#options summary")
    shot(page, "new-game-options-desktop")
    page.click("#options summary")
    cards = page.locator("#preset-cards li")
    assert cards.count() == 12  # ten piles, an Event and a Landmark
    engineer = page.locator('#preset-cards li[data-card="Engineer"]').inner_text()
    assert "4D" in engineer and "Action" in engineer
    shot(page, "new-game-preset-desktop")
    created = _create(page)
    game = _game(server, created["game_id"])
    assert game["ruleset"] == "dominion" and game["mode"] == "digital"
    assert list(game["seats"].values()) == ["Ann", "Ben", "Cy"]
    assert (game["options"]["base_edition"], game["options"]["expansions"]) == (2, "base,empires")
    assert game["options"]["kingdom"] == "basic_intro"
    state = httpx.get(f"{server.url}/games/{created['game_id']}/state").json()["state"]
    presets = _setup(server, base_edition="2", expansions="base,empires")["presets"]
    assert sorted(state["kingdom"]) == sorted(next(p["piles"] for p in presets if p["name"] == "basic_intro"))
    _check_links(page, server, created)
    shot(page, "new-game-links-desktop")
    page.close()


def _setup(server: Server, **options: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.url}/rulesets/dominion/setup", params=options)
    assert answer.status_code == 200, answer.text
    kingdom: dict[str, Any] = answer.json()["choices"]["kingdom"]
    return kingdom


# four of them new in the 2nd edition: a named kingdom may hold any of the 32 base cards
CHOSEN = ["Artisan", "Bandit", "Cellar", "Chapel", "Festival"]
CHOSEN += ["Laboratory", "Market", "Moat", "Sentry", "Witch"]


def test_a_dominion_game_with_ten_chosen_cards(browser: Any, server: Server) -> None:
    page = _open(browser, server, PHONE)
    _choose_ruleset(page, "dominion")
    _name_players(page, ["Ann", "Ben"])
    page.check('input[name="kingdom-how"][value="chosen"]')
    for name in CHOSEN[:9]:
        page.check(f'#pile-list input[value="{name}"]')
    page.click("#create")  # nine piles: refused by the page, nothing is created
    assert "Choose exactly 10 kingdom piles (9 chosen)" in page.locator("#form-error").inner_text()
    page.check(f'#pile-list input[value="{CHOSEN[9]}"]')
    assert page.locator("#chosen-count").inner_text() == "10 of 10 kingdom piles chosen"
    assert page.locator('#pile-list input[value="Village"]').is_disabled()  # an eleventh cannot be ticked
    witch = page.locator('#pile-list li[data-card="Witch"]').inner_text()
    assert "$5" in witch and "Attack" in witch
    _fits(page, PHONE["width"])
    _touch_targets(page)
    _labelled(page)
    shot(page, "new-game-chosen-phone")
    created = _create(page)
    assert page.locator("#created-note").is_hidden()
    game = _game(server, created["game_id"])
    assert game["options"]["kingdom"] == "manual"
    state = httpx.get(f"{server.url}/games/{created['game_id']}/state").json()["state"]
    assert sorted(state["kingdom"]) == CHOSEN and state["kingdom_method"] == "manual"
    _check_links(page, server, created)
    page.close()


def test_a_refused_game_is_explained_next_to_the_form(browser: Any, server: Server) -> None:
    page = _open(browser, server, PHONE)
    _choose_ruleset(page, "dominion")
    _name_players(page, ["Ann", "Ben", "Cy", "Di", "Ed"])  # five without the 5-6 player variant
    with page.expect_response(lambda r: r.url.endswith("/games") and r.request.method == "POST") as answer:
        page.click("#create")
    assert answer.value.status >= 400
    error = page.locator("#form-error")
    error.wait_for()
    assert "The game was not created" in error.inner_text() and "players_5_6" in error.inner_text()
    assert error.locator("a").get_attribute("href") == "/rulebook/dominion#1.3"
    assert page.locator("#created").is_hidden()
    _fits(page, PHONE["width"])
    page.close()


def test_an_any_game_with_a_shipped_definition(browser: Any, server: Server) -> None:
    """A game Chronicle has no engine for: its title and BoardGameGeek id first, a definition
    picked among the shipped examples (each summed up), an own definition that is not JSON
    refused by the page, then the example stored in the game's options."""
    page = _open(browser, server, PHONE)
    _choose_ruleset(page, "any")
    _name_players(page, ["Ann", "Ben"])
    assert page.locator("#about").is_visible() and page.locator("#definition").is_visible()
    page.fill('#about [data-option="title"]', "Yacht")
    page.fill('#about [data-option="bgg_id"]', "2243")
    page.check('input[name="definition-how"][value="own"]')
    page.fill("#definition-text", "{dice: 5}")
    page.click("#create")
    assert "not JSON" in page.locator("#form-error").inner_text()
    page.check('input[name="definition-how"][value="example:five-dice"]')
    assert page.locator("#definition-own").is_hidden()
    summary = page.locator('label:has(input[value="example:five-dice"])').inner_text()
    assert "5 \u00d7 d6" in summary and "highest score wins" in summary
    _fits(page, PHONE["width"])
    _touch_targets(page)
    _labelled(page)
    shot(page, "new-game-any-phone")
    created = _create(page)
    game = _game(server, created["game_id"])
    assert game["ruleset"] == "any" and game["options"]["title"] == "Yacht"
    assert game["options"]["bgg_id"] == 2243
    assert json.loads(game["options"]["definition"])["dice"][0]["count"] == 5
    page.close()


def test_no_token_reaches_the_access_log(server: Server, access_log: Path) -> None:
    assert len(TOKENS) >= 8, "the tests above created games through the page"
    text = access_log.read_text()
    assert '"path": "/new"' in text or '"path":"/new"' in text
    leaked = [token for token in TOKENS if token in text]
    assert leaked == []


def test_a_seat_s_link_opens_its_table_on_another_phone(browser: Any, server: Server) -> None:
    """From the New game page to the table: the link made for a seat, opened on another device,
    makes that device the seat, with the token gone from the address and kept on the device."""
    page = _open(browser, server, PHONE)
    _choose_ruleset(page, "province")
    _name_players(page, ["Ann", "Ben"])
    created = _create(page)
    link = page.locator('#link-list li[data-seat="B"] a.table-link').inner_text()
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    table = local_page(browser, server, PHONE, phone)
    table.goto(link)
    table.wait_for_selector("body.ready")
    assert table.locator("#who").inner_text() == "Ben (B)"
    assert table.evaluate("document.body.dataset.role") == "seat"
    assert "#" not in table.url and created["seat_tokens"]["B"] not in table.url
    stored = table.evaluate(f"localStorage.getItem('chronicle-table:{created['game_id']}')")
    assert stored == created["seat_tokens"]["B"]
    table.reload()  # the device keeps the seat without the link
    table.wait_for_selector("body.ready")
    assert table.locator("#who").inner_text() == "Ben (B)"
    phone.close()
    page.close()
