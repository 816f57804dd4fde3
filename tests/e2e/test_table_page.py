"""The table page in a real browser: phones record a game by touch against a real
`chronicle serve`, and what they record is checked against the API.

Each ruleset's physical game is recorded by the recorder's phone with taps alone, through
setup into real turns, with an undo and a resignation; a digital Dominion game is played on
two phones that see each other's moves live and never each other's hand; an action tapped
while the phone is offline waits on the device and is stored exactly once when it comes back.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from domain.templates import fill, ranges
from tests.cli.conftest import Cli, Server, serving
from tests.e2e.browsers import DESKTOP, PHONE, browser, local_page, shot

__all__ = ["browser"]  # the fixture, shared by every browser test

RULESETS = ("province", "dominion", "dynasties", "dominations")


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(tmp_path_factory.mktemp("table"))


@pytest.fixture(scope="module")
def server(cli: Cli) -> Iterator[Server]:
    with serving(cli) as running:
        yield running


def _create(server: Server, ruleset: str, mode: str) -> dict[str, Any]:
    answer = httpx.post(
        f"{server.url}/games", json={"ruleset": ruleset, "players": ["Ann", "Ben"], "mode": mode}, timeout=30
    )
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def _get(server: Server, path: str, token: str | None = None) -> Any:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    answer = httpx.get(f"{server.url}{path}", headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _open(browser: Any, server: Server, game_id: str, token: str, viewport: dict[str, int] = PHONE) -> Any:
    context = browser.new_context()
    page = local_page(browser, server, viewport, context)
    page.goto(f"{server.url}/table/{game_id}#token={token}")
    page.wait_for_selector("body.ready")
    return page


def _settled(page: Any, server: Server, game_id: str) -> int:
    """Wait until nothing waits to be sent and the page shows the game's latest version."""
    page.wait_for_function("document.body.dataset.pending === '0'")
    version: int = _get(server, f"/games/{game_id}")["version"]
    page.wait_for_function(f"Number(document.body.dataset.version) >= {version}")
    return version


def _actions(server: Server, game_id: str, token: str) -> list[dict[str, Any]]:
    return [e for e in _get(server, f"/games/{game_id}/events", token)["events"] if e["type"] == "action"]


def _tap(page: Any, notation: str) -> None:
    """Record `notation` by tapping: a whole action when it is offered, else word by word."""
    words = notation.split()
    for _ in range(len(words) + 2):
        offered = page.locator("#choices button").evaluate_all(
            "bs => bs.map(b => [b.dataset.notation ?? null, b.dataset.words ?? null])"
        )
        for index, (whole, _) in enumerate(offered):
            if whole == notation:
                page.locator("#choices button").nth(index).click()
                return
        prefix = (page.locator("#choices").get_attribute("data-prefix") or "").split()
        assert words[: len(prefix)] == prefix, (prefix, notation)
        rest = words[len(prefix) :]
        step = next(
            (i for i, (_, w) in enumerate(offered) if w is not None and rest[: len(w.split())] == w.split()),
            None,
        )
        assert step is not None, f"{notation!r}: no choice leads on from {prefix} among {offered}"
        page.locator("#choices button").nth(step).click()
    raise AssertionError(f"{notation!r} was never offered whole")


def _choose(server: Server, game_id: str, token: str, rnd: random.Random) -> tuple[str, str | None]:
    """An action the recorder may record now (the first prompt's seat) and that seat."""
    prompts = _get(server, f"/games/{game_id}/prompts", token)["prompts"]
    seat = prompts[0]["seat"]
    if prompts[0]["bounds"].get("unseen_allowed") and rnd.random() < 0.3:
        return "observe ?", seat  # physical Dominion: a card the table did not see
    query = f"?seat={seat}" if seat else ""
    legal = _get(server, f"/games/{game_id}/legal-actions{query}", token)
    if legal["templates"] and rnd.random() < 0.5:  # a number chosen from a template's range
        template = rnd.choice(legal["templates"])
        return fill(template, [high for _low, high in ranges(template)]), seat
    return rnd.choice(legal["notation"]), seat


