"""Every page of the app, at phone and desktop size, in a real browser: it fits the screen
without sideways scrolling, its controls are big enough for a finger, axe-core finds nothing
serious, and a screenshot of it is kept (CHRONICLE_SCREENSHOTS). A replay opens with its board
in view on a phone; a rulebook link to a section lands on that section.

To check a new page, add a row to PAGES: its name, its path (from the games this module
records) and what to wait for before looking.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from tests.cli.conftest import Cli, Server, serving
from tests.e2e.browsers import DESKTOP, PHONE, browser, local_page, shot
from tests.e2e.web_checks import (
    assert_accessible,
    assert_fits,
    assert_focus_visible,
    assert_headings_in_order,
    assert_touch_targets,
)

__all__ = ["browser"]  # the fixture, shared by every browser test


@dataclass(frozen=True)
class Page:
    name: str
    path: Callable[[dict[str, str]], str]  # games (what `games` recorded) -> the page's path
    ready: str  # a selector that matches once the page has drawn what it reads


PAGES = [
    Page("games", lambda g: "/", "#games tbody tr"),
    Page("replay", lambda g: f"/view/{g['dominion']}", "body.ready"),
    Page("replay-board", lambda g: f"/view/{g['dominations']}", "body.ready"),
    Page("statistics", lambda g: "/statistics", "body.ready"),
    Page("rulebook", lambda g: "/rulebook/dominion", "body.ready"),
    Page("rulebooks", lambda g: "/rulebook", "body.ready"),
    Page("schema", lambda g: "/schema", "h2"),
    Page("new-game", lambda g: "/new", "body[data-ready]"),
    Page("table-watching", lambda g: f"/table/{g['dominations']}", "body.ready"),
    Page("table-recorder", lambda g: f"/table/{g['province']}#token={g['province-recorder']}", "body.ready"),
    Page("table-seat", lambda g: f"/table/{g['dominations']}#token={g['dominations-seat']}", "body.ready"),
    Page("player", lambda g: "/player/Bot%20p1", "body.ready"),
]
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def _open(browser: Any, server: Server, size: str) -> Any:
    """A page at `size`; a phone is a phone, as Chromium emulates one: touch, no hover, and a
    page without a viewport meta laid out 980 px wide and shrunk (as a real phone does)."""
    if size == "desktop":
        return local_page(browser, server, DESKTOP)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    return local_page(browser, server, PHONE, context)


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(tmp_path_factory.mktemp("fit"))


@pytest.fixture(scope="module")
def server(cli: Cli) -> Iterator[Server]:
    with serving(cli) as running:
        yield running


@pytest.fixture(scope="module")
def games(cli: Cli, server: Server) -> dict[str, str]:
    """A finished bot game of Dominion (counted by the statistics), a Dominations game just set
    up (its tile board) and a physical Province game: ruleset -> game id, and the tokens the
    table pages open with."""
    cli.ok("simulate", "dominion", "--games", "1", "--seed", "3")
    listed = httpx.get(f"{server.url}/games", params={"ruleset": "dominion", "status": "finished"}).json()
    found = {"dominion": listed["games"][0]["game_id"]}
    created = httpx.post(f"{server.url}/games", json={"ruleset": "dominations", "players": ["Ann", "Ben"]})
    assert created.status_code == 201, created.text
    found["dominations"] = created.json()["game_id"]
    found["dominations-seat"] = created.json()["seat_tokens"]["p1"]
    physical = {"ruleset": "province", "players": ["Ann", "Ben"], "mode": "physical"}
    created = httpx.post(f"{server.url}/games", json=physical)
    assert created.status_code == 201, created.text
    found["province"] = created.json()["game_id"]
    found["province-recorder"] = created.json()["recorder_token"]
    counted = httpx.get(
        f"{server.url}/stats/figures", params={"game": found["dominion"], "wait": 20}, timeout=30
    )
    assert counted.json()["caught_up"], counted.text
    return found


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("shown", PAGES, ids=[p.name for p in PAGES])
def test_every_page_fits_is_touchable_and_accessible(
    browser: Any, server: Server, games: dict[str, str], shown: Page, size: str
) -> None:
    page = _open(browser, server, size)
    page.goto(server.url + shown.path(games))
    page.wait_for_selector(shown.ready)
    shot(page, f"fit-{shown.name}-{size}")
    assert_fits(page)
    assert_touch_targets(page)
    assert_accessible(page)
    assert_headings_in_order(page)
    assert page.locator('meta[name="referrer"][content="no-referrer"]').count() == 1
    assert "width=device-width" in (page.locator('meta[name="viewport"]').get_attribute("content") or "")
    assert page.locator("main").count() == 1
    assert_focus_visible(page)
    page.context.close()


def test_a_replay_opens_on_a_phone_with_its_board_in_view(
    browser: Any, server: Server, games: dict[str, str]
) -> None:
    page = _open(browser, server, "phone")
    page.goto(f"{server.url}/view/{games['dominion']}")
    page.wait_for_selector("body.ready")
    assert page.evaluate("window.scrollY") == 0
    # the step buttons a thumb uses most, and the start of the picture, above the fold
    for button in ("#back", "#next"):
        box = page.locator(button).bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"], button
    top = page.locator("#headline").bounding_box()
    assert top is not None and top["y"] < PHONE["height"] / 2, f"the board starts at {top}"
    assert page.locator("#keys").is_hidden()  # key help is for a keyboard, not a phone
    # the rarer controls wait in a menu, one tap away
    assert page.locator("#samePlayer").is_hidden()
    page.locator("#more-toggle").click()
    assert page.locator("#samePlayer").is_visible()
    before = page.evaluate("document.body.dataset.version")
    page.locator("#next").click()
    page.wait_for_function(f"document.body.dataset.version !== '{before}'")
    assert page.evaluate("window.scrollY") == 0  # stepping keeps the board where it is
    shot(page, "fit-replay-phone-menu")
    page.context.close()


def test_a_rulebook_link_lands_on_its_section(browser: Any, server: Server) -> None:
    page = _open(browser, server, "phone")
    page.goto(f"{server.url}/rulebook/dominion#8.1")
    page.wait_for_selector("body.ready")
    section = page.locator('[id="8.1"]')
    assert "Empty piles at four players" in section.locator("h3").first.inner_text()
    box = section.bounding_box()
    assert box is not None and 0 <= box["y"] < 80, f"section 8.1 is at {box}"
    # the contents list names every section and links to it
    sections = httpx.get(f"{server.url}/rules/dominion").json()["sections"]
    assert page.locator("nav.contents a").count() == len(sections)
    assert page.locator('nav.contents a[href="#8.1"]').count() == 1
    # text is text: markdown's marks are drawn, nothing of the reference becomes markup
    assert page.locator("article script, article iframe").count() == 0
    shot(page, "fit-rulebook-section-phone")
    page.goto(f"{server.url}/rulebook/corrections#2b")
    page.wait_for_selector("body.ready")
    assert page.locator('[id="2b"] h3').inner_text().startswith("2b")
    page.context.close()


MARKDOWN = """# Title
Intro with `code <b>`, **strong**, *emphasis*, a [link](/rulebook) and a [trap](javascript:alert(1)).
<script>window.pwned = true</script>

