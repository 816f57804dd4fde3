"""Live streams share their frames per viewer, never across viewers.

Many subscribers follow one Dominion game (hands are hidden) in one process: several as each
seat, as the public and as the recorder, over server-sent events and WebSocket messages, some
from the start and some from half-way. Every subscriber must get exactly what the events
endpoint shows it (the one redaction), its seat's hand included and the other seat's left out;
subscribers of one viewer are handed the very same frame objects, and no frame object ever
reaches two viewers. So for streams the game's fan-out writes to (`push`), some of whose writes
keep them waiting as a slow client would.
"""

from __future__ import annotations

import asyncio
import random
from contextlib import closing
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec

import store.live as live_module
from api.live import socket_frame, sse_frame
from domain.ruleset import get_ruleset
from store.app import ANONYMOUS, RECORDER, Access, Chronicle, NewGame
from store.fanout import Fanout
from store.live import Frame, LiveGames, shown

ACTIONS = 40  # recorded live; half-way subscribers join after `ACTIONS // 2`
EACH = 3  # subscribers per viewer, wire and way of writing
WAYS = ("yielded", "pushed", "pushed, slow")  # how a subscriber's steps are written


class Subscriber:
    def __init__(
        self, games: LiveGames, game_id: UUID, access: Access, after: int, frame: Frame[Any], way: str
    ) -> None:
        self.access, self.after, self.frame, self.way = access, after, frame, way
        self.frames: list[Any] = []
        self.writes = 0
        self.task = asyncio.create_task(self._follow(games, game_id))

    async def _write(self, frames: list[Any]) -> None:
        self.writes += 1
        if self.way == "pushed, slow" and self.writes % 3 == 0:
            await asyncio.sleep(0.001)  # a client slow to read: the write waits, then goes on
        self.frames.extend(frames)

    async def _follow(self, games: LiveGames, game_id: UUID) -> None:
        push = self._write if self.way != "yielded" else None
        async for frames in games.follow(game_id, self.access, self.after, self.frame, push=push):
            await self._write(frames)

    def received(self) -> bytes:
        if self.frame is sse_frame:
            return b"".join(self.frames)
        return b"\n".join(m.encode() for messages in self.frames for m in messages)


def expected(app: Chronicle, game_id: UUID, access: Access, after: int, frame: Frame[Any]) -> bytes:
    """What the events endpoint shows `access` after version `after`, on the same wire."""
    made = frame(shown(app.read_events(game_id, access, gt=after)))
    return made if isinstance(made, bytes) else b"\n".join(m.encode() for m in made)


def test_subscribers_share_frames_per_viewer_and_keep_hidden_information(tmp_path: Path) -> None:
    with closing(Chronicle(f"sqlite:///{tmp_path}/live.sqlite3", admin_token="live-admin")) as app:
        ruleset = get_ruleset("dominion")
        assert ruleset is not None
        new = NewGame("dominion", ["Ann", "Ben"], server_seed=bytes(32).hex())
        game_id = UUID(app.create_game(new, admin=True).game_id)
        first, second = app.game(game_id).config.seat_ids()
        viewers = {
            "seat 1": Access("seat", first),
            "seat 2": Access("seat", second),
            "public": ANONYMOUS,
            "recorder": RECORDER,
        }

        async def run() -> list[Subscriber]:
            games = LiveGames(app, Fanout(app))  # refreshed by hand below, as a hint would
            subscribers: list[Subscriber] = []

            def join(after: int) -> None:
                for access in viewers.values():
                    for frame in (sse_frame, socket_frame):
                        for way in WAYS:
                            subscribers.extend(
                                Subscriber(games, game_id, access, after, frame, way) for _ in range(EACH)
                            )

            join(0)
            bot = random.Random(3)
            for played in range(ACTIONS):
                if played == ACTIONS // 2:
                    join(app.game(game_id).version)
                await asyncio.sleep(0.01)  # every subscriber takes the batch, or reads the store
                game = app.game(game_id)
                assert game.outcome is None
                seat = ruleset.pending(game.state)[0].seat
                legal = ruleset.legal_actions(game.state, seat)
                action = ruleset.bot_choose(game.state, seat, legal, bot.randrange)
                app.record(game_id, ruleset.codec.encode(action), RECORDER, seat=seat)
                await games.games[game_id].refresh()
            last = app.game(game_id).version
            for _ in range(200):
                if all(s.frames and _last_version(s) == last for s in subscribers):
                    break
                await asyncio.sleep(0.01)
            for subscriber in subscribers:
                subscriber.task.cancel()
            await asyncio.gather(*(s.task for s in subscribers), return_exceptions=True)
            return subscribers

        subscribers = asyncio.run(run())

    with closing(Chronicle(f"sqlite:///{tmp_path}/live.sqlite3", admin_token="live-admin")) as app:
        for subscriber in subscribers:
            want = expected(app, game_id, subscriber.access, subscriber.after, subscriber.frame)
            assert subscriber.received() == want, (
                f"{subscriber.access} after {subscriber.after}, {subscriber.way}"
            )

        received = {
            name: [s for s in subscribers if s.access is access and s.frame is sse_frame and s.after == 0]
            for name, access in viewers.items()
        }
        whole = {name: followers[0].received() for name, followers in received.items()}
        assert len(set(whole.values())) == len(viewers), "two viewers were shown the same"
        # each seat sees its own hand: somewhere it is shown more than the public is
        public = _events(whole["public"])
        for seat in ("seat 1", "seat 2"):
            mine = _events(whole[seat])
            assert mine.keys() == public.keys()
            assert any(mine[v] != public[v] for v in mine), f"{seat} saw nothing the public did not"

        # subscribers of one viewer hold the same frame objects; no object reaches two viewers
        owners: dict[int, str] = {}
        for name, access in viewers.items():
            for frame in (sse_frame, socket_frame):
                same = [s for s in subscribers if s.access is access and s.frame is frame]
                shared = set.intersection(*({id(f) for f in s.frames} for s in same))
                assert len(shared) >= ACTIONS // 4, f"{name}'s subscribers did not share their frames"
                for subscriber in same:
                    for made in subscriber.frames:
                        assert owners.setdefault(id(made), name) == name, (
                            f"a frame reached {name} and another"
                        )


