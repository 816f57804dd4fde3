"""Annotating on the replay page (api/static/annotate.js) in a real browser: a seat taps a card
and another element of the drawn board and adds an arrow with a comment; once the game has ended
another browser (the public, on a phone) finds the arrow drawn between those elements at that
version and the comment under its move; the author edits and deletes its own, and another's
annotation offers no edit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.cli.conftest import Cli, Server, serving
from tests.e2e.browsers import DESKTOP, PHONE, browser, local_page, shot
from tests.e2e.web_checks import assert_accessible, assert_fits, assert_touch_targets

__all__ = ["browser"]  # the fixture, shared by every browser test


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(tmp_path_factory.mktemp("annotate"))


@pytest.fixture(scope="module")
def server(cli: Cli) -> Iterator[Server]:
    with serving(cli) as running:
        yield running


def _post(server: Server, path: str, body: dict[str, Any], token: str) -> Any:
    answer = httpx.post(
        f"{server.url}{path}", json=body, headers={"authorization": f"Bearer {token}"}, timeout=30
    )
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def _open(page: Any, server: Server, game_id: str, version: int, token: str = "") -> None:
    page.goto(f"{server.url}/view/{game_id}?at={version}")
    page.wait_for_function(f"document.body.dataset.annotated === '{version}'")
    if token:
        page.evaluate("document.body.dataset.annotated = ''")
        page.fill("#token", token)
        page.click("#as button[type=submit]")
        page.locator("#annotate").wait_for()
        page.wait_for_function(f"document.body.dataset.annotated === '{version}'")


def _centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _arrow_joins(page: Any, tail: str, head: str) -> None:
    """The drawn arrow starts at `tail`'s centre and ends at the edge of `head`."""
    line = page.locator("svg.annotation-layer line.arrow").first
    ends = line.evaluate(
        """l => { const m = l.getScreenCTM();
        return [l.x1.baseVal.value * m.a + m.e, l.y1.baseVal.value * m.d + m.f,
                l.x2.baseVal.value * m.a + m.e, l.y2.baseVal.value * m.d + m.f]; }"""
    )
    x, y = _centre(page, tail)
    assert abs(ends[0] - x) < 2 and abs(ends[1] - y) < 2, (ends, x, y)
    box = page.locator(head).first.bounding_box()
    assert box["x"] - 8 <= ends[2] <= box["x"] + box["width"] + 8, (ends, box)
    assert box["y"] - 8 <= ends[3] <= box["y"] + box["height"] + 8, (ends, box)


def _checked(page: Any) -> None:
    assert_fits(page)
    assert_touch_targets(page)
    assert_accessible(page)


