"""News of appends, spread to the live streams of this process and of every other.

A `Hint` says "game G has reached version V (at position P of the store's sequence)". It is a
wake-up call and nothing more: a live stream that hears one reads what it has not yet sent
from the event store, by version, so a hint lost, repeated or out of order costs a little
latency and never a gap or a duplicate. Redis is transport, not history.

Hints come from three places, all delivered to the watchers registered in this process:

- this process's own writes, at once (the application calls `saved` after every save);
- other processes' writes, through Redis pub/sub (Litestar channels with its Redis backend,
  one channel per store namespace) when `CHRONICLE_REDIS` is set;
- the store itself: a poller reads the sequence after its last position, every few seconds
  while Redis carries the news (a safety net), often while Redis is down or unset (so a
  stream on process B still sees writes made through process A, late but complete).

When the Redis link breaks it is rebuilt in the background; once it is back, the poller runs
at once, so what was published while it was down is read from the store.

Mutants judged equivalent (bench/mutation.py, group news): a hint's position left out of a
local save's hints (no watcher reads it), and `saved` going on with no loop (a fanout not
started is nobody's listener).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Any
from uuid import UUID

import msgspec

from domain.game import Game
from store.core import Core
from store.requests import Appended
from store.sequence import latest_after

log = logging.getLogger("chronicle.live")

FEED = "*"  # watchers of every game
GAME_TOPICS = (
    Game.Created.TOPIC,
    Game.ActionRecorded.TOPIC,
    Game.FactRecorded.TOPIC,
    Game.Retracted.TOPIC,
    Game.RetractionRequested.TOPIC,
    Game.RetractionAnswered.TOPIC,
    Game.Finished.TOPIC,
)
# seconds between reads of the sequence while Redis carries the news (`CHRONICLE_LIVE_POLL`)
POLL_WHILE_LINKED = 2.0
POLL_UNLINKED = 0.25  # ... while it does not
RELINK_DELAY = 0.5
PAGE = 500  # notifications per read of the sequence
STOP_WAIT = 2.0  # seconds a stopping process waits for its background tasks


class Hint(msgspec.Struct, array_like=True, frozen=True):
    game_id: str
    version: int
    position: int


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


Watcher = Callable[[Hint], None]
_HINTS = msgspec.json.Decoder(list[Hint])
_ENCODE = msgspec.json.Encoder().encode


class Fanout:
    """One per server process: who here waits for which game, and how news reaches them."""

    def __init__(self, chronicle: Core, redis_url: str | None = None, namespace: str = "chronicle") -> None:
        self.chronicle = chronicle
        self.redis_url = redis_url
        self.channel = f"{namespace}:appended"
        self.linked = False  # the Redis link is up
        self.poll_while_linked = float(os.environ.get("CHRONICLE_LIVE_POLL") or POLL_WHILE_LINKED)
        self.position = 0  # the poller's position in the store's sequence
        self._watchers: dict[str, set[Watcher]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._outbox: asyncio.Queue[bytes] | None = None
        self._poll_now: asyncio.Event | None = None
        self._backend: Any = None
        self._lock = threading.Lock()

    @property
    def mode(self) -> str:
        return "redis" if self.redis_url else "in-process"

    # -- lifecycle (in the event loop) ------------------------------------------------------

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._outbox = asyncio.Queue(maxsize=10_000)
        self._poll_now = asyncio.Event()
        self.position = await asyncio.to_thread(lambda: self.chronicle.recorder.max_notification_id() or 0)
        self.chronicle.listeners.append(self.saved)
        self._tasks.append(asyncio.create_task(self._poll_store(), name="live-poll"))
        if self.redis_url:
            self._tasks.append(asyncio.create_task(self._link(), name="live-redis"))
            self._tasks.append(asyncio.create_task(self._publish(), name="live-publish"))

    async def stop(self) -> None:
        with suppress(ValueError):
            self.chronicle.listeners.remove(self.saved)
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            # a task that does not end when cancelled must not hold the server's shutdown
            done, stuck = await asyncio.wait(self._tasks, timeout=STOP_WAIT)
            for task in done:
                if not task.cancelled():
                    task.exception()  # taken, so that asyncio does not report it again at exit
            for task in stuck:
                log.warning("live streams: task %s did not stop", task.get_name())
        self._tasks.clear()
        await self._drop_backend()

    # -- watching (in the event loop) -------------------------------------------------------

    def watch(self, key: str, watcher: Watcher) -> Callable[[], None]:
        """Call `watcher` with every hint about game `key` (or every game: `FEED`); returns the
        function that stops it."""
        self._watchers.setdefault(key, set()).add(watcher)

        def unwatch() -> None:
            found = self._watchers.get(key)
            if found is not None:
                found.discard(watcher)
                if not found:
                    del self._watchers[key]

        return unwatch

    def feed_watchers(self) -> int:
        return len(self._watchers.get(FEED, ()))

    def _deliver(self, hints: list[Hint]) -> None:
        for hint in hints:
            self.chronicle.heard(hint.game_id, hint.version)
            for key in (hint.game_id, FEED):
                for watcher in list(self._watchers.get(key, ())):
                    try:
                        watcher(hint)
                    except Exception:  # one broken stream must not stop the news for others
                        log.exception("a live watcher failed")

    # -- this process's writes (on the event loop, or in the thread that saved) -------------

    def saved(self, appended: list[Appended]) -> None:
        loop = self._loop
        # News that no stream here follows and no other process hears (without Redis they
        # read the store) is not made: the busiest tables often have no spectator.
        if loop is None or not (self._watchers or self.redis_url):
            return
        last: dict[UUID, Appended] = {}
        for event in appended:  # a save's events of one game come in version order
            if event.topic in GAME_TOPICS:
                last[event.originator_id] = event
        hints = [Hint(str(e.originator_id), e.originator_version, e.position) for e in last.values()]
        if not hints:
            return
        if _running_loop() is loop:  # saved on the loop itself: no need to wake it
            loop.call_soon(self._local_write, hints)
            return
        with suppress(RuntimeError):  # the loop closed meanwhile: the server is stopping
            loop.call_soon_threadsafe(self._local_write, hints)

    def _local_write(self, hints: list[Hint]) -> None:
        self._deliver(hints)
        if self._outbox is not None and self.redis_url:
            with suppress(asyncio.QueueFull):  # the store poller covers what is dropped
                self._outbox.put_nowait(_ENCODE(hints))

    # -- the store as a source of hints -------------------------------------------------

    async def _poll_store(self) -> None:
        assert self._poll_now is not None
        while True:
            try:
                hints = await asyncio.to_thread(self._read_sequence)
                if hints:
                    self._deliver(hints)
            except Exception:
                log.exception("reading the store's sequence for live streams failed")
            interval = self.poll_while_linked if self.linked else POLL_UNLINKED
            with suppress(TimeoutError):
                await asyncio.wait_for(self._poll_now.wait(), interval)
            self._poll_now.clear()

    def _read_sequence(self) -> list[Hint]:
        found: dict[str, Hint] = {}
        while True:
            page = latest_after(self.chronicle.recorder, self.position, PAGE, GAME_TOPICS)
            for game in page.latest:
                found.pop(game.game_id, None)  # a later page's hint of a game replaces its earlier one
                found[game.game_id] = Hint(game.game_id, game.version, game.position)
            if page.end is not None:
                self.position = page.end
            if page.read < PAGE:
                return list(found.values())

    # -- Redis ----------------------------------------------------------------------------

    async def _link(self) -> None:
        """Keep one subscription to the namespace's channel, rebuilt whenever it breaks."""
        from litestar.channels.backends.redis import RedisChannelsPubSubBackend
        from redis.asyncio import Redis

        assert self._poll_now is not None and self.redis_url is not None
        while True:
            try:
                client = Redis.from_url(self.redis_url, socket_connect_timeout=2, health_check_interval=5)
                self._backend = RedisChannelsPubSubBackend(redis=client, stream_sleep_no_subscriptions=100)
                await self._backend.on_startup()
                await self._backend.subscribe([self.channel])
                await client.ping()
                self.linked = True
                self._poll_now.set()  # read what was published while the link was down
                log.info("live streams: Redis link up")
                async for _channel, payload in self._backend.stream_events():
                    self._deliver(_HINTS.decode(payload))
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if self.linked:
                    log.warning("live streams: Redis link lost (%s); reading the store meanwhile", error)
            self.linked = False
            self._poll_now.set()  # the poller may be in a long wait: it reads often from now on
            await self._drop_backend()
            await asyncio.sleep(RELINK_DELAY)

    async def _publish(self) -> None:
        assert self._outbox is not None
        while True:
            payload = await self._outbox.get()
            backend = self._backend
            if backend is None or not self.linked:
                continue  # the others read the store meanwhile
            try:
                await backend.publish(payload, [self.channel])
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("live streams: publishing to Redis failed (%s)", error)

    async def _drop_backend(self) -> None:
        backend, self._backend = self._backend, None
        if backend is not None:
            with suppress(Exception):
                await backend.on_shutdown()
            with suppress(Exception):
                await backend._redis.aclose()
