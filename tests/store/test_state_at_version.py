"""The game at a version (`Chronicle.game(game_id, version=v)`), read from the copies kept
every few versions (store/kept_versions.py), is the fold of the stream's first v events: for a
seeded bot game read at random versions in random order, cold and warm, and for a game with
retractions, whose bookkeeping rewinds."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.application import project_aggregate

from domain.game import Game
from domain.ruleset import OMNISCIENT, get_ruleset
from store.app import RECORDER, Chronicle, NewGame
from store.errors import GameNotFound, InvalidRequest
from store.kept_versions import KeptVersions
from store.secrets import secrets_id
from store.simulation import play


def plain_fold(app: Chronicle, game_id: UUID, version: int) -> Game:
    folded = project_aggregate(None, app.events.get(game_id, lte=version))
    assert isinstance(folded, Game)
    return folded


def picture(game: Game) -> dict[str, Any]:
    """Everything a reader or a later command takes from a game."""
    return {
        "version": game.version,
        "state": game.state,
        "view": game.ruleset.view(game.state, OMNISCIENT),
        "actions": list(game.actions),
        "live": list(game.live),
        "action_ids": dict(game.action_ids),
        "before_each_action": [game.checkpoints[a.seq] for a in game.actions],
        "requests": dict(game.requests),
        "outcome": game.outcome,
        "status": game.status,
        "revealed_seed": game.revealed_seed,
        "resigned": game.resigned,
        "modified_on": game.modified_on,
    }


def test_a_seeded_game_read_at_random_versions_is_the_fold_of_its_first_events(
    app: Chronicle, store_url: str
) -> None:
    ruleset = get_ruleset("province")
    assert ruleset is not None
    played = play(app, ruleset, "state-at", 0, ["Ann", "Ben"], {})
    assert played.outcome is not None
    last = app.game(played.game_id).version
    pick = random.Random(7)
    # twenty random versions: each read is checked against a fold of the game from its start
    versions = [1, 2, last, last + 5, *(pick.randint(1, last) for _ in range(20))]
    reader = Chronicle(store_url)  # a cold reader, then warm: the same answers
    try:
        for version in [*versions, *reversed(versions)]:
            expected = plain_fold(app, played.game_id, version)
            assert picture(reader.game(played.game_id, version=version)) == picture(expected)
    finally:
        reader.close()


def test_a_game_read_at_versions_around_its_retractions_rewinds_as_its_fold_does(app: Chronicle) -> None:
    created = app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical"))
    game_id = UUID(created.game_id)
    for move in ["first A white", "reveal workers2", "move green top", "move green right"]:
        app.record(game_id, move, RECORDER)
    app.retract(game_id, RECORDER, reason="wrong worker")
    for move in ["move green right", "move green left", "build camp", "end"]:
        app.record(game_id, move, RECORDER)
    app.retract(game_id, RECORDER, count=2, reason="not the Camp")
    app.record(game_id, "end", RECORDER)
    last = app.game(game_id).version
    app.kept_versions = KeptVersions(every=2)
    for version in [*range(last, 0, -1), *range(1, last + 1)]:
        assert picture(app.game(game_id, version=version)) == picture(plain_fold(app, game_id, version))


def test_a_copy_read_at_a_version_is_the_readers_own(app: Chronicle) -> None:
    game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)
    for move in ["first A white", "reveal workers2", "move green top"]:
        app.record(game_id, move, RECORDER)
    app.kept_versions = KeptVersions(every=1)
    first = app.game(game_id, version=2)
    first.live.append(99)
    first.checkpoints[1] = None
    first.state = None
    assert picture(app.game(game_id, version=2)) == picture(plain_fold(app, game_id, 2))


def test_versions_before_the_first_and_streams_of_no_game_are_refused(app: Chronicle) -> None:
    game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"])).game_id)
    with pytest.raises(InvalidRequest, match=r"^Versions start at 1\.$") as refused:
        app.game(game_id, version=0)
    assert refused.value.code == "invalid_version"
    assert app.game(game_id, version=1).version == 1
    digital = UUID(app.create_game(NewGame("province", ["Ann", "Ben"])).game_id)
    with pytest.raises(GameNotFound, match=f"^There is no game {secrets_id(digital)}\\.$"):
        app.game(secrets_id(digital))  # a stream, but not a game's
    for version in (1, 3, None):  # a game that does not exist, at any version
        with pytest.raises(GameNotFound, match=f"^There is no game {UUID(int=1)}\\.$"):
            app.game(UUID(int=1), version=version)


def test_the_copies_kept_stay_within_their_budget(app: Chronicle) -> None:
    app.kept_versions = KeptVersions(every=2, budget=10)
    for _ in range(3):
        game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)
        for move in ["first A white", "reveal workers2", "move green top"]:
            app.record(game_id, move, RECORDER)
        app.game(game_id, version=5)
    assert len(app.kept_versions._kept) == 2
    assert app.kept_versions._events <= 10


def test_readers_of_one_stream_meeting_halfway_each_get_their_version(app: Chronicle) -> None:
    game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)
    for move in ["first A white", "reveal workers2", "move green top", "move green right"]:
        app.record(game_id, move, RECORDER)
    last = app.game(game_id).version
    kept = app.kept_versions = KeptVersions(every=2)

    def read(gt: int, lte: int) -> list[Any]:
        return list(app.events.get(game_id, gt=gt or None, lte=lte))

    for outer, inner in [(3, last), (last, 3)]:
        kept._kept.clear()
        kept._events = 0

        def meanwhile(gt: int, lte: int, inner: int = inner) -> list[Any]:
            found = read(gt, lte)
            other = kept.fold(game_id, inner, read)  # another reader, between the read and the fold
            assert other is not None
            assert picture(other) == picture(plain_fold(app, game_id, inner))
            return found

        game = kept.fold(game_id, outer, meanwhile)
        assert game is not None
        assert picture(game) == picture(plain_fold(app, game_id, outer))
        assert len(kept._kept[game_id].events) == last == kept._events
