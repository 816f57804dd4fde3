"""Bot games played in several processes (`chronicle simulate --jobs N`, `play_in`) and stored
in game order by the one that asked, so that the store ends as one process would leave it.

The asking process plays games too, and hands each game out once: to a helper that is ready
(two ahead, so that it never waits for the asking process to finish a game of its own before
it gets its next), or to itself. A helper plays its games in memory and stamps and maps their
events (`Core.stored_form`, the very rows `save_started` inserts), and sends the rows back
from a thread of its own while it plays on. The asking process stores the games strictly in
order, several to a transaction as `play_all` does, so the store's rows (their order,
positions, bytes and digests) are those one process stores.

How a helper starts. `chronicle simulate` starts its helpers before it opens the store
(`start_helpers`): on Linux, with no thread but its own, it forks them, which takes a few
milliseconds, and a forked helper holds no store connection, since none was open, and no
other thread. Otherwise (macOS, whose system libraries refuse to run on in a forked child; a
process with threads; or helpers started once a store is open) a helper is a fresh interpreter
(`python -m store.simulation_helper`) that imports the one game it plays, about a quarter of a
second, during which the asking process plays alone. Either way a helper runs in a session of
its own, opens no store (its core keeps nothing: the library's in-memory recorder), seals the
secrets with the store's key, given by the asking process, and reads the asking process's clock
function (`store.clock.now`, which a test may replace with one of its own).

What fails in a helper is raised in the asking process as it was raised there (its type and
message: `chronicle` prints it as it prints a failure in one process); the games gathered for
the next transaction are then dropped, so what is stored is whole games, as in one process. A
helper that dies while it owes a game (killed) fails the simulation too; one that dies before
it was ready leaves its share to the others. Ctrl-C ends the asking process, which ends its
helpers; a helper whose asking process is gone ends after its game.

The figure (`.venv/bin/python -m bench.engine --games 50 --store-rounds 4`: rounds of 50
Dominion games, the helper forked inside each, two cores otherwise idle), five runs:
simulate with the default two jobs at 0.50 to 0.52 of the engine alone's games per second
(92.1 games/s against 177.8 in one), against 0.33 in one process. Before the collector waited
for 50,000 young objects (store/collector.py) and this process took three games for every
four a helper gets, rather than one for two, two jobs gave 0.44 to 0.46. What two processes
spend beyond one is sending the rows across and taking them in. Where other work kept one of
the two cores busy, the two ways came out alike (0.28 to 0.39).
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from multiprocessing.connection import Connection, wait
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent as StoredRecord

from domain.ruleset import Ruleset, only_ruleset
from store import clock
from store.collector import SIMULATE_YOUNG_OBJECTS, fewer_collections
from store.core import Core
from store.sealing import sealing_env
from store.simulation import ACTION_CAP, BATCH_EVENTS, Played, play_all, played_in_memory

AHEAD = 2  # games a helper holds at once: the one it plays, and its next
WAIT = 0.5  # seconds between looks at whether the helpers still live, while waiting on them
STOP_WAIT = 5.0  # seconds a helper gets to end by itself once every game is stored
WRITING = 4  # transactions waiting for their commit at most, so that rows do not pile up

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
    gc.set_threshold(SIMULATE_YOUNG_OBJECTS, *gc.get_threshold()[1:])  # as the asking process (`play_in`)
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


class _Forked:
    """A forked helper's process, with what the asking process uses of `subprocess.Popen`."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if timeout is None and self.returncode is None:
            self.returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        deadline = time.monotonic() + (timeout or 0)
        while (code := self.poll()) is None:
            if time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(f"helper {self.pid}", timeout or 0)
            time.sleep(0.005)
        return code

    def kill(self) -> None:
        if self.poll() is None:
            os.kill(self.pid, signal.SIGKILL)


# the asking process's ends of every helper's pipes: a helper forked later closes them, so that
# a helper sees the asking process go (its orders end) whatever other helpers hold
_ASKING_ENDS: set[int] = set()


def _may_fork() -> bool:
    """Whether this process may be forked safely: on Linux (macOS's system libraries refuse to
    run on in a forked child), with no thread but this one. The caller opened no store yet."""
    return sys.platform == "linux" and threading.active_count() == 1