def _fits_and_thumb_sized(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, input, select')]
          .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
          .map(e => e.id || e.textContent)"""
    )
    assert small == [], small


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_physical_game_is_recorded_by_taps_with_an_undo_and_a_resignation(
    browser: Any, server: Server, ruleset: str
) -> None:
    created = _create(server, ruleset, "physical")
    game_id, recorder = created["game_id"], created["recorder_token"]
    page = _open(browser, server, game_id, recorder)
    # the token left the address bar for the device's storage
    assert "#" not in page.url and "token" not in page.url
    assert page.evaluate(f"localStorage.getItem('chronicle-table:{game_id}')") == recorder
    assert page.locator("#who").inner_text() == "recorder"
    rnd = random.Random(ruleset)
    turns = 0  # actions of a seat's prompt: past the setup the table records
    for _ in range(60):
        notation, seat = _choose(server, game_id, recorder, rnd)
        turns += seat is not None
        if turns > 2:
            break
        if seat is not None:
            assert (
                seat in page.locator("#prompts").inner_text()
                or created["seats"][seat] in page.locator("#prompts").inner_text()
            )
        before = _get(server, f"/games/{game_id}")["version"]
        _tap(page, notation)
        assert _settled(page, server, game_id) > before, f"{notation} was not recorded"
        assert page.locator("#refusal").is_hidden()
    assert turns > 2, "the game never left its setup"
    if ruleset == "dominion":  # a card the table did not see was entered as `?`
        unseen = [a for a in _actions(server, game_id, recorder) if a["data"]["action"].get("cards") == ["?"]]
        assert unseen, "no `?` was tapped"
    # the notation box takes what the command line takes; a refusal names its rule as a link
    before = _get(server, f"/games/{game_id}")["version"]
    options = page.locator("#legal-notation option").evaluate_all("os => os.map(o => o.value)")
    assert options and all(isinstance(o, str) for o in options)
    page.fill("#notation", "resign everything")
    page.click("#notation-send")
    refusal = page.locator("#refusal")
    refusal.wait_for()
    assert "resign everything" in refusal.inner_text()
    problem = httpx.post(
        f"{server.url}/games/{game_id}/actions",
        json={"action": "resign everything"},
        headers={"authorization": f"Bearer {recorder}"},
    ).json()
    assert problem["detail"] in refusal.inner_text()
    if "rule" in problem:
        reference, section = problem["rule"].split(" ", 1)
        assert page.locator("#refusal a.rule").get_attribute("href") == f"/rulebook/{reference}#{section}"
    assert _get(server, f"/games/{game_id}")["version"] == before
    recorded = _actions(server, game_id, recorder)
    assert len(recorded) >= 3 and all(not a["retracted"] for a in recorded)
    _fits_and_thumb_sized(page)
    shot(page, f"table-{ruleset}")
    if ruleset == "dominations":  # the board beside the choices on a wide screen
        page.set_viewport_size(DESKTOP)
        shot(page, "table-dominations-desktop")
        page.set_viewport_size(PHONE)

    # undo the last action, behind the in-page dialog
    actions = _actions(server, game_id, recorder)
    page.click("#undo")
    assert page.locator("#confirm").is_visible()
    page.click("#confirm-yes")
    _settled(page, server, game_id)
    events = _get(server, f"/games/{game_id}/events", recorder)["events"]
    assert [e["type"] for e in events if e["version"] > actions[-1]["version"]].count("retraction") == 1
    undone = next(e for e in events if e["version"] == actions[-1]["version"])
    assert undone["retracted"] and not any(
        e["retracted"] for e in events if e["type"] == "action" and e["version"] < undone["version"]
    )

    # a seat resigns: the recorder names it in the dialog
    page.click("#resign")
    seat = next(iter(created["seats"]))
    page.select_option("#confirm-seat", seat)
    page.click("#confirm-yes")
    page.wait_for_function("document.body.dataset.status === 'finished'")
    detail = _get(server, f"/games/{game_id}")
    assert detail["status"] == "finished"
    assert detail["outcome"]["ranks"][seat] == len(created["seats"])
    assert page.locator("#whose").inner_text() == "The game is over."
    assert page.locator("#controls").is_hidden() and page.locator("#record").is_hidden()
    page.context.close()


MARKET_NIGHT = {
    "dice": [{"name": "dice", "count": 2, "faces": 6}],
    "decks": [{"name": "market", "cards": {"Gold": 2, "Silver": 3, "Copper": 4}}],
}


def test_a_game_chronicle_has_no_rules_for_is_recorded_by_taps_to_its_end(
    browser: Any, server: Server
) -> None:
    """`any`: the table declared two dice and a deck; the recorder's phone enters what the dice
    showed and the cards drawn, a score typed in notation, and the end."""
    options = {"title": "Market night", "definition": json.dumps(MARKET_NIGHT)}
    answer = httpx.post(
        f"{server.url}/games",
        json={"ruleset": "any", "players": ["Ann", "Ben"], "mode": "physical", "options": options},
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
    game_id, recorder = answer.json()["game_id"], answer.json()["recorder_token"]
    page = _open(browser, server, game_id, recorder)
    assert "Market night" in page.locator("main").inner_text()
    for notation in ("roll 2d6 = 4 4", "draw 1 market to table = Gold", "draw 1 market to A", "end turn"):
        before = _get(server, f"/games/{game_id}")["version"]
        _tap(page, notation)
        assert _settled(page, server, game_id) > before, f"{notation} was not recorded"
    for typed in ("score Ann +8", "end turn", "end turn", "end turn", "end game"):
        page.fill("#notation", typed)
        page.click("#notation-send")
        _settled(page, server, game_id)
        assert page.locator("#refusal").is_hidden(), page.locator("#refusal").inner_text()
    page.wait_for_function("document.body.dataset.status === 'finished'")
    detail = _get(server, f"/games/{game_id}")
    assert detail["outcome"]["winners"] == ["A"] and detail["outcome"]["scores"] == {"A": 8, "B": 0}
    shown = [e["text"] for e in _get(server, f"/games/{game_id}/events")["events"]]
    assert any("4 4" in line for line in shown) and any("Gold" in line for line in shown)
    _fits_and_thumb_sized(page)
    shot(page, "table-any")
    page.context.close()


def test_two_phones_see_each_others_moves_live_and_never_each_others_hand(
    browser: Any, server: Server
) -> None:
    created = _create(server, "dominion", "digital")
    game_id, tokens = created["game_id"], created["seat_tokens"]
    pages = {seat: _open(browser, server, game_id, tokens[seat]) for seat in ("p1", "p2")}
    seen: dict[str, list[Any]] = {"p1": [], "p2": []}
    for seat, page in pages.items():
        page.on("response", lambda response, seat=seat: seen[seat].append(response))
    assert pages["p1"].locator("#who").inner_text() == "Ann (p1)"
    assert pages["p2"].locator("#who").inner_text() == "Ben (p2)"
    for turn in range(3):
        mover = _get(server, f"/games/{game_id}/prompts")["prompts"][0]["seat"]
        other = "p2" if mover == "p1" else "p1"
        moving, watching = pages[mover], pages[other]
        assert moving.locator("#whose").inner_text() == "Your turn."
        assert watching.locator("#record").is_hidden()
        assert watching.locator("#whose").inner_text() == f"Waiting for {created['seats'][mover]}."
        # the mover ends both phases by taps; the other phone sees each step live
        for _phase in ("action", "buy"):
            before = int(watching.evaluate("document.body.dataset.version"))
            started = time.monotonic()
            _tap(moving, "end")
            version = _settled(moving, server, game_id)
            assert version > before
            watching.wait_for_function(f"Number(document.body.dataset.version) >= {version}", timeout=5_000)
            assert time.monotonic() - started < 5
        if turn == 0:
            shot(moving, "table-dominion-digital")
    # undoing the turn's end crosses the draw that followed it: the other seat is asked, and
    # approves on its own phone
    asker, approver = pages[mover], pages[other]
    asker.click("#undo")
    asker.click("#confirm-yes")
    approve = approver.locator('#retractions button[data-answer="approve"]')
    approve.wait_for(timeout=5_000)
    assert approver.locator("#retractions").inner_text().startswith(f"{created['seats'][mover]} asks to undo")
    assert asker.locator('#retractions button[data-answer="approve"]').count() == 0  # not asked
    approve.click()
    _settled(approver, server, game_id)
    events = _get(server, f"/games/{game_id}/events")["events"]
    assert events[-1]["type"] == "retraction"
    assert [e for e in events if e["type"] == "action"][-1]["retracted"]
    asker.wait_for_function(f"document.body.dataset.version === '{events[-1]['version']}'")
    assert asker.locator("#whose").inner_text() == "Your turn."
    # neither phone ever held the other's hand: its row shows a count, every fact of its draws
    # the page read (live or by request) names no card
    recorder = created["recorder_token"]
    everything = _get(server, f"/games/{game_id}/state", recorder)["state"]["players"]
    for seat, page in pages.items():
        other = "p2" if seat == "p1" else "p1"
        hand = page.locator(f'table[data-section="players"] tr[data-key="{other}"] td').nth(1).inner_text()
        assert hand == f"{len(everything[other]['hand'])} cards"
        own = page.locator(f'table[data-section="players"] tr[data-key="{seat}"] td').nth(1).inner_text()
        assert "cards" not in own  # its own hand by name
        received = page.evaluate("Table.events()")
        for response in seen[seat]:
            if "application/json" in (response.headers.get("content-type") or ""):
                received.append(response.json())
        assert received
        for draw in _draws(received, other):
            assert draw["cards"] == [], draw
        assert len(list(_draws(received, seat))) > 0  # its own draws are there, by name
    pages["p1"].set_viewport_size(DESKTOP)
    shot(pages["p1"], "table-dominion-desktop")
    for page in pages.values():
        page.context.close()


def _draws(found: Any, player: str) -> Iterator[dict[str, Any]]:
    """Every `drew` fact of `player` anywhere in `found` (answers, events)."""
    if isinstance(found, dict):
        if found.get("type") == "drew" and found.get("player") == player:
            yield found
        for value in found.values():
            yield from _draws(value, player)
    elif isinstance(found, list):
        for value in found:
            yield from _draws(value, player)


def test_an_action_tapped_offline_waits_on_the_phone_and_is_stored_once(browser: Any, server: Server) -> None:
    created = _create(server, "province", "physical")
    game_id, recorder = created["game_id"], created["recorder_token"]
    page = _open(browser, server, game_id, recorder)
    before = _get(server, f"/games/{game_id}")["version"]
    page.context.set_offline(True)
    _tap(page, "first A")
    pending = page.locator("#pending li")
    pending.wait_for()
    assert "first A" in pending.inner_text() and "pending" in pending.inner_text()
    kept = json.loads(page.evaluate(f"localStorage.getItem('chronicle-table-queue:{game_id}')"))
    assert [item["action"] for item in kept] == ["first A"] and kept[0]["action_id"]
    time.sleep(1)
    assert _get(server, f"/games/{game_id}")["version"] == before  # nothing reached the server
    shot(page, "table-offline")
    page.context.set_offline(False)
    _settled(page, server, game_id)
    assert page.locator("#queue").is_hidden()
    # the same action sent again (its first answer lost on the way): the server answers 200
    # for an action_id it has, and the phone takes that as done
    page.evaluate(
        f"localStorage.setItem('chronicle-table-queue:{game_id}', JSON.stringify({json.dumps(kept)}))"
    )
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_function("document.body.dataset.pending === '0'")
    assert page.locator("#refusal").is_hidden()
    actions = _actions(server, game_id, recorder)
    assert len(actions) == 1 and "first A" in actions[0]["text"]
    assert actions[0]["data"]["action_id"] == kept[0]["action_id"]
    # leaving the seat forgets the token: the phone watches, and records nothing
    page.click("#leave")
    page.click("#confirm-no")
    assert page.locator("#who").inner_text() == "recorder"
    page.click("#leave")
    page.click("#confirm-yes")
    page.wait_for_function("document.body.dataset.role === 'watching'")
    assert page.evaluate(f"localStorage.getItem('chronicle-table:{game_id}')") is None
    assert page.locator("#who").inner_text() == "watching"
    assert page.locator("#leave").is_hidden() and page.locator("#record").is_hidden()
    assert page.locator("#controls").is_hidden()
    page.reload()
    page.wait_for_selector("body.ready")
    assert page.locator("#who").inner_text() == "watching"
    page.context.close()


def test_a_template_range_is_tapped_as_number_choices(browser: Any, server: Server) -> None:
    created = _create(server, "dynasties", "physical")
    game_id, recorder = created["game_id"], created["recorder_token"]
    headers = {"authorization": f"Bearer {recorder}"}
    rnd = random.Random("templates")
    for _ in range(80):  # the setup and a first turn, through the API, up to a move of armies
        legal = _get(server, f"/games/{game_id}/legal-actions", recorder)
        if legal["templates"]:
            break
        sent = httpx.post(
            f"{server.url}/games/{game_id}/actions",
            json={"action": rnd.choice(legal["notation"])},
            headers=headers,
        )
        assert sent.status_code == 201, sent.text
    # a number the list leaves to the template (it lists a few samples of each range)
    template, notation = next(
        (t, fill(t, [n]))
        for t in legal["templates"]
        if len(ranges(t)) == 1
        for n in range(ranges(t)[0][0], ranges(t)[0][1] + 1)
        if fill(t, [n]) not in legal["notation"]
    )
    page = _open(browser, server, game_id, recorder)
    words = template.split()
    ranged = next(i for i, w in enumerate(words) if ranges(w))
    # tap up to the ranged word: one choice per number of its range
    _tap_words(page, words[:ranged])
    offered = page.locator("#choices button[data-words]").evaluate_all("bs => bs.map(b => b.dataset.words)")
    low, high = ranges(words[ranged])[0]
    expected = {fill(words[ranged], [n]) for n in range(low, high + 1)}
    assert expected <= set(offered), (expected, offered)
    before = _get(server, f"/games/{game_id}")["version"]
    page.locator("#choices button", has_text="Back").click()
    _tap(page, notation)
    assert _settled(page, server, game_id) > before
    assert _actions(server, game_id, recorder)[-1]["text"].endswith(notation)
    page.context.close()


def _tap_words(page: Any, words: list[str]) -> None:
    """Tap choices until `words` are chosen (a choice may hold several of them)."""
    while (page.locator("#choices").get_attribute("data-prefix") or "").split() != words:
        prefix = (page.locator("#choices").get_attribute("data-prefix") or "").split()
        rest = words[len(prefix) :]
        offered = page.locator("#choices button[data-words]").evaluate_all(
            "bs => bs.map(b => b.dataset.words)"
        )
        step = next(i for i, w in enumerate(offered) if rest[: len(w.split())] == w.split())
        page.locator("#choices button[data-words]").nth(step).click()


def test_a_card_tapped_on_the_board_offers_what_may_be_done_with_it(browser: Any, server: Server) -> None:
    """Digital Dominion, the seat to act: tapping a card on the drawn board narrows the choices
    to the legal actions naming it; one of them is recorded by a tap; a card nothing legal
    names now is said so, and nothing is recorded."""
    created = _create(server, "dominion", "digital")
    game_id = created["game_id"]
    mover = _get(server, f"/games/{game_id}/prompts")["prompts"][0]["seat"]
    page = _open(browser, server, game_id, created["seat_tokens"][mover])
    _tap(page, "end")  # the action phase: no action card in a starting hand
    _settled(page, server, game_id)
    before = len(_actions(server, game_id, created["recorder_token"]))
    page.locator('#picture g.card[data-name="Province"]').first.click()
    assert "Nothing legal names Province now." in page.locator("#refusal").inner_text()
    page.locator('#picture g.card[data-name="Copper"]').first.click()
    offered = page.locator("#choices button[data-notation]").evaluate_all(
        "bs => bs.map(b => b.dataset.notation)"
    )
    assert offered and all("Copper" in text for text in offered), offered
    assert "play treasure Copper" in offered
    assert page.locator("#building").inner_text() == "With Copper:"
    page.locator('#choices button[data-notation="play treasure Copper"]').click()
    _settled(page, server, game_id)
    actions = _actions(server, game_id, created["recorder_token"])
    assert len(actions) == before + 1
    assert actions[-1]["data"]["action"] == {"kind": "play_treasure", "card": "Copper"}, actions[-1]
    assert page.locator("#building").inner_text() != "With Copper:"  # a new position starts afresh
    page.context.close()
