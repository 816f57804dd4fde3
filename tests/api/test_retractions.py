"""`/games/{id}/retractions`: corrections at the table (domain/corrections.py, "corrections N").

A retraction undoes the last live actions; the undone actions and their facts stay in the
stream, marked `retracted`, and state, prompts, legal actions, the log and the audit follow the
corrected line. The recorder's token retracts at once; a seat's token retracts its own plain
actions at once and needs every other seat's approval to cross another seat's action, a random
outcome or a reveal. Every refusal is a problem naming the rule, and appends nothing.

Physical games start with the recorder's first-player and goal entries (province.md E2), so the
first seat action is #3. Digital games are dealt from (server seed, game id, client seed), and
`POST /games` draws the game id, so the digital games here are created through the service with
the administrator's rights and a fixed id: the goal stack is then coins5, workers2, labor5,
twovp2, buildings4 and Ann (A) plays first. Everything else goes over HTTP.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID, uuid4

import httpx
import pytest

from api.routes import reading
from store.app import NewGame
from tests.api.support import ADMIN_TOKEN, Api, Game, assert_problem, bearer

NDJSON = "application/x-ndjson"
SEED = "5e" * 32
DIGITAL_ID = UUID(int=2)
DIGITAL_OPTIONS = {"first_player_method": "chosen", "labor_carryover": True}

# Ben's seventh action reaches 5 coins: he claims coins5 and workers2 is turned face up.
TO_A_REVEAL = [
    "move green right",
    "end",
    "move green left",
    "end",
    "move green top",
    "end",
    "move green left",
]
# Ann builds the Union, then the Harbor; her EndTurn (#27) tosses the ships (province.md 5.1).
TO_THE_FIRST_TOSS = [
    *("move green top", "move green right", "move green left", "end"),
    *("move green top", "end", "move green right", "build union", "end"),
    *("move green right", "end", "move green left", "move green left", "move green left", "end"),
    *("move green top", "end", "move green top", "move green top", "move green right", "end"),
    *("move green right", "end", "move green right", "move green left", "build harbor", "end"),
]


def move(space: str) -> dict[str, str]:
    return {"kind": "MoveWorker", "piece": "green", "from": space}


END = {"kind": "EndTurn"}


def retract(api: Api, game: Game, token: str | None, **body: Any) -> httpx.Response:
    return api.client.post(f"/games/{game.id}/retractions", json=body, headers=bearer(token))


def answer(api: Api, game: Game, request_id: str, verdict: str, token: str | None) -> httpx.Response:
    return api.client.post(f"/games/{game.id}/retractions/{request_id}/{verdict}", headers=bearer(token))


def pending(api: Api, game: Game) -> list[dict[str, Any]]:
    response = api.get(f"/games/{game.id}/retractions")
    assert response.status_code == 200, response.text
    requests: list[dict[str, Any]] = response.json()["pending"]
    return requests


def action_events(events: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {e["data"]["seq"]: e for e in events if e["type"] == "action"}


def action_and_facts(events: list[dict[str, Any]], seq: int) -> list[dict[str, Any]]:
    """The action #seq and the facts after it, up to the next event of another kind."""
    start = next(i for i, e in enumerate(events) if e["type"] == "action" and e["data"]["seq"] == seq)
    shown = [events[start]]
    for event in events[start + 1 :]:
        if event["type"] != "fact":
            break
        shown.append(event)
    return shown


def player(api: Api, game: Game, seat: str) -> dict[str, Any]:
    state: dict[str, Any] = api.state(game, game.recorder)["state"]
    return {**state["players"][seat], "active": state["active"], "phase": state["phase"]}


def legal(api: Api, game: Game) -> list[str]:
    response = api.get(f"/games/{game.id}/legal-actions", game.recorder)
    assert response.status_code == 200, response.text
    notation: list[str] = response.json()["notation"]
    return notation


@contextmanager
def appends_nothing(api: Api, game: Game) -> Iterator[None]:
    before = api.events(game, game.recorder)
    yield
    assert api.events(game, game.recorder) == before


@pytest.fixture
def physical(api: Api) -> Game:
    """A physical game after the recorder's entries: Ann plays first, workers2 is face up."""
    game = api.create(mode="physical")
    api.start_physical(game)
    return game


