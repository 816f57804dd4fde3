"""Every ruleset through the HTTP API, on both stores: what a client does with any game works
for each registered game alike, digital and physical. Creating it; recording actions with the
seat's token (digital) or the recorder's (the physical table); reading its events (JSON and
NDJSON), state, prompts, legal actions and statistics as each viewer; retracting an action;
listing it; and, once a bot game has ended, reading everything in the open and auditing it.

The games are short: a few actions, each chosen by a seeded random pick among the legal
actions the API lists (what any client could do); one seeded bot game per ruleset is played to
its end in process. The Province rules themselves are tested elsewhere.
"""

from __future__ import annotations

import hashlib
import json
import random
from itertools import pairwise
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from store.app import Chronicle
from tests.api.support import ADMIN_TOKEN, Api, Game, assert_problem
from tests.short_games import MODES, RULESET_IDS, finished_game, new_options, players

STEPS = 6  # actions recorded in each short game
UNDONE = 3  # of which the last ones retracted and entered again
SEED = bytes(range(100, 132)).hex()  # the server seed of the digital games (fixed by the admin)


def create(api: Api, ruleset: str, mode: str) -> Game:
    options = new_options(ruleset)
    if mode == "digital":
        return api.create(
            mode, tuple(players(ruleset)), ADMIN_TOKEN, ruleset=ruleset, server_seed=SEED, options=options
        )
    return api.create(mode, tuple(players(ruleset)), ruleset=ruleset, options=options)


def send(api: Api, game: Game, seat: str | None, action: dict[str, Any]) -> dict[str, Any]:
    """Record an action for `seat`: with the seat's own token in a digital game, else by the
    recorder naming the seat (none: the table's own prompt)."""
    if game.mode == "digital" and seat is not None:
        return api.ok(game, action, game.seat(seat))
    return api.ok(game, action, game.recorder, **({} if seat is None else {"seat": seat}))


def step(api: Api, game: Game, bot: random.Random) -> tuple[str | None, dict[str, Any], dict[str, Any]]:
    """One action for a prompted seat, picked among the legal actions the API lists to the
    token that sends it. The seat, the action and the answer."""
    seat = bot.choice(sorted((p["seat"] for p in api.detail(game)["prompts"]), key=str))
    own = game.mode == "digital" and seat is not None
    token = game.seat(seat) if own else game.recorder
    params = {} if own or seat is None else {"seat": seat}
    response = api.get(f"/games/{game.id}/legal-actions", token, **params)
    assert response.status_code == 200, response.text
    legal = response.json()
    assert legal["seat"] == seat and len(legal["actions"]) == len(legal["notation"]) > 0
    action = bot.choice(legal["actions"])
    return seat, action, send(api, game, seat, action)