@dataclass
class _Helper:
    """A helper as the asking process sees it: its process, its pipes, and the places of the
    games it holds."""

    process: subprocess.Popen[bytes] | _Forked
    orders: Connection
    answers: Connection
    holds: list[int] = field(default_factory=list)
    stopped: bool = False

    @classmethod
    def launch(cls, fork: bool) -> _Helper:
        """A helper waiting for its games (`send`): forked from this process, which is then to
        hold no store connection and no other thread, or else a fresh interpreter."""
        orders_read, orders_write = os.pipe()
        answers_read, answers_write = os.pipe()
        process: subprocess.Popen[bytes] | _Forked
        if fork:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:  # the helper: its own session, as a fresh one's, and never back here
                code = 1
                try:
                    # what it inherited stays as it is: the collector would copy every page of
                    # it in walking it, and none of it is garbage the helper makes
                    gc.freeze()
                    os.setsid()
                    for end in (orders_write, answers_read, *_ASKING_ENDS):
                        os.close(end)
                    helper(Connection(orders_read, writable=False), Connection(answers_write, readable=False))
                    code = 0
                finally:
                    os._exit(code)
            process = _Forked(pid)
        else:
            command = [sys.executable, "-m", "store.simulation_helper", str(orders_read), str(answers_write)]
            # its own session: Ctrl-C stops the asking process, which ends its helpers
            process = subprocess.Popen(command, pass_fds=(orders_read, answers_write), start_new_session=True)
        os.close(orders_read)
        os.close(answers_write)
        _ASKING_ENDS.update((orders_write, answers_read))
        return cls(
            process, Connection(orders_write, readable=False), Connection(answers_read, writable=False)
        )

    def send(self, games: Games) -> None:
        self.orders.send(sys.path)
        self.orders.send(games)

    def stop(self, waiting: float) -> None:
        """End it: told to (given `waiting` seconds to), or at once, amid whatever it plays."""
        if self.stopped:
            return
        self.stopped = True
        if waiting:
            with contextlib.suppress(OSError):  # it ended already
                self.orders.send(None)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(waiting)
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        _ASKING_ENDS.difference_update((self.orders.fileno(), self.answers.fileno()))
        self.orders.close()
        self.answers.close()


def start_helpers(count: int) -> list[_Helper]:
    """`count` helpers, started before the store is opened so that they may be forked from this
    process (a few milliseconds, against a fresh interpreter's quarter second), which is safe
    while it holds no store connection and runs no other thread; else fresh interpreters.
    `play_in` takes them; `stop_helpers` ends those it did not."""
    fork = _may_fork()
    return [_Helper.launch(fork) for _ in range(count)]


def stop_helpers(helpers: Sequence[_Helper]) -> None:
    for one in helpers:
        one.stop(0)


class _Handing:
    """The games in hand: who plays which, and those played and not stored yet."""

    def __init__(self, indexes: tuple[int, ...], helpers: list[_Helper]) -> None:
        self.indexes = indexes
        self.helpers = helpers
        self.next = 0  # the place of the next game nobody holds
        self.ready: dict[int, tuple[Played, list[StoredRecord]]] = {}
        self.mine = self.theirs = 0  # games this process took, and those handed to helpers
        self.started: set[int] = set()  # the helpers that said they are ready (by id)

    def take(self) -> int | None:
        if self.next >= len(self.indexes):
            return None
        self.next += 1
        return self.next - 1

    def take_mine(self) -> int | None:
        """A game for this process to play, or None: every game is taken, or this process
        has played its share. It stores every game besides (about a fifth of a game's work
        each), so once a helper is ready it plays three games for every four each helper gets
        (`bench.engine` with two jobs: 0.50 to 0.52 of the engine alone's rate, against 0.46
        to 0.50 at one for two): playing more, it would still be storing them when the
        helpers are done."""
        helping = sum(1 for h in self.helpers if id(h) in self.started)
        if helping and self.mine * 4 * helping > self.theirs * 3:
            return None
        place = self.take()
        if place is not None:
            self.mine += 1
        return place

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
        self._heard(one, answer)
        while len(one.holds) < AHEAD and (place := self.take()) is not None:
            self.theirs += 1
            one.holds.append(place)
            try:
                one.orders.send(place)
            except OSError:
                self._lost(one)
                return

    def _heard(self, one: _Helper, answer: Any) -> None:
        """A helper's answer: None (it is ready), a game it played, or what failed in it."""
        if answer is None:
            self.started.add(id(one))
        else:
            place, played, packed, error = answer
            if error is not None:
                raise error
            one.holds.remove(place)
            self.ready[place] = (played, _unpacked(packed))

    def _lost(self, one: _Helper) -> None:
        """A helper ended: it fails the simulation if it held a game. What it said before it
        ended (a game, or what failed in it) is heard first."""
        self.helpers.remove(one)
        with contextlib.suppress(EOFError, OSError):
            while one.answers.poll():
                self._heard(one, one.answers.recv())
        code = one.process.wait()
        if one.holds:
            raise RuntimeError(
                f"a process simulating games ended (exit code {code}) before its game was stored"
            )


