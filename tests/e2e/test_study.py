"""Studies on the replay page (api/static/study.js): branched by a click from a finished game's
position, played by taps on the legal actions word by word, shown in the move list as a side
line under the branch point, stepped into (the board shows the study's position), and still
there after a reload (`/view/{id}?variation={study id}` opens it)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from store.app import Chronicle
from tests.cli.conftest import Cli, Server, serving
from tests.e2e.browsers import DESKTOP, PHONE, browser, local_page, shot
from tests.e2e.steps import heads, stop_of, stops
from tests.e2e.web_checks import assert_accessible, assert_fits, assert_touch_targets
from tests.short_games import finished_game

__all__ = ["browser"]


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(tmp_path_factory.mktemp("study"))


@pytest.fixture(scope="module")
def server(cli: Cli) -> Iterator[Server]:
    with serving(cli) as running:
        yield running


@pytest.fixture(scope="module")
def game(cli: Cli, server: Server) -> dict[str, Any]:
    """A short finished bot game of Dominion (tests/short_games.py) in the served store: its
    id and events."""
    app = Chronicle(cli.store)
    try:
        game_id = str(finished_game(app, "dominion"))
    finally:
        app.close()
    events = httpx.get(f"{server.url}/games/{game_id}/events").json()["events"]
    return {"id": game_id, "events": events}


def _picture(page: Any) -> str:
    return str(page.locator("#picture").inner_html())


def _names(notation: str, name: str) -> bool:
    return re.search(rf"(^|[\s,:]){re.escape(name)}($|[\s,:])", notation, re.IGNORECASE) is not None


def _tap_one_move(page: Any) -> str:
    """Tap the study's choices word by word until an action is played; its notation."""
    moves = page.locator("#moves li.study-move")
    before = moves.count()
    for _ in range(8):
        page.wait_for_selector("#study-choices button:not([disabled])")
        whole = page.locator("#study-choices button.whole")
        if whole.count():
            played = str(whole.first.get_attribute("data-notation"))
            whole.first.click()
            page.wait_for_function(f"document.querySelectorAll('#moves li.study-move').length > {before}")
            page.wait_for_function("document.body.dataset.studyVersion !== undefined")
            return played
        page.locator("#study-choices button.word").first.click()
    raise AssertionError("no action came of eight taps")