def viewers(game: Game) -> dict[str, str | None]:
    """Each viewer's expected view name, and its token."""
    return {"public": None} | {f"player:{seat}": token for seat, token in game.seat_tokens.items()}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_a_short_game_of_each_ruleset_is_created_recorded_and_read_back_by_each_viewer(
    api: Api, ruleset: str, mode: str
) -> None:
    game = create(api, ruleset, mode)
    detail = api.detail(game)
    assert (detail["ruleset"], detail["mode"], detail["status"]) == (ruleset, mode, "running")
    assert set(game.seat_tokens) == set(detail["seats"]) and len(game.seat_tokens) == len(players(ruleset))
    assert len(game.commitment) == (64 if mode == "digital" else 0)
    assert detail["prompts"]

    bot = random.Random(f"{ruleset}-{mode}")
    steps = [step(api, game, bot) for _ in range(STEPS)]
    answers = [answer for _, _, answer in steps]

    version = api.version(game)
    assert [a["seq"] for a in answers] == list(range(1, STEPS + 1))
    assert answers[-1]["version"] == version and not answers[-1]["finished"]
    events = api.events(game, game.recorder)
    assert [e["version"] for e in events] == list(range(1, version + 1))
    assert [e["type"] for e in events].count("action") == STEPS
    assert all(e["text"] for e in events)
    # Each answer names the facts its action appended (as its sender may see them), one event each.
    for before, answer in pairwise(answers):
        assert answer["version"] == before["version"] + 1 + len(answer["facts"])
        kinds = [e["type"] for e in events[before["version"] : answer["version"]]]
        assert kinds == ["action"] + ["fact"] * len(answer["facts"])
    ndjson = api.client.get(
        f"/games/{game.id}/events",
        headers={"Accept": "application/x-ndjson", "Authorization": f"Bearer {game.recorder}"},
    )
    assert [json.loads(line) for line in ndjson.text.splitlines()] == events

    # Every viewer gets every version, each with its line; only what it may see differs.
    prompted = [p["seat"] for p in api.get(f"/games/{game.id}/prompts", game.recorder).json()["prompts"]]
    for view, token in viewers(game).items():
        seen = api.events(game, token)
        assert [(e["version"], e["type"]) for e in seen] == [(e["version"], e["type"]) for e in events]
        state = api.state(game, token)
        assert (state["view"], state["version"]) == (view, version)
        assert api.state(game, token, at=1)["version"] == 1
        their_prompts = api.get(f"/games/{game.id}/prompts", token).json()["prompts"]
        assert [p["seat"] for p in their_prompts] == prompted
        if token is not None:
            legal = api.get(f"/games/{game.id}/legal-actions", token).json()
            assert legal["seat"] == view.removeprefix("player:") and legal["version"] == version
            stats = api.get(f"/games/{game.id}/stats", token)
            assert stats.status_code == 200, stats.text
            # The table's entries count for the seat whose turn it is, if any.
            counted = stats.json()["statistics"]["actions"]
            assert sum(1 for seat, _, _ in steps if seat is not None) <= counted <= STEPS
        else:
            assert_problem(api.get(f"/games/{game.id}/legal-actions"), 401, "token_required")
    assert api.state(game, game.recorder)["view"] == "omniscient"
    # A running digital game's seed is sealed: no answer, not even the recorder's, holds it.
    for token in (None, game.recorder, *game.seat_tokens.values()):
        for path in ("", "/events", "/state", "/prompts"):
            assert SEED not in api.get(f"/games/{game.id}{path}", token).text
    listed = api.get("/games", ruleset=ruleset).json()["games"]
    assert [g["game_id"] for g in listed] == [game.id]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_retracted_actions_of_each_ruleset_restore_the_state_and_their_redo_draws_the_same(
    api: Api, ruleset: str, mode: str
) -> None:
    game = create(api, ruleset, mode)
    bot = random.Random(f"undo-{ruleset}-{mode}")
    for _ in range(STEPS - UNDONE):
        step(api, game, bot)
    before = api.state(game, game.recorder)
    prompts = api.detail(game)["prompts"]
    undone = [step(api, game, bot) for _ in range(UNDONE)]

    response = api.client.post(
        f"/games/{game.id}/retractions",
        json={"count": UNDONE, "reason": "entered by mistake"},
        headers={"Authorization": f"Bearer {game.recorder}"},
    )

    assert response.status_code == 201, response.text
    retracted = list(range(STEPS - UNDONE + 1, STEPS + 1))
    assert sorted(response.json()["retracted"]) == retracted
    after = api.state(game, game.recorder)
    assert after["state"] == before["state"] and after["version"] == undone[-1][2]["version"] + 1
    assert api.detail(game)["prompts"] == prompts
    marked = [e for e in api.events(game, game.recorder) if e["type"] == "action" and e["retracted"]]
    assert [e["data"]["seq"] for e in marked] == retracted
    # Entered again, the actions have the same facts: a retraction never re-rolls.
    for n, (seat, action, first) in enumerate(undone, start=1):
        again = send(api, game, seat, action)
        assert (again["facts"], again["seq"]) == (first["facts"], STEPS + n)


@pytest.fixture
def stats_api(chronicle: Chronicle) -> Any:
    with TestClient(create_app(chronicle, projections="inprocess")) as client:
        yield Api(client, chronicle)


# A whole game per ruleset costs time; the store tests audit finished games of every ruleset on
# PostgreSQL (tests/store/test_tampering.py), so this runs on SQLite only.
@pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_a_finished_game_of_each_ruleset_is_open_to_all_audited_clean_listed_and_counted(
    stats_api: Api, chronicle: Chronicle, ruleset: str
) -> None:
    api = stats_api
    game_id = str(finished_game(chronicle, ruleset))

    public = api.get(f"/games/{game_id}/events").json()["events"]
    assert public == api.get(f"/games/{game_id}/events", ADMIN_TOKEN).json()["events"]
    created, finished = public[0], public[-1]
    assert finished["type"] == "finished"
    seed = bytes.fromhex(finished["data"]["server_seed"])
    assert hashlib.sha256(seed).hexdigest() == created["data"]["commitment"]
    state = api.get(f"/games/{game_id}/state").json()
    assert (state["view"], state["status"]) == ("omniscient", "finished")
    detail = api.get(f"/games/{game_id}").json()
    assert (detail["status"], detail["prompts"]) == ("finished", [])
    assert detail["outcome"] == state["outcome"] and detail["outcome"]["scores"]

    report = api.get(f"/games/{game_id}/audit").json()
    assert (report["clean"], report["random_checked"], report["divergence"]) == (True, True, None)
    assert report["actions"] == sum(1 for e in public if e["type"] == "action")
    assert report["facts"] == sum(1 for e in public if e["type"] == "fact")

    listed = api.get("/games", ruleset=ruleset, status="finished").json()["games"]
    assert [g["game_id"] for g in listed] == [game_id]
    position = chronicle.recorder.max_notification_id() or 0
    stats = api.get("/stats", None, ruleset=ruleset, position=position, wait=30).json()
    assert (stats["caught_up"], stats["games"]) == (True, 1)
    seats = {
        row["seat"]
        for table in stats["tables"]
        if table["id"] == "win_rate_by_seat"
        for row in table["rows"]
        if row["ruleset"] == ruleset
    }
    assert seats == set(detail["seats"])
