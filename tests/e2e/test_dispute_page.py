"""Disputes from the replay page, in a real browser against a real `chronicle serve`: on a
finished game a range is chosen by tapping its first and last move, a claim stated, and the
dispute opened; its own page (`/dispute/{id}`) shows the verdict with each finding's rule
linked to that section of the rulebook, takes a ruling that every reader then sees, and hands
over the evidence bundle as a file, which `chronicle verify` accepts. The replay page lists
the game's disputes."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.cli.conftest import COMMAND, Cli, Server, serving
from tests.e2e.browsers import DESKTOP, PHONE, browser, local_page, shot
from tests.e2e.web_checks import assert_accessible, assert_fits, assert_touch_targets

__all__ = ["browser"]  # the fixture, shared by every browser test

ADMIN = "dispute-page-administrator"


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(tmp_path_factory.mktemp("disputes"))


@pytest.fixture(scope="module")
def server(cli: Cli) -> Iterator[Server]:
    with serving(cli, {"CHRONICLE_ADMIN_TOKEN": ADMIN}) as running:
        yield running


@pytest.fixture(scope="module")
def game(cli: Cli, server: Server) -> str:
    """A finished Dynasties bot game's id."""
    cli.ok("simulate", "dynasties", "--games", "1", "--seed", "5")
    listed = httpx.get(f"{server.url}/games", params={"ruleset": "dynasties", "status": "finished"}).json()
    game_id: str = listed["games"][0]["game_id"]
    return game_id


def _view_as(page: Any, token: str) -> None:
    page.fill("#token", token)
    page.click("#as button[type=submit]")
    page.wait_for_function(f"sessionStorage.getItem('chronicle-token') === {token!r}")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_range_chosen_in_the_moves_is_disputed_ruled_on_and_its_bundle_verifies(
    browser: Any, server: Server, game: str, viewport: dict[str, int], tmp_path: Path
) -> None:
    size = "phone" if viewport == PHONE else "desktop"
    page = local_page(browser, server, viewport)
    page.goto(f"{server.url}/view/{game}")
    page.wait_for_selector("body.ready")
    assert page.locator("#disputes").is_visible()

    # the public may not open one: the API's refusal is shown
    page.click("#dispute-new summary")
    actions = page.locator("#moves li.action")
    assert actions.count() >= 3
    first = int(actions.nth(1).get_attribute("data-version") or 0)
    last = int(actions.nth(3).get_attribute("data-version") or 0)
    page.fill("#dispute-from", str(first))
    page.fill("#dispute-to", str(last))
    page.fill("#dispute-claim", "the public says so")
    page.click("#dispute-open")
    page.wait_for_selector("#dispute-problem:not([hidden])")
    assert "token" in page.locator("#dispute-problem").inner_text()

    # the administrator's token in "View as"; the range by two taps, the later one first
    _view_as(page, ADMIN)
    page.wait_for_selector("#moves li.action")
    page.fill("#dispute-from", "")
    page.fill("#dispute-to", "")
    page.click("#dispute-pick")
    assert page.locator("#dispute-pick").get_attribute("aria-pressed") == "true"
    page.locator(f'#moves li[data-version="{last}"]').click()
    page.locator(f'#moves li[data-version="{first}"]').click()
    assert page.locator("#dispute-pick").get_attribute("aria-pressed") == "false"
    assert page.input_value("#dispute-from") == str(first)
    assert page.input_value("#dispute-to") == str(last)
    in_range = page.locator("#moves li.in-range")
    assert in_range.count() == last - first + 1
    claim = f"The {size} says the moves {first} to {last} broke the rules"
    page.fill("#dispute-claim", claim)
    assert_fits(page)
    assert_touch_targets(page)
    if viewport == PHONE:  # axe over a long move list is slow: once is enough for the panel
        assert_accessible(page)
    shot(page, f"dispute-replay-{size}")
    page.click("#dispute-open")

    # the dispute's own page: the verdict, each finding's rule a link into the rulebook
    page.wait_for_url(re.compile(r"/dispute/[0-9a-f-]{36}$"))
    page.wait_for_selector("body.ready")
    dispute_id = page.url.rsplit("/", 1)[1]
    assert page.locator("#claim").inner_text() == claim
    assert page.locator("#verdict").get_attribute("data-holds") == "true"
    assert "Holds" in page.locator("#verdict").inner_text()
    findings = page.locator("#findings li.finding")
    assert findings.count() >= 3
    assert int(findings.first.get_attribute("data-version") or 0) >= first
    rules = page.locator("#findings a.rule")
    assert rules.count() == findings.count()
    href = rules.first.get_attribute("href") or ""
    assert re.fullmatch(r"/rulebook/[a-z0-9-]+(#.+)?", href), href

    # a ruling, recorded with the administrator's token and shown
    assert page.locator("#rulings-none").is_visible()
    page.fill("#ruling", "The moves stand.")
    page.click("#rule")
    page.wait_for_selector("#rulings li.ruling")
    assert "The moves stand." in page.locator("#rulings").inner_text()
    assert "admin" in page.locator("#rulings").inner_text()

    # the bundle, downloaded through the page, verifies offline
    with page.expect_download() as downloading:
        page.click("#bundle")
    download = downloading.value
    assert download.suggested_filename == f"dispute-{dispute_id[:8]}-bundle.json"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    verified = subprocess.run(
        [*COMMAND, "verify", str(saved)], capture_output=True, text=True, timeout=60, check=False
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "verified: the bundle holds" in verified.stdout

    assert_fits(page)
    assert_touch_targets(page)
    assert_accessible(page)
    shot(page, f"dispute-page-{size}")

    # the rule's link lands on its section of the rulebook
    section = href.partition("#")[2]
    page.click("#findings a.rule >> nth=0")
    page.wait_for_selector("body.ready")
    assert page.url.endswith(href)
    assert page.locator("body").get_attribute("data-missing") == ""  # a reference there is
    if section:
        assert page.evaluate("(id) => document.getElementById(decodeURIComponent(id)) !== null", section)

    # another reader, with no token: the replay page lists the dispute with its ruling, and its
    # page shows the ruling and refuses this reader's own
    public = local_page(browser, server, viewport)
    public.goto(f"{server.url}/view/{game}")
    public.wait_for_selector("body.ready")
    listed = public.locator(f'#dispute-list li[data-dispute="{dispute_id}"]')
    listed.wait_for()
    assert claim in listed.inner_text() and "The moves stand." in listed.inner_text()
    listed.locator("a").click()
    public.wait_for_selector("body.ready")
    assert "The moves stand." in public.locator("#rulings").inner_text()
    assert public.evaluate("sessionStorage.getItem('chronicle-token')") is None  # no token held
    public.fill("#ruling", "overruled")
    public.click("#rule")
    public.wait_for_selector("#rule-problem:not([hidden])")
    assert public.locator("#rulings li.ruling").count() == 1
    public.close()
    page.close()