def test_a_seat_draws_an_arrow_with_a_comment_that_everyone_sees_once_the_game_has_ended(
    browser: Any, server: Server
) -> None:
    created = httpx.post(
        f"{server.url}/games", json={"ruleset": "dominion", "players": ["Ann", "Ben"]}, timeout=30
    ).json()
    game_id, recorder = created["game_id"], created["recorder_token"]
    seat, token = next(iter(created["seat_tokens"].items()))
    version = httpx.get(f"{server.url}/games/{game_id}").json()["version"]
    coach = _post(server, f"/games/{game_id}/review-tokens", {"name": "Coach"}, recorder)["review_token"]
    _post(server, f"/games/{game_id}/annotations", {"at": version, "text": "coach's word"}, coach)

    writer = browser.new_context(viewport=DESKTOP)
    page = local_page(browser, server, DESKTOP, writer)
    _open(page, server, game_id, version, token)
    # while the game runs the seat sees its own side only: not the coach's word
    assert "coach's word" not in page.locator("#moves").inner_text()
    page.locator('#picture g.card[data-name="Province"]').first.click()
    page.locator('#picture g.card[data-name="Gold"]').first.click()
    assert page.locator("#annotate-on").inner_text() == "on card:Province → card:Gold"
    page.fill("#annotate-text", "Gold before Province")
    page.select_option("#annotate-highlight", "blue")
    page.click("#annotate-save")
    page.locator("svg.annotation-layer line.arrow").wait_for(state="attached")
    _arrow_joins(page, '#picture g.card[data-name="Province"]', '#picture g.card[data-name="Gold"]')
    assert page.locator("svg.annotation-layer rect.highlight").count() == 1
    mine = page.locator("#moves .note.annotation", has_text="Gold before Province")
    assert mine.count() == 1 and mine.locator("button.edit").count() == 1
    _checked(page)
    shot(page, "annotate-desktop-writing")
    # on a phone the board reflows: the arrow follows its elements
    page.set_viewport_size(PHONE)
    page.wait_for_function("document.documentElement.clientWidth === 390")
    page.wait_for_timeout(200)
    _arrow_joins(page, '#picture g.card[data-name="Province"]', '#picture g.card[data-name="Gold"]')
    _checked(page)
    shot(page, "annotate-phone-writing")

    _post(server, f"/games/{game_id}/resign", {"reason": "annotating"}, token)

    # another browser, the public on a phone: the arrow on the board at that version, the
    # comment under its move, and nothing to edit
    reader = browser.new_context(viewport=PHONE)
    public = local_page(browser, server, PHONE, reader)
    _open(public, server, game_id, version)
    public.locator("svg.annotation-layer line.arrow").wait_for(state="attached")
    arrow = public.locator("svg.annotation-layer line.arrow")
    assert (arrow.get_attribute("data-from"), arrow.get_attribute("data-to")) == (
        "card:Province",
        "card:Gold",
    )
    _arrow_joins(public, '#picture g.card[data-name="Province"]', '#picture g.card[data-name="Gold"]')
    notes = public.locator("#moves .note.annotation")
    assert {n.strip() for n in notes.all_inner_texts()} == {
        f"[card:Province → card:Gold] (blue) Gold before Province ({created['seats'][seat]})",
        "coach's word (Coach, reviewer)",
    }
    assert public.locator("#moves button.edit, #moves button.delete").count() == 0
    assert public.locator("#annotate").is_hidden()
    _checked(public)
    shot(public, "annotate-phone-public")
    # elsewhere in the game the arrow is not drawn
    public.fill("#version", "1")
    public.press("#version", "Enter")
    public.wait_for_function("document.body.dataset.annotated === '1'")
    assert public.locator("svg.annotation-layer line.arrow").count() == 0

    # the seat, after the end: the coach's word is shown now, with no edit; its own edits
    page.reload()
    page.wait_for_function(f"document.body.dataset.annotated === '{version}'")
    theirs = page.locator("#moves .note.annotation", has_text="coach's word")
    assert theirs.count() == 1 and theirs.locator("button").count() == 0
    mine = page.locator("#moves .note.annotation", has_text="Gold before Province")
    mine.locator("button.edit").click()
    assert page.locator("#annotate-text").input_value() == "Gold before Province"
    page.fill("#annotate-text", "Gold first, then Province")
    page.click("#annotate-save")
    edited = page.locator("#moves .note.annotation", has_text="Gold first, then Province")
    edited.wait_for()
    assert edited.locator(".words").inner_text().endswith(", edited)")
    assert page.locator("svg.annotation-layer line.arrow").count() == 1
    shot(page, "annotate-desktop-edited")
    page.locator("#moves .note.annotation", has_text="Gold first").locator("button.delete").click()
    page.wait_for_function("document.body.dataset.annotations === '1'")
    assert page.locator("svg.annotation-layer line.arrow").count() == 0
    public.reload()
    public.wait_for_function("document.body.dataset.annotated === '1'")
    assert public.locator("#moves .note.annotation").all_inner_texts() == ["coach's word (Coach, reviewer)"]
    writer.close()
    reader.close()