def test_a_study_is_branched_played_by_taps_shown_as_a_side_line_and_kept(
    browser: Any, server: Server, game: dict[str, Any]
) -> None:
    events = game["events"]
    actions = [e["version"] for e in events if e["type"] == "action"]
    chosen = actions[len(actions) // 3]
    at = stop_of(events, chosen)
    assert at in stops(events) and heads(events)[at - 1] == chosen
    page = local_page(browser, server, PHONE)
    page.goto(f"{server.url}/view/{game['id']}")
    page.wait_for_selector("body.study-ready")
    assert page.locator("#moves li.study-line").count() == 0
    # branch by clicks: the move in the list, then the branch button (after that move)
    page.locator(f'#moves li[data-version="{chosen}"]').click()
    page.wait_for_function(f"document.body.dataset.version === '{chosen}'")
    assert page.locator("#study-branch").inner_text() == f"Branch a study at v{at}"
    main_picture = httpx.get(f"{server.url}/games/{game['id']}/picture", params={"at": at}).json()
    page.click("#study-branch")
    page.wait_for_function("document.body.dataset.study !== undefined")
    study = page.evaluate("document.body.dataset.study")
    assert page.evaluate("document.body.dataset.studyVersion") == str(at)
    assert page.locator("#headline").inner_text() == main_picture["picture"]["headline"]
    branch_board = _picture(page)
    assert page.evaluate(f"localStorage.getItem('chronicle-study:{study}')")  # the token, kept here
    token = page.evaluate(f"localStorage.getItem('chronicle-study:{study}')")
    assert f"variation={study}" in page.url and token not in page.url  # the id only, never the token
    # a tap on the board narrows the choices to the actions that name what it shows
    legal = httpx.get(
        f"{server.url}/variations/{study}/legal-actions", headers={"authorization": f"Bearer {token}"}
    ).json()["notation"]
    drawn = page.evaluate(
        "[...document.querySelectorAll('#picture svg [data-name]')].map((e) => e.dataset.name)"
    )
    named = next(n for n in drawn if any(_names(t, n) for t in legal))
    page.locator(f'#picture svg [data-name="{named}"]').first.click()
    assert page.locator("#study-building").inner_text() == f"With {named}:"
    offered = page.locator("#study-choices button.whole")
    assert offered.count() and all(
        _names(str(offered.nth(i).get_attribute("data-notation")), named) for i in range(offered.count())
    )
    # two moves by taps
    played = [_tap_one_move(page), _tap_one_move(page)]
    line = page.locator(f'#moves li.study-line[data-variation="{study}"]')
    assert line.get_attribute("data-at") == str(at)
    # under its branch point: the next element of the list after the main move at `at`
    follows = page.evaluate(
        f"document.querySelector('#moves li[data-version=\"{at}\"]').nextElementSibling.dataset.variation"
    )
    assert follows == study
    side = line.locator("li.study-move")
    assert side.count() == 2
    assert [played[i] in side.nth(i).inner_text() for i in range(2)] == [True, True]
    assert "the table:" not in side.nth(0).inner_text()  # played as the seat the position prompts
    colour = page.evaluate("getComputedStyle(document.querySelector('#moves li.study-move')).color")
    main_colour = page.evaluate("getComputedStyle(document.querySelector('#moves li.action')).color")
    assert colour != main_colour
    assert _picture(page) != branch_board  # the board shows the study's latest position
    assert page.locator("li.study-move.study-current").get_attribute("data-line-version") == page.evaluate(
        "document.body.dataset.studyVersion"
    )
    shot(page, "study-played-phone")
    assert_fits(page)
    assert_touch_targets(page)
    assert_accessible(page)
    # step into the side line: its first move's position, then the main line takes the board back
    first = side.nth(0)
    first.click()
    page.wait_for_function(
        f"document.body.dataset.studyVersion === '{first.get_attribute('data-line-version')}'"
    )
    stepped = _picture(page)
    assert stepped != branch_board
    assert "study-current" in (first.get_attribute("class") or "")
    assert page.locator("#event .line").inner_text().startswith("Study: ")
    page.click("#study-back")
    page.wait_for_function(f"document.body.dataset.studyVersion === '{at}'")
    assert _picture(page) == branch_board
    # the address opens the study; after a reload the side line is there again
    assert f"variation={study}" in page.url
    page.reload()
    page.wait_for_selector("body.study-ready")
    assert page.locator(f'#moves li.study-line[data-variation="{study}"] li.study-move').count() == 2
    assert page.evaluate("document.body.dataset.study") == study
    assert page.locator("#study-list button").count() == 1
    assert page.locator("#study-list button").get_attribute("aria-pressed") == "true"
    assert page.locator("#study-play").is_visible()  # this device branched it: it plays on
    page.close()


def _study_by_api(server: Server, game_id: str, at: int) -> None:
    """A study branched at `at` with one move played, as the first test's taps leave one."""
    branched = httpx.post(f"{server.url}/games/{game_id}/variations", json={"at": at})
    assert branched.status_code == 201, branched.text
    study, token = branched.json()["variation_id"], branched.json()["recorder_token"]
    headers = {"authorization": f"Bearer {token}"}
    legal = httpx.get(f"{server.url}/variations/{study}/legal-actions", headers=headers).json()
    played = httpx.post(
        f"{server.url}/variations/{study}/actions", json={"action": legal["notation"][0]}, headers=headers
    )
    assert played.status_code == 201, played.text


def test_another_device_reads_the_studies_on_a_wide_screen(
    browser: Any, server: Server, game: dict[str, Any]
) -> None:
    events = game["events"]
    actions = [e["version"] for e in events if e["type"] == "action"]
    listed = httpx.get(f"{server.url}/games/{game['id']}/variations").json()["variations"]
    if not listed:  # the first test ran on another worker, or not at all: a study played by the API
        _study_by_api(server, game["id"], stop_of(events, actions[len(actions) // 3]))
        listed = httpx.get(f"{server.url}/games/{game['id']}/variations").json()["variations"]
    study = listed[0]["variation_id"]
    # a second study, branched elsewhere (by the API): both are listed, each under its branch point
    other_at = stop_of(events, actions[len(actions) // 2])
    other = httpx.post(f"{server.url}/games/{game['id']}/variations", json={"at": other_at})
    assert other.status_code == 201, other.text
    page = local_page(browser, server, DESKTOP)
    page.goto(f"{server.url}/view/{game['id']}?variation={study}")
    page.wait_for_selector("body.study-ready")
    assert page.evaluate("document.body.dataset.study") == study
    assert page.locator("#study-list button").count() == 2
    lines = page.locator("#moves li.study-line")
    assert [lines.nth(i).get_attribute("data-at") for i in range(2)] == [str(listed[0]["at"]), str(other_at)]
    assert page.locator(f'li.study-line[data-variation="{other.json()["variation_id"]}"]').inner_text() == (
        f"study from v{other_at}: no moves yet"
    )
    assert page.locator("li.study-move").count() == listed[0]["actions"]
    assert page.locator("#study-play").is_hidden()  # no token on this device: read only
    assert "read only" in page.locator("#study-list button").first.inner_text()
    assert page.locator("#study-branch").is_hidden()  # a study's position is not the game's
    board = _picture(page)
    page.click("#next")  # the main line takes the board back
    page.wait_for_function("document.body.dataset.studyVersion === undefined")
    assert _picture(page) != board
    assert page.locator("li.study-current").count() == 0
    assert "variation=" not in page.url  # the address names what is shown: the game's move
    assert page.locator("#study-branch").is_visible()  # the game's move: a study may branch here
    page.locator("li.study-move").last.focus()
    page.keyboard.press("Enter")  # a study move takes the keyboard too
    page.wait_for_function("document.body.dataset.studyVersion !== undefined")
    assert _picture(page) == board
    shot(page, "study-desktop")
    assert_fits(page)
    assert_accessible(page)
    page.close()
