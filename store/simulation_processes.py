"""Bot games played in several processes (`chronicle simulate --jobs N`) and stored in game
order by the one that asked, so that the store ends as one process would leave it.

The asking process plays games too: a helper takes a moment to start (a fresh interpreter
importing the rules of the one game it plays, about 0.25 s), and a short simulation is over
before it is ready. The asking process hands each game out once: to a helper that is ready
(two ahead, so that it never waits for the asking process to finish a game of its own before
it gets its next), or to itself. A helper plays its games in memory and stamps and maps their
events (`Core.stored_form`, the very rows `save_started` inserts), and sends the rows back. The
asking process stores the games strictly in order, several to a transaction as `play_all`
does, so the store's rows (their order, positions, bytes and digests) are those one process
stores.

The helpers are fresh interpreters (`python -m store.simulation_helper`), never forked from the
asking process, which holds a store connection and may hold threads; started as commands, not
through `multiprocessing`, they import neither the asking program again nor any other game.
They open no store: a helper's core keeps nothing (the library's in-memory recorder) and seals
the secrets with the store's key, given by the asking process. They read the asking process's
clock function (`store.clock.now`, which a test may replace with one of its own).

What fails in a helper is raised in the asking process as it was raised there (its type and
message: `chronicle` prints it as it prints a failure in one process); the games gathered for
the next transaction are then dropped, so what is stored is whole games, as in one process. A
helper that dies while it owes a game (killed) fails the simulation too; one that dies before
it was ready leaves its share to the others.

The figure (`.venv/bin/python -m bench.engine --games 50 --store-rounds 4`, two cores, rounds of
50 Dominion games, the helper started inside each): FIGURE_JOBS.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from multiprocessing.connection import Connection, wait
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent as StoredRecord

from domain.ruleset import Ruleset, only_ruleset
from store import clock
from store.core import Core
from store.sealing import sealing_env
from store.simulation import Played, played_in_memory

AHEAD = 2  # games a helper holds at once: the one it plays, and its next
WAIT = 0.5  # seconds between looks at whether the helpers still live, while waiting on them
STOP_WAIT = 5.0  # seconds a helper gets to end by itself once every game is stored

# One game's rows as a helper sends them: per stream, its id and its (version, topic, state),
# so that a stream's id crosses once rather than once per event.
Packed = list[tuple[bytes, list[tuple[int, str, bytes]]]]


@dataclass(frozen=True)
class Games:
    """What every process plays: `indexes` of `seed`, with these players, options and cap."""

    ruleset_id: str
    seed: str
    indexes: tuple[int, ...]
    names: list[str]
    options: dict[str, Any]
    cap: int
    sealing: dict[str, str]  # the library's settings that seal secrets with the store's key
    now: Callable[[], datetime]  # the asking process's clock


class _Unstored(Core):
    """A core with no store behind it: it starts games, and stamps and maps their events as
    the store's core does, its secrets sealed with the store's key."""

    name = Core.name  # the library reads the settings under the application's name

    def __init__(self, sealing: dict[str, str]) -> None:
        self._sealing = sealing
        super().__init__("memory:")

    def _environment(self) -> dict[str, str]:
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"} | self._sealing


def _packed(stored: list[StoredRecord]) -> Packed:
    packed: Packed = []
    stream: UUID | str | None = None
    for record in stored:
        if record.originator_id != stream:
            stream = record.originator_id
            assert isinstance(stream, UUID)
            packed.append((stream.bytes, []))
        packed[-1][1].append((record.originator_version, record.topic, record.state))
    return packed


def _unpacked(packed: Packed) -> list[StoredRecord]:
    stored: list[StoredRecord] = []
    for stream, rows in packed:
        game_id = UUID(bytes=stream)
        stored += [StoredRecord(game_id, version, topic, state) for version, topic, state in rows]
    return stored


def _portable(error: BaseException) -> BaseException:
    """`error` as it can cross to the asking process: itself, or, if it does not survive the
    crossing, a RuntimeError that names it."""
    try:
        return pickle.loads(pickle.dumps(error))  # type: ignore[no-any-return]
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")


def helper(orders: Connection, answers: Connection) -> None:
    """A helper's life (store/simulation_helper.py): take the asking process's path and games,
    say it is ready, then play each game handed to it until it is handed None, answering
    (place, Played, rows, None) for each, or (place, None, None, error) and end.

    The answers are sent by a thread of their own: a game's rows fill a pipe several times
    over, and the asking process reads them only between games of its own, so the helper
    plays on meanwhile rather than wait for it."""
    sys.path[:] = orders.recv()  # where the asking process finds its modules (a test's clock)
    outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()

    def send() -> None:
        while (answer := outbox.get()) is not None:
            try:
                answers.send_bytes(answer)
            except OSError:  # the asking process is gone: the next order tells the helper
                return

    sender = threading.Thread(target=send, name="answers", daemon=True)
    sender.start()
    place: int | None = None
    try:
        games: Games = orders.recv()
        clock.now = games.now
        app = _Unstored(games.sealing)
        ruleset = only_ruleset(games.ruleset_id)
        if ruleset is None:
            raise ValueError(f"there is no ruleset {games.ruleset_id!r} in a helper process")
        outbox.put(pickle.dumps(None))  # ready
        while (place := orders.recv()) is not None:
            started, played = played_in_memory(
                app, ruleset, games.seed, games.indexes[place], games.names, games.options, games.cap
            )
            outbox.put(pickle.dumps((place, played, _packed(app.stored_form(started)), None)))
    except EOFError:  # the asking process is gone, or done with this helper
        pass
    except BaseException as error:
        outbox.put(pickle.dumps((place, None, None, _portable(error))))
    outbox.put(None)
    sender.join()


@dataclass
class _Helper:
    """A helper as the asking process sees it: its process, its pipes, and the places of the
    games it holds."""

    process: subprocess.Popen[bytes]
    orders: Connection
    answers: Connection
    holds: list[int] = field(default_factory=list)

    @classmethod
    def start(cls, games: Games) -> _Helper:
        orders_read, orders_write = os.pipe()
        answers_read, answers_write = os.pipe()
        command = [sys.executable, "-m", "store.simulation_helper", str(orders_read), str(answers_write)]
        # its own session: Ctrl-C stops the asking process, which ends its helpers
        process = subprocess.Popen(command, pass_fds=(orders_read, answers_write), start_new_session=True)
        os.close(orders_read)
        os.close(answers_write)
        orders = Connection(orders_write, readable=False)
        orders.send(sys.path)
        orders.send(games)
        return cls(process, orders, Connection(answers_read, writable=False))

    def stop(self, waiting: float) -> None:
        """End it: told to (given `waiting` seconds to), or at once, amid whatever it plays."""
        if waiting:
            with contextlib.suppress(OSError):  # it ended already
                self.orders.send(None)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(waiting)
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.orders.close()
        self.answers.close()


class _Handing:
    """The games in hand: who plays which, and those played and not stored yet."""

    def __init__(self, indexes: tuple[int, ...], helpers: list[_Helper]) -> None:
        self.indexes = indexes
        self.helpers = helpers
        self.next = 0  # the place of the next game nobody holds
        self.ready: dict[int, tuple[Played, list[StoredRecord]]] = {}

    def take(self) -> int | None:
        if self.next >= len(self.indexes):
            return None
        self.next += 1
        return self.next - 1

    def gather(self, block: bool) -> None:
        """Take what the helpers sent (waiting for something with `block`), handing each
        ready helper its next games; raise what failed in one."""
        waiting = [h.answers for h in self.helpers]
        if not waiting:
            return
        for answers in wait(waiting, WAIT if block else 0):
            one = next(h for h in self.helpers if h.answers is answers)
            while one in self.helpers and one.answers.poll():
                self._answered(one)

    def _answered(self, one: _Helper) -> None:
        try:
            answer = one.answers.recv()
        except (EOFError, OSError):  # it ended without a word (or in the middle of one)
            self._lost(one)
            return
        if answer is not None:  # None: it is ready
            place, played, packed, error = answer
            if error is not None:
                raise error
            one.holds.remove(place)
            self.ready[place] = (played, _unpacked(packed))
        while len(one.holds) < AHEAD and (place := self.take()) is not None:
            one.holds.append(place)
            try:
                one.orders.send(place)
            except OSError:
                self._lost(one)
                return

    def _lost(self, one: _Helper) -> None:
        """A helper ended: it fails the simulation if it held a game."""
        self.helpers.remove(one)
        code = one.process.wait()
        if one.holds:
            raise RuntimeError(
                f"a process simulating games ended (exit code {code}) before its game was stored"
            )


def play_in_processes(
    app: Core,
    ruleset: Ruleset[Any, Any, Any],
    seed: str,
    indexes: Sequence[int],
    names: list[str],
    options: dict[str, Any],
    cap: int,
    batch: int,
    jobs: int,
) -> Iterator[Played]:
    """`play_all` with `jobs` processes playing, this one among them: the same games, stored
    in the same order and transactions; each game's `Played` given once it is stored."""
    places = tuple(indexes)
    games = Games(ruleset.meta.id, seed, places, names, options, cap, sealing_env(app.url), clock.now)
    helpers: list[_Helper] = []
    stored_all = False
    try:
        for _ in range(min(jobs, len(places)) - 1):
            helpers.append(_Helper.start(games))
        hand = _Handing(places, list(helpers))
        waiting: list[tuple[Played, list[StoredRecord]]] = []
        events = 0
        for place in range(len(places)):
            while place not in hand.ready:
                hand.gather(block=False)
                if place in hand.ready:
                    break
                mine = hand.take()
                if mine is None:  # every game is handed out: wait for the helpers'
                    if not hand.helpers:
                        raise RuntimeError(
                            "the processes simulating games ended before their games were stored"
                        )
                    hand.gather(block=True)
                    continue
                started, played = played_in_memory(app, ruleset, seed, places[mine], names, options, cap)
                hand.ready[mine] = (played, app.stored_form(started))
            played, stored = hand.ready.pop(place)
            waiting.append((played, stored))
            events += len(stored)
            if events >= batch:
                app.save_stored([record for _, rows in waiting for record in rows])
                yield from (p for p, _ in waiting)
                waiting, events = [], 0
        if waiting:
            app.save_stored([record for _, rows in waiting for record in rows])
            yield from (p for p, _ in waiting)
        stored_all = True
    finally:
        for one in helpers:
            one.stop(STOP_WAIT if stored_all else 0)
