"""Annotations over HTTP (store/notes.py): who writes, who reads while the game runs and after
it ended, edits and deletions as events, and the problems bad input gets."""

from __future__ import annotations

from typing import Any

from domain.notes import annotations_id
from tests.api.support import ADMIN_TOKEN, Api, Game, assert_problem, bearer


def _note(api: Api, game: Game, token: str | None, **body: Any) -> dict[str, Any]:
    response = api.client.post(f"/games/{game.id}/annotations", json=body, headers=bearer(token))
    assert response.status_code == 201, response.text
    found: dict[str, Any] = response.json()
    return found


def _texts(api: Api, game: Game, token: str | None, **params: Any) -> set[str]:
    response = api.get(f"/games/{game.id}/annotations", token, **params)
    assert response.status_code == 200, response.text
    return {n["text"] for n in response.json()["annotations"]}


def _reviewer(api: Api, game: Game, name: str = "Coach") -> str:
    response = api.client.post(
        f"/games/{game.id}/review-tokens", json={"name": name}, headers=bearer(game.recorder)
    )
    assert response.status_code == 201, response.text
    token: str = response.json()["review_token"]
    return token


def test_while_the_game_runs_each_side_sees_its_own_annotations_and_after_the_end_everyone_sees_all(
    api: Api,
) -> None:
    game = api.create(mode="physical")
    api.start_physical(game)
    coach = _reviewer(api, game)
    _note(api, game, game.seat("A"), at=2, text="A's plan", glyph="!?")
    _note(api, game, game.seat("B"), at=2, text="B's worry", coordinate="space:top")
    _note(api, game, game.recorder, at=1, text="table note", highlight="yellow")
    _note(api, game, coach, at=3, text="coach says", glyph="?!")
    # a review token reads the game as the public does, and records nothing
    assert api.events(game, coach) == api.events(game)
    assert_problem(api.act(game, {"kind": "EndTurn"}, coach), 401, "token_required")
    assert _texts(api, game, game.seat("A")) == {"A's plan"}
    assert _texts(api, game, game.seat("B")) == {"B's worry"}
    assert _texts(api, game, game.recorder) == {"table note"}
    assert _texts(api, game, coach) == {"coach says"}
    assert _texts(api, game, None) == set()
    assert _texts(api, game, ADMIN_TOKEN) == {"A's plan", "B's worry", "table note", "coach says"}
    api.finish(game)
    everything = {"A's plan", "B's worry", "table note", "coach says"}
    assert _texts(api, game, None) == everything
    assert _texts(api, game, game.seat("B")) == everything
    assert _texts(api, game, None, at=2) == {"A's plan", "B's worry"}
    listed = api.get(f"/games/{game.id}/annotations").json()["annotations"]
    assert [n["version"] for n in listed] == [1, 2, 2, 3]
    authors = {n["text"]: n["author"] for n in listed}
    assert authors == {
        "A's plan": "seat:A",
        "B's worry": "seat:B",
        "table note": "recorder",
        "coach says": "reviewer:Coach",
    }


def test_annotations_live_beside_the_game_and_edits_and_deletions_are_events(api: Api) -> None:
    game = api.create(mode="physical")
    api.start_physical(game)
    before = api.version(game)
    note = _note(api, game, game.seat("A"), at=2, text="first words", glyph="?")
    assert api.version(game) == before  # the game's stream is untouched
    path = f"/games/{game.id}/annotations/{note['annotation_id']}"
    hidden = api.client.patch(path, json={"text": "B's edit"}, headers=bearer(game.seat("B")))
    assert_problem(hidden, 404, "annotation_not_found")  # B cannot see A's note while the game runs
    edited = api.client.patch(
        path, json={"text": "second words", "glyph": "!!"}, headers=bearer(game.seat("A"))
    )
    assert edited.status_code == 200, edited.text
    assert edited.json()["text"] == "second words" and edited.json()["glyph"] == "!!"
    assert edited.json()["edited_at"] is not None
    api.finish(game)
    other = api.client.patch(path, json={"text": "B's edit"}, headers=bearer(game.seat("B")))
    assert_problem(other, 403, "not_the_author")
    assert api.client.delete(path, headers=bearer(game.seat("B"))).status_code == 403
    gone = api.client.delete(path, headers=bearer(game.seat("A")))
    assert gone.status_code == 204, gone.text
    assert _texts(api, game, None) == set()
    assert_problem(api.client.delete(path, headers=bearer(game.seat("A"))), 404, "annotation_not_found")
    stored = [type(e).__name__ for e in api.chronicle.events.get(annotations_id(game.uuid))]
    assert stored == ["Created", "Added", "Edited", "Deleted"]