def play_in(
    jobs: int,
    app: Core,
    ruleset: Ruleset[Any, Any, Any],
    seed: str,
    indexes: Iterable[int],
    names: list[str],
    options: dict[str, Any],
    cap: int = ACTION_CAP,
    batch: int = BATCH_EVENTS,
    helpers: Sequence[_Helper] = (),
) -> Iterator[Played]:
    """`play_all` with `jobs` processes playing, this one among them (with one, `play_all`
    itself): the same games, stored in the same order and transactions; each game's `Played`
    given once it is stored. `helpers`: from `start_helpers` (else they are started here, as
    fresh interpreters: a store is open); those not needed are ended at once."""
    with fewer_collections(SIMULATE_YOUNG_OBJECTS):
        places = tuple(indexes)
        wanted = max(0, min(jobs, len(places)) - 1)
        stop_helpers(helpers[wanted:])
        if wanted == 0:
            yield from play_all(app, ruleset, seed, places, names, options, cap, batch)
            return
        games = Games(ruleset.meta.id, seed, places, names, options, cap, sealing_env(app.url), clock.now)
        helping = list(helpers[:wanted])
        stored_all = False
        # The transactions are committed by a thread of their own, in order, while this one plays
        # on: a commit waits for the disk, and the interpreter's lock is free meanwhile.
        writer = ThreadPoolExecutor(1, "simulate-store")
        writing: deque[tuple[Future[None], list[Played]]] = deque()

        def stored(wait: bool, beyond: int = 0) -> Iterator[Played]:
            """The games of the transactions committed (waiting, with `wait`, for all but the last
            `beyond`)."""
            while len(writing) > beyond and (wait or writing[0][0].done()):
                done, played = writing.popleft()
                done.result()
                yield from played

        try:
            helping += [_Helper.launch(fork=False) for _ in range(wanted - len(helping))]
            for one in helping:
                one.send(games)
            hand = _Handing(places, list(helping))
            waiting: list[tuple[Played, list[StoredRecord]]] = []
            events = 0
            for place in range(len(places)):
                yield from stored(wait=False)
                while place not in hand.ready:
                    hand.gather(block=False)
                    if place in hand.ready:
                        break
                    mine = hand.take_mine()
                    if mine is None:  # every game is handed out, or this process has its share
                        if not hand.helpers:
                            raise RuntimeError(
                                "the processes simulating games ended before their games were stored"
                            )
                        hand.gather(block=True)
                        continue
                    started, played = played_in_memory(app, ruleset, seed, places[mine], names, options, cap)
                    hand.ready[mine] = (played, app.stored_form(started))
                played, rows = hand.ready.pop(place)
                waiting.append((played, rows))
                events += len(rows)
                if events >= batch or place == len(places) - 1:
                    records = [record for _, game_rows in waiting for record in game_rows]
                    writing.append((writer.submit(app.save_stored, records), [p for p, _ in waiting]))
                    waiting, events = [], 0
                    yield from stored(wait=True, beyond=WRITING)  # a slow disk holds up play
            yield from stored(wait=True)
            stored_all = True
        finally:
            # what is being committed is whole games: it is let finish, and nothing after it begun
            writer.shutdown(wait=True, cancel_futures=True)
            for one in helping:
                one.stop(STOP_WAIT if stored_all else 0)