def _last_version(subscriber: Subscriber) -> int:
    text = subscriber.received()
    if subscriber.frame is sse_frame:
        return int(text.rsplit(b"\nid: ", 1)[-1].split(b"\n", 1)[0].removeprefix(b"id: "))
    return int(msgspec.json.decode(text.rsplit(b"\n", 1)[-1])["version"])


def _events(sse: bytes) -> dict[int, bytes]:
    found = {}
    for block in sse.split(b"\n\n"):
        if block:
            lines = dict(line.split(b": ", 1) for line in block.split(b"\n"))
            found[int(lines[b"id"])] = lines[b"data"]
    return found


def test_silent_games_keep_pushed_and_yielded_streams_alive(tmp_path: Path, monkeypatch: Any) -> None:
    """A game silent for `KEEPALIVE` seconds gives every stream an empty step: the fan-out
    writes it to the pushed ones itself, and they stay pushed; then a batch reaches both."""
    monkeypatch.setattr(live_module, "KEEPALIVE", 0.05)
    with closing(Chronicle(f"sqlite:///{tmp_path}/quiet.sqlite3", admin_token="live-admin")) as app:
        new = NewGame("dominion", ["Ann", "Ben"], server_seed=bytes(32).hex())
        game_id = UUID(app.create_game(new, admin=True).game_id)
        ruleset = get_ruleset("dominion")
        assert ruleset is not None

        async def run() -> tuple[list[list[Any]], list[list[Any]], int]:
            games = LiveGames(app, Fanout(app))
            pushed: list[list[Any]] = []
            yielded: list[list[Any]] = []
            start = app.game(game_id).version

            async def write(frames: list[Any]) -> None:
                pushed.append(frames)

            async def follow_pushed() -> None:
                async for frames in games.follow(game_id, ANONYMOUS, start, sse_frame, push=write):
                    await write(frames)

            async def follow_yielded() -> None:
                async for frames in games.follow(game_id, ANONYMOUS, start, sse_frame):
                    yielded.append(frames)

            tasks = [asyncio.create_task(follow_pushed()), asyncio.create_task(follow_yielded())]
            await asyncio.sleep(0.3)
            ready = len(games.games[game_id]._ready)
            game = app.game(game_id)
            seat = ruleset.pending(game.state)[0].seat
            action = ruleset.legal_actions(game.state, seat)[0]
            app.record(game_id, ruleset.codec.encode(action), RECORDER, seat=seat)
            await games.games[game_id].refresh()
            await asyncio.sleep(0.01)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            assert not games.games, "a stream that ended still follows its game"
            return pushed, yielded, ready

        pushed, yielded, ready = asyncio.run(run())
    assert ready == 1, "the caught-up pushed stream was not left to the fan-out"
    for name, steps in (("pushed", pushed), ("yielded", yielded)):
        assert steps.count([]) >= 2, f"the {name} stream was not kept alive"
        assert steps[-1] and steps[-1][0].startswith(b"id: "), f"the {name} stream missed the batch"
