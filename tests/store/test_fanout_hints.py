"""This process's news of appends (store/fanout.py): a hint wakes a game's streams, which read
whatever they have not sent, so each save and each read of the sequence gives one hint per
game, its latest; a save on the event loop queues its hints there without a thread's wake-up."""

from __future__ import annotations

import asyncio
import threading
from uuid import UUID

import pytest

from domain.game import Game
from store import fanout as fanout_module
from store.app import RECORDER, Appended, Chronicle, NewGame
from store.fanout import FEED, Fanout, Hint

OPENING = [
    {"kind": "DetermineFirstPlayer", "first": "A", "face": "white"},
    {"kind": "RevealGoal", "goal": "workers2"},
]


def new_game(app: Chronicle) -> UUID:
    return UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)


def test_a_save_wakes_its_games_watchers_once_with_its_last_version(
    app: Chronicle, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the news comes from the saves alone: the poller, which reads the sequence once as it
    # starts (after the first save, on a busy machine), finds nothing
    monkeypatch.setattr(Fanout, "_read_sequence", lambda self: [])
    game_id = new_game(app)
    heard: list[tuple[str, Hint, int]] = []

    async def run() -> None:
        fanout = Fanout(app)
        await fanout.start()
        try:
            loop_thread = threading.get_ident()
            fanout.watch(str(game_id), lambda h: heard.append(("game", h, threading.get_ident())))
            fanout.watch(FEED, lambda h: heard.append(("feed", h, threading.get_ident())))
            on_loop = await app.record_async(game_id, OPENING[0], RECORDER)  # saved on the loop
            await asyncio.sleep(0)
            assert [(k, h.version, t) for k, h, t in heard] == [
                ("game", on_loop.version, loop_thread),
                ("feed", on_loop.version, loop_thread),
            ]
            heard.clear()
            in_thread = await asyncio.to_thread(app.record, game_id, OPENING[1], RECORDER)
            for _ in range(100):
                if heard:
                    break
                await asyncio.sleep(0.01)
            assert [(k, h.version, t) for k, h, t in heard] == [
                ("game", in_thread.version, loop_thread),
                ("feed", in_thread.version, loop_thread),
            ]
            assert in_thread.version > on_loop.version + 1  # the action and its facts: several events
        finally:
            await fanout.stop()

    asyncio.run(asyncio.wait_for(run(), 10))


def test_a_read_of_the_sequence_gives_one_hint_per_game(
    app: Chronicle, monkeypatch: pytest.MonkeyPatch
) -> None:
    fanout = Fanout(app)
    first, second = new_game(app), new_game(app)
    for game_id, action in (
        (first, OPENING[0]),
        (second, OPENING[0]),
        (second, OPENING[1]),
        (first, OPENING[1]),
    ):
        app.record(game_id, action, RECORDER)

    monkeypatch.setattr(fanout_module, "PAGE", 2)  # several pages
    hints = fanout._read_sequence()

    assert [(h.game_id, h.version) for h in hints] == [  # in the order of their last appends
        (str(second), app.game(second).version),
        (str(first), app.game(first).version),
    ]
    assert fanout.position == app.recorder.max_notification_id()


def test_a_save_after_the_loop_closed_is_not_troubled_by_it(app: Chronicle) -> None:
    """A save in a worker thread as the server stops: its news has nowhere to go, and the
    save itself must not fail for that."""
    game_id = new_game(app)
    fanout = Fanout(app)

    async def run() -> None:
        await fanout.start()
        await fanout.stop()

    asyncio.run(run())
    app.listeners.append(fanout.saved)
    app.record(game_id, OPENING[0], RECORDER)
    assert app.game(game_id).actions


def test_a_save_makes_no_news_while_nobody_here_follows_and_no_other_process_hears(
    app: Chronicle, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Fanout, "_read_sequence", lambda self: [])
    game_id = new_game(app)
    made: list[list[Hint]] = []

    async def run(fanout: Fanout) -> None:
        monkeypatch.setattr(fanout, "_local_write", made.append)
        await fanout.start()
        try:
            await app.record_async(game_id, OPENING[0], RECORDER)
            await asyncio.sleep(0)
            assert made == []
            unwatch = fanout.watch(str(game_id), lambda hint: None)
            await app.record_async(game_id, OPENING[1], RECORDER)
            await asyncio.sleep(0)
            assert [h.version for hints in made for h in hints] == [app.game(game_id).version]
            unwatch()
        finally:
            await fanout.stop()

    asyncio.run(asyncio.wait_for(run(Fanout(app)), 10))
    made.clear()

    async def linked() -> None:  # other processes hear through Redis: the news is made
        fanout = Fanout(app, redis_url="redis://127.0.0.1:6379")
        fanout._loop = asyncio.get_running_loop()
        monkeypatch.setattr(fanout, "_local_write", made.append)
        fanout.saved([Appended(game_id, 9, Game.FactRecorded.TOPIC, 99)])
        await asyncio.sleep(0)
        assert [(h.game_id, h.version, h.position) for hints in made for h in hints] == [
            (str(game_id), 9, 99)
        ]

    asyncio.run(asyncio.wait_for(linked(), 10))