@pytest.fixture
def crossed(api: Api, physical: Game) -> Game:
    """Ann moved (#3) and ended her turn (#4); Ben moved (#5)."""
    api.ok(physical, move("top"), physical.seat("A"))
    api.ok(physical, END, physical.seat("A"))
    api.ok(physical, move("right"), physical.seat("B"))
    return physical


def digital_game(api: Api, script: list[str]) -> Game:
    new = NewGame("province", ["Ann", "Ben"], options=DIGITAL_OPTIONS, server_seed=SEED)
    created = api.chronicle.create_game(new, admin=True, game_id=DIGITAL_ID)
    game = Game(created.game_id, "digital", created.commitment, created.seat_tokens, created.recorder_token)
    for notation in script:
        api.ok(game, notation, game.recorder)
    return game


# -- the recorder -----------------------------------------------------------------------------


def test_the_recorder_undoes_a_mistaken_build_and_the_game_goes_on_along_the_corrected_line(
    api: Api, physical: Game
) -> None:
    for space in ("top", "right", "left"):
        api.ok(physical, move(space), physical.recorder)
    mistaken = api.ok(physical, {"kind": "Build", "building": "camp"}, physical.recorder)
    assert player(api, physical, "A")["built"] == ["camp"]

    response = retract(api, physical, physical.recorder, reason="Ann built the Mill, not the Camp")

    assert response.status_code == 201, response.text
    body = response.json()
    assert body == {
        "game_id": physical.id,
        "version": mistaken["version"] + 1,
        "retracted": [6],
        "request_id": None,
        "waiting_for": [],
    }
    assert response.headers["etag"] == f'"{body["version"]}"'
    ann = player(api, physical, "A")
    assert (ann["built"], ann["coins"], ann["labor"], ann["active"]) == ([], 3, 2, "A")
    assert "build camp" in legal(api, physical) and "build mill" in legal(api, physical)
    assert api.detail(physical)["prompts"][0]["seat"] == "A"
    before_build = mistaken["version"] - len(mistaken["facts"]) - 1
    replayed = api.state(physical, physical.recorder, at=body["version"])["state"]
    assert replayed == api.state(physical, physical.recorder, at=before_build)["state"]
    events = api.events(physical)
    undone = action_and_facts(events, 6)
    assert len(undone) == 1 + len(mistaken["facts"])
    assert all(e["retracted"] for e in undone)
    assert not any(e["retracted"] for e in events if e not in undone)
    correction = events[-1]
    assert correction["type"] == "retraction"
    assert correction["data"] == {
        "seqs": [6],
        "by": "recorder",
        "seat": None,
        "reason": "Ann built the Mill, not the Camp",
        "approvals": [],
    }

    api.ok(physical, {"kind": "Build", "building": "mill"}, physical.recorder)
    api.ok(physical, END, physical.recorder)

    ann = player(api, physical, "A")
    assert (ann["built"], ann["active"]) == (["mill"], "B")
    corrected = api.events(physical, ADMIN_TOKEN, hide_retracted="true")
    assert [e["data"]["seq"] for e in corrected if e["type"] == "action"] == [1, 2, 3, 4, 5, 7, 8]
    report = api.get(f"/games/{physical.id}/audit", ADMIN_TOKEN).json()
    assert (report["clean"], report["actions"], report["divergence"]) == (True, 8, None)


def test_the_recorder_corrects_a_mis_entered_goal_and_the_finished_game_audits_clean_and_stays_fixed(
    api: Api, physical: Game
) -> None:
    api.ok(physical, move("top"), physical.recorder)
    assert retract(api, physical, physical.recorder, count=2).json()["retracted"] == [2, 3]
    assert api.detail(physical)["prompts"][0]["kinds"] == ["RevealGoal"]
    api.ok(physical, {"kind": "RevealGoal", "goal": "coins5"}, physical.recorder)

    api.finish(physical)

    report = api.get(f"/games/{physical.id}/audit").json()
    assert (report["clean"], report["divergence"]) == (True, None)
    with appends_nothing(api, physical):
        refused = assert_problem(retract(api, physical, physical.recorder), 422, "game_over")
    assert refused["rule"] == "records 3"


# -- the events endpoint ------------------------------------------------------------------------