## 7 Tables and lists

| card | cost |
| --- | ---: |
| Gold | 6 |

- one
  - one and a half
- two
1. first

### 7.1 Code

```
<img src=x onerror="window.pwned = true">
```
"""


def test_the_rulebook_draws_markdown_as_text_never_as_markup(browser: Any, server: Server) -> None:
    page = _open(browser, server, "phone")
    page.goto(f"{server.url}/rulebook/records")
    page.wait_for_selector("body.ready")
    drawn = page.evaluate(
        """text => { const box = document.createElement("article"); document.body.append(box);
        const found = Rulebook.render(text, box); return [found, box.outerHTML]; }""",
        MARKDOWN,
    )
    found, markup = drawn
    assert found["title"] == "Title"
    assert [c["id"] for c in found["contents"]] == ["7", "7.1"]
    assert "<code>code &lt;b&gt;</code>" in markup
    assert "<strong>strong</strong>" in markup and "<em>emphasis</em>" in markup
    assert '<a href="/rulebook">link</a>' in markup and "javascript" not in markup
    assert "<script>" not in markup and "&lt;script&gt;" in markup
    assert "<img" not in markup and "&lt;img" in markup
    assert '<section id="7" class="rule level2">' in markup and '<section id="7.1"' in markup
    assert '<th scope="col">card</th>' in markup and "<td>Gold</td>" in markup
    assert "<li>one<ul><li>one and a half</li></ul></li>" in markup
    assert page.evaluate("window.pwned === undefined")
    page.context.close()


def test_an_unknown_rulebook_is_a_404_page(browser: Any, server: Server) -> None:
    answer = httpx.get(f"{server.url}/rulebook/chess")
    assert answer.status_code == 404
    assert "text/html" in answer.headers["content-type"]
    page = _open(browser, server, "phone")
    page.goto(f"{server.url}/rulebook/chess")
    assert "chess" in page.locator("main").inner_text()
    assert page.locator('main a[href="/rulebook"]').count() == 1
    assert_fits(page)
    shot(page, "fit-rulebook-missing-phone")
    page.context.close()
