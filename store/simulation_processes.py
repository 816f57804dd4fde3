"""Bot games played in several processes (`chronicle simulate --jobs N`) and stored in game
order by the one that asked, so that the store ends as one process would leave it.

The asking process plays games too: the others take a moment to start (a fresh interpreter
importing the rules, about 0.4 s), and a short simulation is over before they are ready. Each
process takes the next game not yet taken (a counter they share), plays it in memory, and
stamps and maps its events (`Core.stored_form`, the very rows `save_started` inserts); a
helper sends its rows back. The asking process stores the games strictly in order, several to
a transaction as `play_all` does, so the store's rows (their order, positions, bytes and
digests) are those one process stores.

The helpers are started fresh (`spawn`), never forked from the asking process, which holds a
store connection and may hold threads. They open no store: a helper's core keeps nothing
(the library's in-memory recorder) and seals the secrets with the store's key, given by the
asking process. They read the asking process's clock function (`store.clock.now`, which a
test may replace with one of its own).

What fails in a helper is raised in the asking process as it was raised there (its type and
message: `chronicle` prints it as it prints a failure in one process), once the games before
it in the batch being gathered are dropped: what is stored is whole games, as in one process.
A helper that dies without a word (killed) fails the simulation too.
"""

from __future__ import annotations

import multiprocessing
import pickle
import queue
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from multiprocessing.process import BaseProcess
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent as StoredRecord

from domain.ruleset import Ruleset, only_ruleset
from store import clock
from store.core import Core
from store.sealing import sealing_env
from store.simulation import Played, played_in_memory

WAIT = 0.5  # seconds between looks at whether the helpers still live, while waiting on them
STOP_WAIT = 5.0  # seconds a helper gets to end by itself once every game is taken

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


def _take(counter: Any, total: int) -> int | None:
    """The place in the games of the next game nobody took yet (None: all are taken)."""
    with counter.get_lock():
        place: int = counter.value
        if place >= total:
            return None
        counter.value = place + 1
    return place


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


def _help(games: Games, counter: Any, results: Any) -> None:
    """A helper: play the games nobody took yet, sending each one's rows (or what failed)."""
    # Ctrl-C stops the asking process, which ends its helpers; they leave it the message.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    clock.now = games.now
    place: int | None = None
    try:
        app = _Unstored(games.sealing)
        ruleset = only_ruleset(games.ruleset_id)
        if ruleset is None:
            raise ValueError(f"there is no ruleset {games.ruleset_id!r} in a helper process")
        while (place := _take(counter, len(games.indexes))) is not None:
            index = games.indexes[place]
            started, played = played_in_memory(
                app, ruleset, games.seed, index, games.names, games.options, games.cap
            )
            results.put((place, played, _packed(app.stored_form(started)), None))
    except BaseException as error:
        results.put((place, None, None, _portable(error)))


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
    indexes = tuple(indexes)
    games = Games(ruleset.meta.id, seed, indexes, names, options, cap, sealing_env(app.url), clock.now)
    context = multiprocessing.get_context("spawn")
    counter = context.Value("i", 0)
    results = context.Queue()
    helpers: list[BaseProcess] = []
    # rows and `Played` of the games played and not stored yet, by their place in `indexes`
    ready: dict[int, tuple[Played, list[StoredRecord]]] = {}
    stored_all = False
    try:
        for _ in range(min(jobs, len(indexes)) - 1):
            helpers.append(context.Process(target=_help, args=(games, counter, results), daemon=True))
            helpers[-1].start()
        waiting: list[tuple[Played, list[StoredRecord]]] = []
        events = 0
        for place in range(len(indexes)):
            while place not in ready:
                _gather(ready, results, block=False)
                if place in ready:
                    break
                mine = _take(counter, len(indexes))
                if mine is None:  # every game is taken: wait for the helpers'
                    _gather(ready, results, block=True, helpers=helpers)
                    continue
                started, played = played_in_memory(app, ruleset, seed, indexes[mine], names, options, cap)
                ready[mine] = (played, app.stored_form(started))
            played, stored = ready.pop(place)
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
        with counter.get_lock():
            counter.value = len(indexes)  # nothing more is taken
        for helper in helpers:
            if stored_all:  # it ends by itself, finding no game left
                helper.join(STOP_WAIT)
            if helper.is_alive():  # playing a game that will not be stored
                helper.terminate()
            helper.join()
        results.close()
        results.cancel_join_thread()


def _gather(
    ready: dict[int, tuple[Played, list[StoredRecord]]],
    results: Any,
    *,
    block: bool,
    helpers: Sequence[BaseProcess] = (),
) -> None:
    """Take the games the helpers sent (waiting for one with `block`), raising what failed
    in one of them."""
    while True:
        try:
            place, played, packed, error = results.get(timeout=WAIT) if block else results.get_nowait()
        except queue.Empty:
            if not block:
                return
            dead = [h.exitcode for h in helpers if h.exitcode is not None and h.exitcode != 0]
            if dead or all(h.exitcode is not None for h in helpers):
                # a helper's last game is in the queue before it ends: look once more
                try:
                    place, played, packed, error = results.get(timeout=WAIT)
                except queue.Empty:
                    code = dead[0] if dead else 0
                    raise RuntimeError(
                        f"a process simulating games ended with exit code {code} before its game was stored"
                    ) from None
            else:
                continue
        if error is not None:
            raise error
        ready[place] = (played, _unpacked(packed))
        block = False
