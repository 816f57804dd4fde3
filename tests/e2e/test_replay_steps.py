"""The web replay steps by action: → shows the position after an action and everything it
caused (the facts and bookkeeping go by at once, and unfold on request), the "every event"
toggle (or `e`) steps by event, a turn timeline scrubs to a turn's start, the address carries
the version shown (`/view/{id}?at=N`, so a link opens there), and `g` replaces the version."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import httpx
import pytest

from tests.cli.conftest import Cli, Server, serving
from tests.e2e.browsers import PHONE, browser, local_page, shot
from tests.e2e.steps import heads, stop_of, stops
from tests.e2e.web_checks import assert_fits, assert_touch_targets

__all__ = ["browser"]


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(tmp_path_factory.mktemp("steps"))


@pytest.fixture(scope="module")
def server(cli: Cli) -> Iterator[Server]:
    with serving(cli) as running:
        yield running


@pytest.fixture(scope="module")
def game(cli: Cli, server: Server) -> dict[str, Any]:
    """A finished bot game of Dominion: its id, events and turns."""
    cli.ok("simulate", "dominion", "--games", "1", "--seed", "5")
    listed = httpx.get(f"{server.url}/games", params={"ruleset": "dominion", "status": "finished"}).json()
    game_id = listed["games"][0]["game_id"]
    events = httpx.get(f"{server.url}/games/{game_id}/events").json()["events"]
    turns = httpx.get(f"{server.url}/games/{game_id}/turns").json()["turns"]
    return {"id": game_id, "events": events, "turns": turns}


def _version(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def _step(page: Any, do: Any) -> int:
    """Do something that steps (a key, a click) and wait for the version it shows."""
    before = page.evaluate("document.body.dataset.version")
    do()
    page.wait_for_function(f"document.body.dataset.version !== '{before}'")
    return _version(page)


def _open(browser: Any, server: Server, path: str, viewport: dict[str, int] | None = None) -> Any:
    page = local_page(browser, server, viewport)
    page.goto(f"{server.url}{path}")
    page.wait_for_selector("body.ready")
    return page


def test_the_arrow_steps_from_action_to_action_and_the_toggle_by_event(
    browser: Any, server: Server, game: dict[str, Any]
) -> None:
    events = game["events"]
    ends, begun = stops(events), heads(events)
    assert len(ends) * 3 < len(events)  # most versions are facts an action caused
    page = _open(browser, server, f"/view/{game['id']}")
    assert _version(page) == 1
    # → : from the end of one step to the end of the next, its action's line shown
    shown = [_step(page, lambda: page.keyboard.press("ArrowRight")) for _ in range(4)]
    assert shown == ends[:4]
    assert all(b - a > 1 for a, b in pairwise(shown))  # versions skip the facts
    head = begun[shown[-1] - 1]
    assert page.locator("#event .line").inner_text() == events[head - 1]["text"]
    assert events[head - 1]["type"] == "action"
    # the facts it caused unfold under it, in the event box and in the move list
    caused = page.locator("#event details.caused")
    assert caused.locator("li").count() == shown[-1] - head
    caused.locator("summary").click()
    assert caused.locator("li").last.inner_text() == events[shown[-1] - 1]["text"]
    assert "current" in (page.locator(f'#moves li[data-version="{head}"]').get_attribute("class") or "")
    assert page.locator(f'#moves li[data-version="{head + 1}"]').is_visible()
    assert page.locator(f'#moves li[data-step="{begun[ends[5] - 1]}"].caused').first.is_hidden()
    shot(page, "steps-by-action")
    # the next button and ← do the same
    assert _step(page, lambda: page.click("#next")) == ends[4]
    assert _step(page, lambda: page.keyboard.press("ArrowLeft")) == ends[3]
    # every event: one version a step, the facts listed in the moves
    page.click("label:has(#every-event)")
    assert page.locator("#every-event").is_checked()
    assert _step(page, lambda: page.keyboard.press("ArrowRight")) == ends[3] + 1
    assert page.locator("#event .line").inner_text() == events[ends[3]]["text"]
    assert _step(page, lambda: page.click("#next")) == ends[3] + 2
    assert page.locator(f'#moves li[data-step="{begun[ends[5] - 1]}"].caused').first.is_visible()
    # e: by action again, on to the end of this step
    page.keyboard.press("e")
    assert not page.locator("#every-event").is_checked()
    assert _step(page, lambda: page.keyboard.press("ArrowRight")) == ends[4]
    page.locator("#event details.caused summary").click()
    shot(page, "steps-desktop")
    assert_fits(page)
    assert_touch_targets(page)
    page.close()


def test_the_timeline_jumps_to_a_turn_and_the_address_carries_the_version(
    browser: Any, server: Server, game: dict[str, Any]
) -> None:
    events, turns = game["events"], game["turns"]
    first_of: dict[int, int] = {}
    for version, (turn, _seat) in enumerate(turns, start=1):
        first_of.setdefault(turn, version)
    page = _open(browser, server, f"/view/{game['id']}")
    timeline = page.locator("#turn-range")
    assert timeline.get_attribute("max") == str(max(first_of))
    box = timeline.bounding_box()
    assert box is not None and box["height"] >= 44
    # to turn 5: where the step that starts it ends, the turn's player to act
    landed = _step(page, lambda: timeline.fill("5"))
    assert landed == stop_of(events, first_of[5])
    assert turns[landed - 1][0] == 5
    assert page.locator("#turn-label").inner_text() == f"Turn 5 of {max(first_of)}"
    # the address names the version shown, as the reader steps
    assert page.url.endswith(f"?at={landed}")
    after = _step(page, lambda: page.keyboard.press("ArrowRight"))
    assert page.url.endswith(f"?at={after}")
    assert timeline.input_value() == str(turns[after - 1][0])
    # copy link: the link to this version
    page.click("#copy-link")  # in the row on a wide screen (under ☰ on a phone)
    page.wait_for_function("document.getElementById('event').textContent.includes('link')")
    assert f"/view/{game['id']}?at={after}" in page.locator("#event").inner_text()
    page.close()
    # a link with a version opens there (here on a phone, where the controls must fit too)
    middle = len(events) // 2
    page = _open(browser, server, f"/view/{game['id']}?at={middle}", PHONE)
    assert _version(page) == middle
    assert page.locator("#version").input_value() == str(middle)
    assert page.locator("#turn-label").inner_text() == f"Turn {turns[middle - 1][0]} of {max(first_of)}"
    _step(page, lambda: page.click("#next"))
    page.locator("#event details.caused summary").click()
    shot(page, "steps-phone")
    assert_fits(page)
    assert_touch_targets(page)
    page.close()


def test_g_then_a_number_goes_to_that_version(browser: Any, server: Server, game: dict[str, Any]) -> None:
    page = _open(browser, server, f"/view/{game['id']}?at=55")
    assert _version(page) == 55
    page.keyboard.press("g")
    assert page.evaluate("document.activeElement.id") == "version"
    assert _step(page, lambda: (page.keyboard.type("100"), page.keyboard.press("Enter"))) == 100
    assert page.locator("#version").input_value() == "100"
    page.close()
