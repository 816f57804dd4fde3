"""Variations over HTTP (store/variations.py): branched from a finished game's position,
decided by the same rules with a seed derived for them and stated, read through the one
redaction, listed under the game, annotatable, and played on as a new game."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

from domain.rng import commitment
from domain.variations import derive_seed
from tests.api.support import Api, Game, assert_problem, bearer


def _position(api: Api, game: Game) -> int:
    """A version between two actions, about halfway through the game."""
    played = api.chronicle.game(game.uuid)
    return played.actions[len(played.actions) // 2].last_version


def _branch(api: Api, game_id: str, token: str | None = None, **body: Any) -> dict[str, Any]:
    response = api.client.post(f"/games/{game_id}/variations", json=body, headers=bearer(token))
    assert response.status_code == 201, response.text
    found: dict[str, Any] = response.json()
    return found


def _legal(api: Api, variation_id: str, token: str) -> str:
    state = api.get(f"/variations/{variation_id}/state", token).json()
    seat = state["prompts"][0]["seat"]
    from store import variations

    line = variations.line(api.chronicle, UUID(variation_id))
    ruleset = line.game.ruleset
    action = ruleset.legal_actions(line.game.state, seat)[0]
    notation: str = ruleset.format_action(action)
    return notation


def test_a_running_game_is_not_branched_and_a_finished_one_is_at_a_position(api: Api) -> None:
    game = api.create()
    refused = api.client.post(f"/games/{game.id}/variations", json={"at": 1}, headers=bearer(game.recorder))
    assert_problem(refused, 409, "game_running")
    api.finish(game)
    played = api.chronicle.game(game.uuid)
    inside = played.actions[3].action_version  # its facts follow it
    assert played.actions[3].last_version > inside
    assert_problem(
        api.client.post(f"/games/{game.id}/variations", json={"at": inside}), 400, "not_a_position"
    )
    assert_problem(api.client.post(f"/games/{game.id}/variations", json={"at": 0}), 400, "invalid_version")
    assert_problem(
        api.client.post(f"/games/{game.id}/variations", json={"at": played.version}), 400, "not_a_position"
    )
    assert_problem(
        api.client.post(f"/games/{game.id}/variations", json={"at": 2, "x": 1}), 400, "invalid_request"
    )
    for players in (["Cy"], ["Cy", "D\x07i"], ["Cy", " "]):
        wrong = api.client.post(
            f"/games/{game.id}/variations",
            json={"at": played.actions[0].last_version, "purpose": "game", "players": players},
        )
        assert_problem(wrong, 400, "invalid_player_name")
    assert api.get(f"/games/{game.id}/variations").json()["variations"] == []
    assert api.version(game) == played.version  # nothing was written to the game


def test_a_study_states_its_derived_seed_replays_its_base_and_records_by_the_same_rules(api: Api) -> None:
    game = api.create()
    api.finish(game)
    at = _position(api, game)
    study = _branch(api, game.id, at=at)
    vid = study["variation_id"]
    revealed = api.chronicle.game(game.uuid).revealed_seed
    assert revealed is not None
    seed = derive_seed(bytes.fromhex(revealed), UUID(vid))
    assert study["seed"] == seed.hex() and study["commitment"] == commitment(seed)
    assert study["seat_tokens"] == {} and study["version"] == at
    base = api.events(game)[:at]
    line = api.get(f"/variations/{vid}/events").json()["events"]
    assert [e["text"] for e in line] == [e["text"] for e in base]
    illegal = api.client.post(
        f"/variations/{vid}/actions", json={"action": "build palace"}, headers=bearer(study["recorder_token"])
    )
    assert illegal.status_code in (400, 422) and "code" in illegal.json()
    notation = _legal(api, vid, study["recorder_token"])
    assert_problem(
        api.client.post(f"/variations/{vid}/actions", json={"action": notation}), 401, "token_required"
    )
    assert_problem(
        api.client.post(
            f"/variations/{vid}/actions", json={"action": notation}, headers=bearer(game.recorder)
        ),
        401,
        "invalid_token",
    )
    recorded = api.client.post(
        f"/variations/{vid}/actions", json={"action": notation}, headers=bearer(study["recorder_token"])
    )
    assert recorded.status_code == 201, recorded.text
    appended = recorded.json()["events"]
    assert appended[0]["version"] == at + 1 and appended[0]["type"] == "action"
    after = api.get(f"/variations/{vid}/events").json()["events"]
    assert len(after) == at + len(appended)
    assert api.version(game) == api.chronicle.game(game.uuid).version  # the game is unchanged
    listed = api.get(f"/games/{game.id}/variations").json()["variations"]
    assert [(v["variation_id"], v["at"], v["actions"], v["status"]) for v in listed] == [
        (vid, at, 1, "running")
    ]
    note = api.client.post(
        f"/games/{vid}/annotations",
        json={"at": at + 1, "text": "better", "glyph": "!"},
        headers=bearer(study["recorder_token"]),
    )
    assert note.status_code == 201, note.text
    # a study is open to all from the start, and so are its annotations
    assert [n["text"] for n in api.get(f"/games/{vid}/annotations").json()["annotations"]] == ["better"]


def test_play_on_from_a_variation_is_a_new_game_with_seat_tokens_and_a_sealed_seed(api: Api) -> None:
    game = api.create()
    api.finish(game)
    study = _branch(api, game.id, at=_position(api, game))
    vid = study["variation_id"]
    for _ in range(2):
        notation = _legal(api, vid, study["recorder_token"])
        api.client.post(
            f"/variations/{vid}/actions", json={"action": notation}, headers=bearer(study["recorder_token"])
        )
    at = api.get(f"/variations/{vid}").json()["version"]
    new = _branch(api, vid, at=at, purpose="game", players=["Cy", "Di"])
    assert new["base_id"] == vid and new["game_id"] == game.id
    assert new["seed"] == "" and len(new["commitment"]) == 64
    assert set(new["seat_tokens"]) == {"A", "B"} and new["seats"] == {"A": "Cy", "B": "Di"}
    pid = new["variation_id"]
    state = api.get(f"/variations/{pid}/state", new["seat_tokens"]["A"]).json()
    assert state["version"] == at and state["view"] == "player:A"
    assert api.get(f"/variations/{pid}/state").json()["view"] == "public"
    seat = state["prompts"][0]["seat"]
    notation = _legal(api, pid, new["recorder_token"])
    other = "B" if seat == "A" else "A"
    wrong = api.client.post(
        f"/variations/{pid}/actions",
        json={"action": notation, "seat": seat},
        headers=bearer(new["seat_tokens"][other]),
    )
    assert_problem(wrong, 403, "wrong_seat")
    mine = api.client.post(
        f"/variations/{pid}/actions", json={"action": notation}, headers=bearer(new["seat_tokens"][seat])
    )
    assert mine.status_code == 201, mine.text
    listed = [v["variation_id"] for v in api.get(f"/games/{game.id}/variations").json()["variations"]]
    assert listed == [vid, pid]


def test_a_study_serves_its_legal_actions_and_its_picture_as_a_game_does(api: Api) -> None:
    game = api.create()
    api.finish(game)
    at = _position(api, game)
    study = _branch(api, game.id, at=at)
    vid, token = study["variation_id"], study["recorder_token"]
    assert_problem(api.get(f"/variations/{vid}/legal-actions"), 401, "token_required")
    assert_problem(api.get(f"/variations/{vid}/legal-actions", game.recorder), 401, "invalid_token")
    legal = api.get(f"/variations/{vid}/legal-actions", token).json()
    state = api.get(f"/variations/{vid}/state").json()
    seat = state["prompts"][0]["seat"]
    # as the game's route: the recorder asks for the table (the prompted seat's choices)
    assert legal["version"] == at and legal["seat"] is None
    assert legal["notation"][0] == _legal(api, vid, token)
    assert len(legal["actions"]) == len(legal["notation"]) >= 1
    by_seat = api.get(f"/variations/{vid}/legal-actions", token, seat=seat).json()
    assert by_seat["seat"] == seat and by_seat["notation"] == legal["notation"]
    picture = api.get(f"/variations/{vid}/picture").json()
    played = api.get(f"/games/{game.id}/picture", at=at).json()
    assert picture["version"] == picture["last"] == at and picture["status"] == "running"
    assert picture["picture"]["sections"] == played["picture"]["sections"]
    recorded = api.client.post(
        f"/variations/{vid}/actions", json={"action": legal["notation"][0]}, headers=bearer(token)
    )
    assert recorded.status_code == 201, recorded.text
    last = recorded.json()["events"][-1]["version"]
    moved = api.get(f"/variations/{vid}/picture").json()
    assert moved["version"] == last and moved["picture"]["changed"]
    assert (
        api.get(f"/variations/{vid}/picture", at=at).json()["picture"]["sections"]
        == picture["picture"]["sections"]
    )
    assert api.get(f"/variations/{vid}/legal-actions", token).json()["version"] == last
    assert_problem(api.get(f"/variations/{vid}/picture", at=last + 1), 400, "invalid_version")
    assert_problem(api.get(f"/variations/{vid}/picture", at=at, since=at + 1), 400, "invalid_version")
    assert_problem(api.get(f"/variations/{uuid4()}/picture"), 404, "game_not_found")