def test_every_event_carries_retracted_in_json_and_ndjson_and_hide_retracted_drops_the_undone_ones(
    api: Api, physical: Game
) -> None:
    api.ok(physical, move("top"), physical.recorder)
    api.ok(physical, move("right"), physical.recorder)
    retract(api, physical, physical.recorder)
    path = f"/games/{physical.id}/events"

    events = api.events(physical)
    lines = [json.loads(line) for line in api.client.get(path, headers={"Accept": NDJSON}).text.splitlines()]
    hidden = api.events(physical, None, hide_retracted="true")
    hidden_lines = api.client.get(path, params={"hide_retracted": "true"}, headers={"Accept": NDJSON})

    assert lines == events
    assert all(isinstance(e["retracted"], bool) for e in events)
    assert [e["data"]["seq"] for e in events if e["retracted"] and e["type"] == "action"] == [4]
    assert hidden == [e for e in events if not e["retracted"]]
    assert [json.loads(line) for line in hidden_lines.text.splitlines()] == hidden
    assert hidden[-1]["type"] == "retraction"
    assert api.events(physical, None, hide_retracted="false") == events


def test_hiding_retracted_events_never_ends_an_ndjson_stream_early(
    api: Api, physical: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    api.ok(physical, move("top"), physical.recorder)
    api.ok(physical, move("right"), physical.recorder)
    retract(api, physical, physical.recorder, count=2)
    api.ok(physical, move("top"), physical.recorder)
    monkeypatch.setattr(reading, "PAGE", 2)  # one page holds nothing but retracted events

    response = api.client.get(
        f"/games/{physical.id}/events", params={"hide_retracted": "true"}, headers={"Accept": NDJSON}
    )

    shown = [json.loads(line) for line in response.text.splitlines()]
    assert shown == [e for e in api.events(physical) if not e["retracted"]]
    assert shown[-1]["data"]["type"] == "LaborGained"


# -- a seat's own retraction ---------------------------------------------------------------------


def test_a_seat_retracts_its_own_plain_action_at_once(api: Api, physical: Game) -> None:
    before = player(api, physical, "A")
    api.ok(physical, move("top"), physical.seat("A"))

    response = retract(api, physical, physical.seat("A"), reason="wrong worker")

    assert response.status_code == 201, response.text
    assert (response.json()["retracted"], response.json()["request_id"]) == ([3], None)
    assert player(api, physical, "A") == before
    assert "move green top" in legal(api, physical)
    correction = api.events(physical)[-1]["data"]
    assert (correction["by"], correction["seat"], correction["reason"]) == ("seat", "A", "wrong worker")
    api.ok(physical, move("right"), physical.seat("A"))


def test_a_seats_retraction_across_the_other_seats_action_is_refused_with_the_rule(
    api: Api, crossed: Game
) -> None:
    with appends_nothing(api, crossed):
        for count in (1, 2):
            body = assert_problem(
                retract(api, crossed, crossed.seat("A"), count=count), 422, "retraction_crosses_another_seat"
            )
            assert body["rule"] == "corrections 2a"
    assert pending(api, crossed) == []


# -- approval --------------------------------------------------------------------------------------


def test_with_ask_approval_the_request_waits_and_the_other_seats_approval_carries_it_out(
    api: Api, crossed: Game
) -> None:
    response = retract(api, crossed, crossed.seat("A"), count=2, ask_approval=True, reason="too early")

    assert response.status_code == 202, response.text
    asked = response.json()
    assert (asked["retracted"], asked["waiting_for"]) == ([], ["B"])
    request_id = asked["request_id"]
    assert pending(api, crossed) == [
        {
            "request_id": request_id,
            "seqs": [4, 5],
            "seat": "A",
            "reason": "too early",
            "needs": ["B"],
            "approvals": [],
            "waiting_for": ["B"],
        }
    ]
    assert player(api, crossed, "B")["active"] == "B"

    approved = answer(api, crossed, request_id, "approve", crossed.seat("B"))

    assert approved.status_code == 200, approved.text
    assert approved.json() == {
        "game_id": crossed.id,
        "version": asked["version"] + 2,
        "retracted": [4, 5],
        "request_id": None,
        "waiting_for": [],
    }
    assert approved.headers["etag"] == f'"{approved.json()["version"]}"'
    ann = player(api, crossed, "A")
    assert (ann["active"], ann["phase"], ann["labor"]) == ("A", "labor", 1)
    assert pending(api, crossed) == []
    events = api.events(crossed)
    assert [e["type"] for e in events[-3:]] == ["retraction_request", "retraction_answer", "retraction"]
    assert events[-2]["data"] == {"request_id": request_id, "seat": "B", "approved": True}
    assert (events[-1]["data"]["approvals"], events[-1]["data"]["seat"]) == (["B"], "A")
    assert all(e["retracted"] for seq in (4, 5) for e in action_and_facts(events, seq))


def test_only_a_seat_whose_approval_is_needed_answers_a_request(api: Api, crossed: Game) -> None:
    request_id = retract(api, crossed, crossed.seat("A"), ask_approval=True).json()["request_id"]

    with appends_nothing(api, crossed):
        asker = assert_problem(
            answer(api, crossed, request_id, "approve", crossed.seat("A")), 422, "not_an_approver"
        )
        assert asker["rule"] == "corrections 2"
        for token in (crossed.recorder, ADMIN_TOKEN):
            assert_problem(answer(api, crossed, request_id, "approve", token), 403, "seat_token_required")
        assert_problem(answer(api, crossed, request_id, "decline", None), 401, "token_required")
        assert_problem(
            answer(api, crossed, "no-such-request", "approve", crossed.seat("B")),
            422,
            "no_pending_retraction",
        )
    assert [r["request_id"] for r in pending(api, crossed)] == [request_id]


def test_a_declined_request_closes_and_retracts_nothing(api: Api, crossed: Game) -> None:
    request_id = retract(api, crossed, crossed.seat("A"), count=2, ask_approval=True).json()["request_id"]
    before = player(api, crossed, "B")

    declined = answer(api, crossed, request_id, "decline", crossed.seat("B"))

    assert declined.status_code == 200, declined.text
    assert (declined.json()["retracted"], declined.json()["request_id"]) == ([], None)
    assert pending(api, crossed) == []
    assert player(api, crossed, "B") == before
    assert not any(e["retracted"] for e in api.events(crossed))
    late = assert_problem(
        answer(api, crossed, request_id, "approve", crossed.seat("B")), 422, "no_pending_retraction"
    )
    assert late["rule"] == "corrections 4"


def test_a_seat_has_at_most_one_pending_request_until_it_is_answered(api: Api, crossed: Game) -> None:
    first = retract(api, crossed, crossed.seat("A"), count=2, ask_approval=True).json()["request_id"]

    with appends_nothing(api, crossed):
        for count in (2, 1):
            again = retract(api, crossed, crossed.seat("A"), count=count, ask_approval=True)
            body = assert_problem(again, 409, "retraction_already_pending")
            assert first in body["detail"]
    assert [r["request_id"] for r in pending(api, crossed)] == [first]

    bens = retract(api, crossed, crossed.seat("B"), count=2, ask_approval=True)
    assert bens.status_code == 202, bens.text
    assert answer(api, crossed, first, "decline", crossed.seat("B")).status_code == 200
    assert retract(api, crossed, crossed.seat("A"), count=2, ask_approval=True).status_code == 202


def test_a_request_lapses_when_another_action_is_recorded(api: Api, crossed: Game) -> None:
    request_id = retract(api, crossed, crossed.seat("A"), count=2, ask_approval=True).json()["request_id"]

    api.ok(crossed, move("left"), crossed.seat("B"))

    assert pending(api, crossed) == []
    with appends_nothing(api, crossed):
        assert_problem(
            answer(api, crossed, request_id, "approve", crossed.seat("B")), 422, "no_pending_retraction"
        )


# -- digital games: random outcomes and reveals -------------------------------------------------------


def test_a_seats_retraction_across_a_reveal_is_refused_but_the_recorder_may_undo_it(api: Api) -> None:
    game = digital_game(api, TO_A_REVEAL)
    claim = [e["data"] for e in action_and_facts(api.events(game, game.recorder), 7)[1:]]
    assert {"type": "GoalRevealed", "goal": "workers2"} in claim

    with appends_nothing(api, game):
        body = assert_problem(retract(api, game, game.seat("B")), 422, "retraction_crosses_reveal")
    assert body["rule"] == "corrections 2c"

    assert retract(api, game, game.recorder, seat="B", reason="the table agrees").status_code == 201
    correction = api.events(game)[-1]["data"]
    assert (correction["by"], correction["seat"], correction["seqs"]) == ("recorder", "B", [7])
    goals = api.state(game, game.recorder)["state"]["goals"]
    assert (goals["revealed"], goals["hidden"][0]) == ("coins5", "workers2")
    assert player(api, game, "B")["goals"] == []


def test_a_seats_retraction_across_a_ship_toss_is_refused_with_the_rule(api: Api) -> None:
    game = digital_game(api, TO_THE_FIRST_TOSS)
    toss = [e["data"] for e in action_and_facts(api.events(game, game.recorder), 27)[1:]]
    assert any(f["type"] == "ShipsTossed" for f in toss)

    with appends_nothing(api, game):
        body = assert_problem(retract(api, game, game.seat("A")), 422, "retraction_crosses_random_outcome")
    assert body["rule"] == "corrections 2b"


def test_after_an_approved_retraction_across_a_toss_the_same_action_tosses_the_same_ships(
    api: Api,
) -> None:
    game = digital_game(api, TO_THE_FIRST_TOSS[:-1])
    first = api.ok(game, END, game.seat("A"))
    request_id = retract(api, game, game.seat("A"), ask_approval=True).json()["request_id"]
    assert answer(api, game, request_id, "approve", game.seat("B")).json()["retracted"] == [27]
    assert (player(api, game, "A")["phase"], api.state(game)["state"]["ships"]) == ("spending", None)

    again = api.ok(game, END, game.seat("A"))

    assert again["seq"] == 28
    assert again["facts"] == first["facts"]
    assert [f["n"] for f in again["facts"] if f["type"] == "ShipsTossed"] == [0]
    report = api.get(f"/games/{game.id}/audit", ADMIN_TOKEN).json()
    assert (report["clean"], report["random_checked"], report["divergence"]) == (True, True, None)


# -- refusals ---------------------------------------------------------------------------------------


def test_a_retraction_without_a_token_is_a_401(api: Api, physical: Game) -> None:
    with appends_nothing(api, physical):
        assert_problem(retract(api, physical, None), 401, "token_required")


def test_nothing_before_the_first_action_can_be_retracted(api: Api) -> None:
    game = api.create()

    body = assert_problem(retract(api, game, game.recorder), 422, "nothing_to_retract")

    assert body["rule"] == "corrections 1"
    assert api.version(game) == len(api.events(game))


@pytest.mark.parametrize(
    "body",
    [{"count": 0}, {"count": -1}, {"reason": "x" * 501}, {"count": "one"}, {"by": "recorder"}],
    ids=["zero", "negative", "long-reason", "not-a-number", "unknown-field"],
)
def test_a_malformed_retraction_is_a_400_problem(api: Api, physical: Game, body: dict[str, Any]) -> None:
    with appends_nothing(api, physical):
        assert_problem(retract(api, physical, physical.recorder, **body), 400, "invalid_request")


def test_a_retraction_names_only_a_seat_of_the_game_and_a_seat_token_only_its_own(
    api: Api, physical: Game
) -> None:
    api.ok(physical, move("top"), physical.seat("A"))

    with appends_nothing(api, physical):
        assert_problem(retract(api, physical, physical.recorder, seat="C"), 400, "unknown_seat")
        assert_problem(retract(api, physical, physical.seat("B"), seat="A"), 403, "wrong_seat")
    unknown = api.client.post(f"/games/{uuid4()}/retractions", json={}, headers=bearer(physical.recorder))
    assert_problem(unknown, 404, "game_not_found")


def test_the_openapi_document_describes_the_retraction_routes(api: Api) -> None:
    paths = api.client.get("/schema/openapi.json").json()["paths"]

    create = paths["/games/{game_id}/retractions"]["post"]
    assert {"201", "202", "400", "401", "403", "404", "409", "422"} <= set(create["responses"])
    assert "get" in paths["/games/{game_id}/retractions"]
    for verdict in ("approve", "decline"):
        assert {"200", "403", "422"} <= set(
            paths[f"/games/{{game_id}}/retractions/{{request_id}}/{verdict}"]["post"]["responses"]
        )
    events = {p["name"] for p in paths["/games/{game_id}/events"]["get"]["parameters"]}
    assert "hide_retracted" in events
    # Each handler is registered once (api/routes/__init__.py), so each keeps its own name.
    operations = [op["operationId"] for ops in paths.values() for op in ops.values() if "operationId" in op]
    assert len(set(operations)) == len(operations)
    assert create["operationId"] == "GamesGameIdRetractionsRetract"
    assert paths["/games"]["post"]["operationId"] == "GamesCreateGame"
