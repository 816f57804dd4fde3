"""`Chronicle.record_async`, the server's way to record: decided on the event loop, while every
read of the store and the commit run off it, so that no request waits on the store while it
holds the loop. And `access_in_memory`, the route's check of a token without a read."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from contextlib import closing
from typing import Any, TypeVar
from uuid import UUID

import pytest

from domain.game import Game
from store.app import ADMIN, RECORDER, Access, Appended, Chronicle, NewGame
from store.errors import Unauthorized
from tests.api.support import ADMIN_TOKEN

OPENING = [
    {"kind": "DetermineFirstPlayer", "first": "A", "face": "white"},
    {"kind": "RevealGoal", "goal": "workers2"},
]
MOVES = [{"kind": "MoveWorker", "piece": "green", "from": f} for f in ("top", "right", "left")]


T = TypeVar("T")


def on_a_loop(work: Coroutine[Any, Any, T]) -> T:
    """`work` on a fresh event loop; a hang fails the test in 10 seconds rather than stalling it."""
    return asyncio.run(asyncio.wait_for(work, 10))


def reads_by_thread(app: Chronicle) -> list[int]:
    """The thread of each read of events `app` makes from now on."""
    select_events = app.recorder.select_events
    threads: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.get_ident())
        return select_events(*args, **kwargs)

    app.recorder.select_events = counted  # type: ignore[method-assign]
    return threads


def test_every_read_of_an_action_recorded_on_the_loop_runs_off_it(app: Chronicle, store_url: str) -> None:
    game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)
    with closing(Chronicle(store_url)) as server:  # a process that has not read the game yet
        threads = reads_by_thread(server)
        loop_thread: list[int] = []

        async def record(actions: list[dict[str, Any]]) -> None:
            loop_thread.append(threading.get_ident())
            for action in actions:
                await server.record_async(game_id, action, RECORDER)

        on_a_loop(record(OPENING))
        assert threads and loop_thread[0] not in threads  # the game's first read, off the loop
        read_before = len(threads)
        on_a_loop(record(MOVES[:1]))
        assert len(threads) == read_before  # then decided on the process's copy: no read
        app.record(game_id, MOVES[1], RECORDER)  # another process writes: the copy goes stale
        on_a_loop(record(MOVES[2:]))
        assert len(threads) > read_before and loop_thread[-1] not in threads[read_before:]
        assert len(server.game(game_id).actions) == 5


def test_a_retried_action_id_is_answered_from_a_read_off_the_loop(app: Chronicle) -> None:
    game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)
    first = app.record(game_id, OPENING[0], RECORDER, action_id="opening-1")
    threads = reads_by_thread(app)

    async def retry() -> tuple[int, Any]:
        return threading.get_ident(), await app.record_async(
            game_id, OPENING[0], RECORDER, action_id="opening-1"
        )

    loop_thread, again = on_a_loop(retry())
    assert again.replayed and (again.seq, again.version) == (first.seq, first.version)
    assert threads and loop_thread not in threads


def test_a_token_is_told_in_memory_exactly_as_access_tells_it(app: Chronicle, store_url: str) -> None:
    created = app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical"))
    game_id = UUID(created.game_id)
    tokens = [created.recorder_token, *created.seat_tokens.values()]
    with closing(Chronicle(store_url, admin_token=ADMIN_TOKEN)) as cold:
        # before the game's secrets are loaded only the administrator is known without a read
        assert [cold.access_in_memory(game_id, t) for t in tokens] == [None] * len(tokens)
        assert cold.access_in_memory(game_id, ADMIN_TOKEN) == ADMIN
        cold.secrets(game_id)
        assert [cold.access_in_memory(game_id, t) for t in tokens] == [
            cold.access(game_id, t) for t in tokens
        ]
        assert [cold.access_in_memory(game_id, t) for t in tokens] == [
            RECORDER,
            Access("seat", "A"),
            Access("seat", "B"),
        ]
        # no token, and a token the game does not know, are left to `access` (which may read)
        assert cold.access_in_memory(game_id, None) is None
        assert cold.access_in_memory(game_id, "not-a-token-of-this-game") is None
        with pytest.raises(Unauthorized):
            cold.access(game_id, "not-a-token-of-this-game")


def test_news_of_another_process_s_append_sends_the_next_action_to_the_stored_game(
    app: Chronicle, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from store.fanout import Fanout, Hint

    game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)
    for action in OPENING:
        app.record(game_id, action, RECORDER)
    with closing(Chronicle(store_url)) as other:
        theirs = other.record(game_id, MOVES[0], RECORDER)
    decided: list[int] = []
    decide = app._command

    def counting(game: Any, *args: Any) -> Any:
        decided.append(game.version)
        return decide(game, *args)

    monkeypatch.setattr(app, "_command", counting)
    # news of the other process's append (Redis or the store's poller), through the fan-out
    Fanout(app)._deliver([Hint(str(game_id), theirs.version, 0)])
    app.record(game_id, MOVES[1], RECORDER)
    assert decided == [theirs.version]  # decided once, on the stored game, not on the stale copy first
    with closing(Chronicle(store_url)) as other:
        other.record(game_id, MOVES[2], RECORDER)
    decided.clear()
    app.record(game_id, {"kind": "Build", "building": "camp"}, RECORDER)
    assert len(decided) == 2 and decided[0] < decided[1]  # without the news: the copy, then the store
    # news of this process's own last append: the copy is that version, and it is decided on
    # without a read
    version = app.game(game_id).version
    Fanout(app)._deliver([Hint(str(game_id), version, 0)])
    reads = reads_by_thread(app)
    decided.clear()
    app.record(game_id, {"kind": "EndTurn"}, RECORDER)
    assert decided == [version] and reads == []


def test_listeners_hear_of_an_action_recorded_on_the_loop_with_its_positions(app: Chronicle) -> None:
    game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)
    heard: list[Appended] = []
    app.listeners.append(heard.extend)
    recorded = on_a_loop(app.record_async(game_id, OPENING[0], RECORDER))
    stored = list(app.recorder.select_events(game_id))[-len(heard) :]
    assert [(a.originator_id, a.originator_version, a.topic) for a in heard] == [
        (game_id, s.originator_version, s.topic) for s in stored
    ]
    assert heard[-1].originator_version == recorded.version
    assert all(type(a.originator_id) is UUID for a in heard)
    sequence = app.recorder.select_notifications(heard[0].position, len(heard))
    assert [(n.originator_version, n.id) for n in sequence] == [
        (a.originator_version, a.position) for a in heard
    ]


def test_listeners_hear_of_a_save_the_library_made(app: Chronicle) -> None:
    heard: list[Appended] = []
    app.listeners.append(heard.extend)
    game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)
    games = [a for a in heard if a.originator_id == game_id]
    stored = [n for n in app.recorder.select_notifications(1, 100) if n.originator_id == game_id]
    assert games[0].topic == Game.Created.TOPIC
    assert [(a.originator_version, a.topic, a.position) for a in games] == [
        (n.originator_version, n.topic, n.id) for n in stored
    ]


def test_on_sqlite_the_loop_queues_its_commit_for_the_group_and_never_waits_in_line_itself(
    tmp_path: Any,
) -> None:
    with closing(Chronicle(f"sqlite:///{tmp_path}/loop.sqlite3")) as app:
        game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)
        group = app.recorder.group  # type: ignore[attr-defined]

        def waiting_in_line(*args: Any) -> Any:
            raise AssertionError("a thread waited in line for the commit")

        group.submit = waiting_in_line
        recorded = on_a_loop(app.record_async(game_id, OPENING[0], RECORDER))
        assert recorded.version == app.game(game_id).version


def test_news_is_kept_for_a_bounded_number_of_games(app: Chronicle, monkeypatch: pytest.MonkeyPatch) -> None:
    from store import core

    monkeypatch.setattr(core, "HEARD_GAMES", 3)
    for name in ("a", "b", "c"):
        app.heard(name, 5)
    app.heard("c", 5)  # no news: the same version again
    app.heard("c", 4)  # older news
    assert app._heard == {"a": 5, "b": 5, "c": 5}
    app.heard("d", 1)  # a fourth game: the oldest news is let go, all of it
    assert app._heard == {"d": 1}
