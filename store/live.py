"""Following games live: each subscriber gets the events it has not seen yet, redacted for it.

One `LiveGame` per followed game per process holds the latest aggregate and what the last few
refreshes (`Batch`) showed, read from the store once however many follow the game. A
subscriber starts from a version (0, or the one it resumes after), reads from the store what
is older than the batches in memory (the same read as `GET /games/{id}/events`), then takes
the batches as they come. Every event is shown through the one redaction (`domain/reading.py`
`present_all`, as the events endpoint does); what one batch shows one viewer is kept, so a
hundred spectators cost one redaction. So is what goes on the wire: a stream names how it
frames a list of events (`Frame`: server-sent events, WebSocket messages), and the frame of a
whole batch for one viewer is made once and handed, the same object, to every subscriber who
sees the batch so. A frame is kept per viewer (public, each seat, the omniscient), never per
subscriber, so two viewers never share one: a seat's secrets reach that seat's subscribers only.
Frames are kept for the newest `FRAMED` batches (a subscriber further behind frames its own),
so a followed game holds them at little cost.

A stream that says how it writes (`follow(..., push=)`, the server-sent events) is written to by
the game itself once it is caught up: a batch's fan-out hands each such stream its viewer's
frame in one pass, in the batch's own turn, waking no task (`Pusher`). With thousands of
spectators that pass is most of the work a batch costs, and the kernel's write is most of it.
The fan-out leaves to the stream's own task only what it cannot do at once: a write the client
is slow to take (the task finishes it, and the stream catches up), a batch the viewer must
frame alone, the game's end. Other streams are woken through one future each, resolved
together. One timer per followed game says when it has been silent for `KEEPALIVE` seconds. A
subscriber that finds several batches new to it sends them as one step.

Positions are versions: a subscriber sends each version once, in order, whatever order the
hints (store/fanout.py) arrive in. A finished game is immutable, so a stream ends after its
finishing event. The feed of all games (projections/live_feed.py) follows the store's sequence
the same way, by position.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncGenerator, Callable, Coroutine, Generator
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, TypeVar
from uuid import UUID

import msgspec

from domain import reading
from domain.game import Game
from domain.reading import StoredEvent
from store.app import Access, Chronicle
from store.fanout import Fanout, Hint

BATCHES = 16  # refreshes kept per followed game; an older position is read from the store
FRAMED = 4  # of those, the newest whose frames are kept (a subscriber further behind frames its own)
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


T = TypeVar("T")
# How a stream puts events on its wire: a function of the events (in order, all of one
# viewer's) to what it sends for them. Frames of whole batches are kept per viewer and this
# function, so it must be a function of its argument alone (a module-level one: it is a key).
Frame = Callable[[list[Shown]], T]
# How a stream writes one step (its frames, in order; [] for a keepalive) to its client: a
# coroutine that returns without suspending unless the client is slow to read (flow control).
Write = Callable[[list[T]], Coroutine[Any, Any, None]]


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
    frames: dict[tuple[str, Callable[[list[Shown]], Any]], Any] = field(default_factory=dict)
    keeps_frames: bool = True

    def show(self, access: Access) -> list[Shown] | None:
        """The batch as `access` sees it; None when nobody saw it so while it was the newest
        (it is then read from the store)."""
        viewer = access.viewer(self.finished)  # as `Chronicle.viewer` decides it
        key = str(viewer)
        found = self.shown.get(key)
        if found is None and self.game is not None:
            found = self.shown[key] = shown(reading.present_all(self.game, self.events, viewer))
        return found

    def framed(self, access: Access, frame: Frame[T]) -> T | None:
        """The whole batch as `access` sees it, put on the wire by `frame`: made once per viewer
        and frame, every later subscriber of that viewer gets the same object; None as `show`."""
        key = (str(access.viewer(self.finished)), frame)
        found: T | None = self.frames.get(key)
        if found is None:
            events = self.show(access)
            if events is None:
                return None
            found = frame(events)
            if self.keeps_frames:
                self.frames[key] = found
        return found

    def unframe(self) -> None:
        """Keep no more frames: few subscribers are this far behind."""
        self.keeps_frames = False
        self.frames.clear()

    def retire(self) -> None:
        self.game, self.events = None, []


class Pusher(Generic[T]):
    """A stream the game's fan-out writes to itself while the stream is caught up and idle:
    each batch's frame goes out in the batch's own turn, with no task of the stream's woken.
    Whatever the fan-out cannot do at once (a batch this viewer must frame alone, a write the
    client is slow to take, the game's end, a failure) it leaves to the stream's task, which
    it wakes."""

    __slots__ = ("access", "failed", "frame", "position", "unfinished", "woken", "write")

    def __init__(self, access: Access, frame: Frame[T], write: Write[T]) -> None:
        self.access, self.frame, self.write = access, frame, write
        self.position = 0
        self.woken: asyncio.Future[None] | None = None
        self.unfinished: _Unfinished | None = None
        self.failed: Exception | None = None

    def push(self, step: list[T]) -> bool:
        """Write `step` now; False when the write had to wait (its rest is `unfinished`, for
        the stream's task to finish) or failed (`failed`)."""
        coroutine = self.write(step)
        try:
            waiting = coroutine.send(None)
        except StopIteration:
            return True
        except Exception as error:
            self.failed = error
            return False
        self.unfinished = _Unfinished(coroutine, waiting)
        return False

    def wake(self) -> None:
        if self.woken is not None and not self.woken.done():
            self.woken.set_result(None)


class _Unfinished:
    """The rest of a write that began in the fan-out and had to wait for the client: awaiting
    this carries on the same coroutine where it stopped, as its own `await` would have."""

    __slots__ = ("coroutine", "waiting")

    def __init__(self, coroutine: Coroutine[Any, Any, None], waiting: Any) -> None:
        self.coroutine, self.waiting = coroutine, waiting

    def __await__(self) -> Generator[Any, Any, None]:
        coroutine, waiting = self.coroutine, self.waiting
        while True:
            try:
                sent = yield waiting  # what the coroutine waits on, handed to the awaiting task
            except BaseException as error:  # cancelled, mostly: the coroutine decides
                try:
                    waiting = coroutine.throw(error)
                except StopIteration:
                    return
            else:
                try:
                    waiting = coroutine.send(sent)
                except StopIteration:
                    return


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
        self._waiters: list[asyncio.Future[bool]] = []
        self._ready: list[Pusher[Any]] = []  # caught up and idle: written to by `_fan_out`
        self._quiet: asyncio.TimerHandle | None = None  # fires after `KEEPALIVE` s of silence
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
                    if len(self.batches) >= FRAMED:
                        self.batches[-FRAMED].unframe()
                    self.batches.append(batch)
                    self.version = batch.last
                    self.finished = batch.finished
                    self.serial += 1
                    self._wake(batch)
                if not self._again:
                    return
        finally:
            self._refreshing = False

    def waiter(self) -> asyncio.Future[bool]:
        """A future resolved by the next batch (True) or by `KEEPALIVE` seconds without one
        (False). Each subscriber awaits its own: one cancelled (its client left) wakes nobody
        else."""
        waiter: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        if self._quiet is None:
            self._arm()
        return waiter

    def _wake(self, batch: Batch | None) -> None:
        """A new batch, or (None) `KEEPALIVE` seconds without one."""
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(batch is not None)
        if self._ready:
            self._fan_out(batch)
        self._arm()

    def _fan_out(self, batch: Batch | None) -> None:
        """Write the batch (or a keepalive) to every ready stream that sees it whole, the frame
        of one viewer made once; wake the others' tasks. A stream stays ready while its writes
        go through at once and the game goes on."""
        ready, self._ready = self._ready, []
        for pusher in ready:
            if batch is None:
                written = pusher.push([])
            elif pusher.position != batch.after:  # cannot be (ready means caught up); its task sees
                written = False
            else:
                found = batch.framed(pusher.access, pusher.frame)
                written = found is not None and pusher.push([found])
                if found is not None:  # sent, or being sent (its task finishes the write)
                    pusher.position = batch.last
            if written and not (batch is not None and batch.finished):
                self._ready.append(pusher)
            else:
                pusher.wake()

    def ready(self, pusher: Pusher[Any]) -> None:
        """`pusher` is caught up (at `version`) and waits: the fan-out writes to it from now."""
        self._ready.append(pusher)
        if self._quiet is None:
            self._arm()

    def unready(self, pusher: Pusher[Any]) -> None:
        with suppress(ValueError):
            self._ready.remove(pusher)

    def _arm(self) -> None:
        if self._quiet is not None:
            self._quiet.cancel()
        self._quiet = asyncio.get_running_loop().call_later(KEEPALIVE, self._wake, None)

    def stop(self) -> None:
        """Nobody follows the game here any more: its timer stops."""
        if self._quiet is not None:
            self._quiet.cancel()
            self._quiet = None

    def _read(self) -> Batch | None:
        game = self.chronicle.game(self.game_id)  # fast-forwarded from the store: never stale
        if game.version <= self.version:
            return None
        events = self.chronicle.stored_events(self.game_id, gt=self.version, lte=game.version)
        return Batch(self.version, game.version, game.outcome is not None, game, events)

    def news(self, position: int) -> list[Batch]:
        """The batches in memory with events after version `position`, oldest first (looked
        for from the newest: a subscriber that keeps up wants the last one only)."""
        found = []
        for batch in reversed(self.batches):
            if batch.last <= position:
                break
            found.append(batch)
        found.reverse()
        return found

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
            live.stop()

    def subscribers(self) -> int:
        return sum(live.subscribers for live in self.games.values())

    async def follow(
        self, game_id: UUID, access: Access, after: int, frame: Frame[T], push: Write[T] | None = None
    ) -> AsyncGenerator[list[T], None]:
        """The game's events after version `after` as `access` may see them, in order, each
        once, put on the wire by `frame`: a list of frames per step (a frame per batch or page
        of events), an empty list after `KEEPALIVE` seconds of silence. Ends after the
        finishing event. A whole batch's frame is shared by every subscriber of one viewer.

        With `push` (how the caller writes a step), once caught up the stream is written to by
        the game's fan-out (`Pusher`) and this yields only what the fan-out left to it: a
        step after falling behind, never a keepalive (the fan-out writes those too). The
        caller writes what is yielded with the same `push`."""
        live = await self.open(game_id)
        pusher = Pusher(access, frame, push) if push is not None else None
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
                    yield [frame(shown(page))]
                    continue
                # Taken before the batches are looked at: a batch that comes while this step is
                # sent resolves it, and the next step starts at once. (A pushed stream looks
                # at the version once its step is sent instead.)
                change = live.waiter() if pusher is None else None
                frames: list[T] = []
                for batch in live.news(position):
                    found = batch.framed(access, frame) if batch.after == position else None
                    if found is None:  # part of the batch, or nobody saw it so: shown for this one
                        whole = batch.show(access)
                        if whole is None:
                            read = await asyncio.to_thread(
                                self.chronicle.read_events, game_id, access, gt=position, lte=batch.last
                            )
                            whole = shown(read)
                        fresh = [e for e in whole if e.version > position]
                        found = frame(fresh) if fresh else None
                    position = batch.last
                    if found is not None:
                        frames.append(found)
                if frames:
                    yield frames
                if live.finished and position >= live.version:
                    return
                if change is not None:
                    if not await change:
                        yield []
                elif pusher is not None and position >= live.version:
                    position = await self._pushed(live, pusher, position)
        finally:
            if pusher is not None and pusher.unfinished is not None:
                pusher.unfinished.coroutine.close()
            self.close(live)

    @staticmethod
    async def _pushed(live: LiveGame, pusher: Pusher[Any], position: int) -> int:
        """Leave a caught-up stream to the fan-out until it needs the stream's task; the
        position the fan-out wrote it up to."""
        pusher.position = position
        pusher.woken = asyncio.get_running_loop().create_future()
        live.ready(pusher)
        try:
            await pusher.woken
        finally:
            live.unready(pusher)  # cancelled while ready (the client left)
            pusher.woken = None
        unfinished, pusher.unfinished = pusher.unfinished, None
        if unfinished is not None:
            await unfinished
        if pusher.failed is not None:
            raise pusher.failed
        return pusher.position
