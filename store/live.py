"""Following games live: each subscriber gets the events it has not seen yet, redacted for it.

One `LiveGame` per followed game per process holds the latest aggregate and what the last few
refreshes (`Batch`) showed, read from the store once however many follow the game. A
subscriber starts from a version (0, or the one it resumes after), reads from the store what
is older than the batches in memory (the same read as `GET /games/{id}/events`), then takes
the batches as they come. Every event is shown through the one redaction (`domain/reading.py`
`present_all`, as the events endpoint does); what one batch shows one viewer is kept, so a
hundred spectators cost one redaction.

Positions are versions: a subscriber sends each version once, in order, whatever order the
hints (store/fanout.py) arrive in. A finished game is immutable, so a stream ends after its
finishing event. The feed of all games (projections/live_feed.py) follows the store's sequence
the same way, by position.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple
from uuid import UUID

import msgspec

from domain import reading
from domain.game import Game
from domain.reading import StoredEvent
from store.app import Access, Chronicle
from store.fanout import Fanout, Hint

BATCHES = 16  # refreshes kept per followed game; an older position is read from the store
PAGE = 500  # events per read when catching up from the store
log = logging.getLogger("chronicle.live")

KEEPALIVE = 15.0  # seconds of silence before a stream says it is still there


class Shown(NamedTuple):
    """An event as one viewer may see it, encoded once: `json` is the event exactly as
    `GET /games/{id}/events` shows it."""

    version: int
    type: str
    json: bytes


_encode = msgspec.json.Encoder().encode


def shown(events: list[StoredEvent]) -> list[Shown]:
    return [Shown(e.version, e.type, _encode(e)) for e in events]


@dataclass
class Batch:
    """The events after version `after` up to version `last`. Only the newest batch keeps the
    aggregate and the stored events (older ones keep what they showed), so a followed game
    holds one aggregate however long it is followed."""

    after: int
    last: int
    finished: bool
    game: Game | None
    events: list[Any]
    shown: dict[str, list[Shown]] = field(default_factory=dict)

    def show(self, access: Access) -> list[Shown] | None:
        """The batch as `access` sees it; None when nobody saw it so while it was the newest
        (it is then read from the store)."""
        viewer = access.viewer(self.finished)  # as `Chronicle.viewer` decides it
        key = str(viewer)
        found = self.shown.get(key)
        if found is None and self.game is not None:
            found = self.shown[key] = shown(reading.present_all(self.game, self.events, viewer))
        return found

    def retire(self) -> None:
        self.game, self.events = None, []


class LiveGame:
    """One followed game in this process: its latest batches, refreshed on every hint."""

    def __init__(self, chronicle: Chronicle, game_id: UUID) -> None:
        self.chronicle = chronicle
        self.game_id = game_id
        self.version = 0
        self.finished = False
        self.batches: deque[Batch] = deque(maxlen=BATCHES)
        self.serial = 0  # rises with every batch
        self.subscribers = 0
        self.changed = asyncio.Condition()
        self._refreshing = False
        self._again = False
        self.unwatch: Any = None

    def hint(self, hint: Hint) -> None:
        if hint.version > self.version:
            asyncio.get_running_loop().create_task(self._refresh_quietly())

    async def _refresh_quietly(self) -> None:
        try:
            await self.refresh()
        except Exception:  # the store is down: the next hint or the poller tries again
            log.exception("reading game %s for its live streams failed", self.game_id)

    async def refresh(self) -> None:
        """Read what the store holds past `version`; concurrent calls fold into one more read."""
        if self._refreshing:
            self._again = True
            return
        self._refreshing = True
        try:
            while True:
                self._again = False
                batch = await asyncio.to_thread(self._read)
                if batch is not None:
                    if self.batches:
                        self.batches[-1].retire()
                    self.batches.append(batch)
                    self.version = batch.last
                    self.finished = batch.finished
                    self.serial += 1
                    async with self.changed:
                        self.changed.notify_all()
                if not self._again:
                    return
        finally:
            self._refreshing = False

    async def wait_past(self, serial: int, timeout: float) -> bool:
        """Wait until a batch after `serial` arrives (True) or `timeout` seconds pass (False)."""
        async with self.changed:
            try:
                await asyncio.wait_for(self.changed.wait_for(lambda: self.serial != serial), timeout)
            except TimeoutError:
                return False
        return True

    def _read(self) -> Batch | None:
        game = self.chronicle.game(self.game_id)  # fast-forwarded from the store: never stale
        if game.version <= self.version:
            return None
        events = self.chronicle.stored_events(self.game_id, gt=self.version, lte=game.version)
        return Batch(self.version, game.version, game.outcome is not None, game, events)

    def oldest(self) -> int:
        """The oldest version after which the batches in memory hold every event."""
        return self.batches[0].after if self.batches else self.version


class LiveGames:
    """The followed games of this process, each opened with its first subscriber and dropped
    with its last."""

    def __init__(self, chronicle: Chronicle, fanout: Fanout) -> None:
        self.chronicle = chronicle
        self.fanout = fanout
        self.games: dict[UUID, LiveGame] = {}

    async def open(self, game_id: UUID) -> LiveGame:
        live = self.games.get(game_id)
        if live is None:
            live = self.games[game_id] = LiveGame(self.chronicle, game_id)
            live.unwatch = self.fanout.watch(str(game_id), live.hint)
        live.subscribers += 1
        try:
            await live.refresh()
        except BaseException:
            self.close(live)
            raise
        return live

    def close(self, live: LiveGame) -> None:
        live.subscribers -= 1
        if live.subscribers <= 0 and self.games.get(live.game_id) is live:
            del self.games[live.game_id]
            live.unwatch()

    def subscribers(self) -> int:
        return sum(live.subscribers for live in self.games.values())

    async def follow(self, game_id: UUID, access: Access, after: int) -> AsyncIterator[list[Shown]]:
        """The game's events after version `after` as `access` may see them, in order, each
        once: a list per step, an empty list after `KEEPALIVE` seconds of silence. Ends after
        the finishing event."""
        live = await self.open(game_id)
        try:
            position = after
            while True:
                if position < live.oldest():  # older than memory: from the store, page by page
                    page = await asyncio.to_thread(
                        self.chronicle.read_events,
                        game_id,
                        access,
                        gt=position,
                        lte=min(position + PAGE, live.oldest()),
                    )
                    if not page:  # nothing stored there (cannot be, versions have no gaps)
                        position = live.oldest()
                        continue
                    position = page[-1].version
                    yield shown(page)
                    continue
                for batch in list(live.batches):
                    if batch.last > position:
                        whole = batch.show(access)
                        if whole is None:
                            read = await asyncio.to_thread(
                                self.chronicle.read_events, game_id, access, gt=position, lte=batch.last
                            )
                            whole = shown(read)
                        fresh = [e for e in whole if e.version > position]
                        position = batch.last
                        if fresh:
                            yield fresh
                if live.finished and position >= live.version:
                    return
                if not await live.wait_past(live.serial, KEEPALIVE):
                    yield []
        finally:
            self.close(live)