def test_bad_annotations_are_problems_with_stable_codes_and_write_nothing(api: Api) -> None:
    game = api.create(mode="physical")
    api.start_physical(game)
    post = f"/games/{game.id}/annotations"
    token = bearer(game.recorder)
    cases = [
        ({"at": 1}, "annotation_empty"),
        ({"at": 1, "text": "   "}, "annotation_empty"),
        ({"at": 1, "glyph": "?!?"}, "invalid_glyph"),
        ({"at": 1, "highlight": "mauve"}, "invalid_highlight"),
        ({"at": 1, "text": "x", "coordinate": "nowhere"}, "invalid_coordinate"),
        ({"at": 1, "text": "x", "coordinate": "planet:Mars"}, "invalid_coordinate"),
        ({"at": 1, "text": "bell\x07"}, "invalid_text"),
        ({"at": 1, "text": "x" * 2001}, "invalid_text"),
        ({"at": 0, "text": "x"}, "invalid_version"),
        ({"at": 999, "text": "x"}, "invalid_version"),
    ]
    for body, code in cases:
        assert_problem(api.client.post(post, json=body, headers=token), 400, code)
    assert_problem(api.client.post(post, json={"at": 1, "text": "x"}), 401, "token_required")
    assert_problem(
        api.client.post(post, json={"at": 1, "text": "x"}, headers=bearer("nope")), 401, "invalid_token"
    )
    missing = api.client.post(
        "/games/00000000-0000-0000-0000-000000000000/annotations", json={"at": 1, "text": "x"}, headers=token
    )
    assert_problem(missing, 404, "game_not_found")
    refused = api.client.post(
        f"/games/{game.id}/review-tokens", json={"name": "Eve"}, headers=bearer(game.seat("A"))
    )
    assert_problem(refused, 403, "recorder_required")
    assert api.get(post, ADMIN_TOKEN).json()["annotations"] == []


def test_an_arrow_runs_from_the_coordinate_to_another_and_only_its_author_edits_or_deletes_it(
    api: Api,
) -> None:
    game = api.create(mode="physical")
    api.start_physical(game)
    post = f"/games/{game.id}/annotations"
    arrow = _note(api, game, game.seat("A"), at=2, coordinate="space:top", to="seat:B", text="go there")
    assert (arrow["coordinate"], arrow["to"]) == ("space:top", "seat:B")
    plain = _note(api, game, game.seat("A"), at=2, text="no arrow")
    assert plain["to"] is None
    # an arrow alone says enough; it needs its tail, a head the game holds, and two ends
    alone = _note(api, game, game.seat("A"), at=3, coordinate="space:top", to="seat:A")
    assert alone["text"] == "" and alone["to"] == "seat:A"
    token = bearer(game.seat("A"))
    for body in (
        {"at": 2, "to": "space:top", "text": "x"},
        {"at": 2, "coordinate": "space:top", "to": "space:tpo", "text": "x"},
        {"at": 2, "coordinate": "space:top", "to": "space:TOP", "text": "x"},
        {"at": 2, "coordinate": "space:top", "to": "planet:Mars", "text": "x"},
    ):
        assert_problem(api.client.post(post, json=body, headers=token), 400, "invalid_coordinate")
    # the list says whose side the token reads as, so a page offers editing its own
    listed = api.get(post, game.seat("A")).json()
    assert listed["reader"] == "seat:A"
    assert {n["to"] for n in listed["annotations"]} == {"seat:B", None, "seat:A"}
    assert api.get(post, None).json()["reader"] is None
    path = f"{post}/{arrow['annotation_id']}"
    moved = api.client.patch(
        path, json={"coordinate": "seat:A", "to": "space:top", "text": "back"}, headers=token
    )
    assert moved.status_code == 200, moved.text
    assert (moved.json()["coordinate"], moved.json()["to"]) == ("seat:A", "space:top")
    api.finish(game)
    coach = _reviewer(api, game)
    assert api.get(post, coach).json()["reader"] == "reviewer:Coach"
    assert_problem(
        api.client.patch(path, json={"text": "mine now"}, headers=bearer(coach)), 403, "not_the_author"
    )
    assert_problem(api.client.delete(path, headers=bearer(game.seat("B"))), 403, "not_the_author")
    assert api.client.delete(path, headers=token).status_code == 204
    left = api.get(post, None).json()["annotations"]
    assert [n["annotation_id"] for n in left] == [plain["annotation_id"], alone["annotation_id"]]
    # unarrowed again: an edit without `to` keeps no arrow
    unarrowed = api.client.patch(
        f"{post}/{alone['annotation_id']}",
        json={"coordinate": "space:top", "text": "just here"},
        headers=token,
    )
    assert unarrowed.status_code == 200 and unarrowed.json()["to"] is None
