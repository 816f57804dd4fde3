"""Group commit: appends that arrive together share one transaction, and so one sync to disk.

A commit on SQLite waits for the disk (`fsync` of the write-ahead log, milliseconds), and SQLite
takes one writer at a time: one transaction per recorded action made every table queue behind
every other table's sync. Here the writers queue instead, and the first in line (the leader)
writes everything queued behind it in one transaction, then hands the lead to whoever queued
meanwhile. Nobody waits on a timer: a batch is whatever arrived while the last one synced, so
one table alone commits as before and many tables share their syncs.

The figure (`bench.group_commit`): 16 tables recording through one process at once, 1,454
actions a second against 1,163 with one transaction per action (1.25 times).

Each append keeps its own outcome:

- The batch's events are inserted in one statement. When a version clashes there (another
  write took it first, maybe an append earlier in the same batch), that statement is undone
  and each append runs in its own savepoint: the clashing append alone is rolled back and
  raises `IntegrityError` to its caller, who reads the stream again and retries or refuses,
  as before; the others in the batch commit.
- Any other error while the batch is written rolls the whole transaction back, and the batch
  is written again one append per transaction, as without group commit, so one bad append
  fails only itself.
- The transaction takes the write lock as it begins (`BEGIN IMMEDIATE`, store/sqlite.py),
  waiting for other processes' writes up to the lock timeout. When the wait runs out, every
  append of the batch fails with that error: none was written, and writing them one by one
  would only wait again, once each.
- An append is answered only after the commit that holds it returned. A commit that fails
  fails every append in it: none of them is acknowledged, and none is retried here (a commit
  whose outcome is unknown must not be written a second time).

Mutants judged equivalent (bench/mutation.py, group append): the SQL keywords and the
savepoint's name in other letter cases (SQLite reads them alike), `commit=False` for the
connection (the batch begins and commits its transaction itself), the keyword arguments
of an append dropped (the application passes none: it tracks no upstream positions), the
recorder's positional arguments dropped (the library passes it keywords only), `failed` set
to None rather than False (and an append's `done` likewise), the `strict` of the zips of a
batch with its outcomes and of its events with their keys (one each), the `RETURNING`
clause in other letter cases, a stream id taken for a UUID when it is text (the
application's are UUIDs), the writer thread's `daemon` flag (it matters only when the
interpreter exits while the thread waits), the closing sentinel None rather than False (it
ends the writer alike: nothing is queued after it), the suppressed error type of the rollback after a
failed commit (reached only when that rollback fails too), and likewise the suppressed error
of waking an event loop (reached only when the loop closed before its commit was answered).
So are an append's first outcome other than None (never read before the append is answered)
and a coroutine's append given a thread event of its own (never waited on). One more is
equivalent in outcome, not in time: a thread next in line never handed the lead.
The leading thread then writes that thread's batch too, and answers it the same; the hand-over
exists so that a thread which led returns once its own batch is written, rather than leading
for as long as others keep coming.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from eventsourcing import persistence
from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteCursor

from store.polling import PollingSQLiteApplicationRecorder

Outcome = Sequence[int] | None
Prepare = Callable[[SQLiteCursor, str, list[Sequence[StoredEvent]]], Sequence[Sequence[StoredEvent]]]
# An append's keyword that says nobody needs its notification ids (a save that no listener
# hears of): its events are inserted without reading the ids back, and it is answered None.
NUMBERED = "numbered"
ROWS_PER_STATEMENT = 2000  # events in one insert at most: four parameters each (SQLite: 32,766)


class Append:
    """One caller's events, waiting for the transaction that writes them. A thread waits on
    `turn`; a coroutine awaits a future of its event loop (`waiter`)."""

    def __init__(
        self,
        events: Sequence[StoredEvent],
        kwargs: dict[str, Any],
        waiter: tuple[asyncio.AbstractEventLoop, asyncio.Future[None]] | None = None,
        *,
        waited: bool = True,
    ) -> None:
        self.events = events
        self.kwargs = kwargs
        self.done = False
        self.outcome: Outcome = None
        self.error: BaseException | None = None
        # a waiting thread's: set when answered, or when this append leads (a coroutine, or
        # the writer process's append that nobody waits on, needs none)
        self.turn = threading.Event() if waiter is None and waited else _NO_TURN
        self.waiter = waiter

    def succeed(self, outcome: Outcome) -> None:
        self.outcome, self.done = outcome, True

    def fail(self, error: BaseException) -> None:
        self.error, self.done = error, True

    def result(self) -> Outcome:
        if self.error is not None:
            raise self.error
        return self.outcome


_NO_TURN = threading.Event()  # an append no thread waits on: never waited on, never set


def _wake(batch: list[Append]) -> None:
    """Wake each waiting thread, and each event loop once for all its coroutines."""
    futures: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
    for append in batch:
        if append.waiter is None:
            append.turn.set()
        else:
            futures.setdefault(append.waiter[0], []).append(append.waiter[1])
    for loop, waiting in futures.items():
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
            loop.call_soon_threadsafe(_resolve, waiting)


def _resolve(futures: list[asyncio.Future[None]]) -> None:
    for future in futures:
        if not future.done():  # a cancelled waiter's append is still written, and not answered
            future.set_result(None)


WRITER_IDLE = 1.0  # seconds the coroutines' writer thread waits for work before it ends


class GroupCommit:
    """The writers' queue: `submit` returns once a batch holding the append was committed (its
    notification ids) or raises what failed it; `submit_async` awaits the same. `write` writes
    a batch, answering each append.

    A thread that submits waits in line and leads when its turn comes. A coroutine cannot
    lead (the loop must not wait on the disk): when one is next in line, the leading thread
    writes on, or, with nobody leading, the writer thread takes the lead. That thread is
    started by the first coroutine's append and ends after `WRITER_IDLE` seconds without
    work. Handing it the lead costs the loop one put on a queue; a worker thread of the loop
    per lead cost a future, its chaining to the loop and a thread's wake-up, for every few
    appends. The server's own event loop sends its appends to a writer process instead
    (store/writer_process.py), which writes each batch with `write` all the same."""

    def __init__(self, write: Callable[[list[Append]], None]) -> None:
        self._write = write
        self._lock = threading.Lock()
        self._queue: list[Append] = []
        self._leading = False
        # leads for the writer thread (True), or False: end (the store is closing)
        self._leads: queue.SimpleQueue[bool] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None

    def submit(self, events: Sequence[StoredEvent], kwargs: dict[str, Any]) -> Outcome:
        mine = Append(events, kwargs)
        with self._lock:
            self._queue.append(mine)
            lead = not self._leading
            self._leading = True
        if not lead:
            mine.turn.wait()
            if mine.done:
                return mine.result()
        self._lead()
        return mine.result()

    async def submit_async(self, events: Sequence[StoredEvent], kwargs: dict[str, Any]) -> Outcome:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        mine = Append(events, kwargs, (loop, future))
        with self._lock:
            self._queue.append(mine)
            if not self._leading:
                self._leading = True
                # under the lock: the writer thread looks at its queue under it before ending
                self._leads.put(True)
                if self._writer is None:
                    self._writer = threading.Thread(target=self._writing, name="group-commit", daemon=True)
                    self._writer.start()
        await future
        return mine.result()

    def _writing(self) -> None:
        """The writer thread: take each lead handed to it, until none comes for a while or
        the store closes."""
        while True:
            try:
                lead = self._leads.get(timeout=WRITER_IDLE)
            except queue.Empty:
                lead = None
            with self._lock:
                if lead is False or (lead is None and self._leads.empty()):
                    self._writer = None
                    return
            if lead:
                self._lead()

    def close(self) -> None:
        """End the writer thread once it has written the leads handed to it before."""
        with self._lock:
            writer = self._writer
            if writer is not None:
                self._leads.put(False)
        if writer is not None:
            writer.join()

    def _lead(self) -> None:
        """Write everything queued, batch after batch, until the queue is empty or a thread
        is next in line (it leads from there)."""
        while True:
            with self._lock:
                batch, self._queue = self._queue, []
            try:
                self._write(batch)
            except BaseException as error:  # an append not answered was not committed
                for append in batch:
                    if not append.done:
                        append.fail(error)
            finally:
                for append in batch:
                    if not append.done:
                        append.fail(RuntimeError("the batch holding this append was not written"))
                with self._lock:
                    following = self._queue[0] if self._queue else None
                    handed = following is not None and following.waiter is None
                    if following is None:
                        self._leading = False
                _wake(batch)
                if handed:
                    assert following is not None
                    following.turn.set()  # the next in line leads
            if following is None or handed:
                return


# The library's translation of SQLite's errors (eventsourcing.sqlite.SQLiteTransaction),
# most specific first.
_SQLITE_ERRORS: list[tuple[type[sqlite3.Error], type[persistence.PersistenceError]]] = [
    (sqlite3.InterfaceError, persistence.InterfaceError),
    (sqlite3.DataError, persistence.DataError),
    (sqlite3.OperationalError, persistence.OperationalError),
    (sqlite3.IntegrityError, persistence.IntegrityError),
    (sqlite3.InternalError, persistence.InternalError),
    (sqlite3.ProgrammingError, persistence.ProgrammingError),
    (sqlite3.NotSupportedError, persistence.NotSupportedError),
    (sqlite3.DatabaseError, persistence.DatabaseError),
]


def translated(error: sqlite3.Error) -> persistence.PersistenceError:
    for raw, ours in _SQLITE_ERRORS:
        if isinstance(error, raw):
            return ours(error)
    return persistence.PersistenceError(error)


class GroupCommitSQLiteRecorder(PollingSQLiteApplicationRecorder):
    """The polling SQLite recorder (store/polling.py), its appends committed in groups."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.group = GroupCommit(self._write_batch)
        # Given by the writer process (store/stamping.py): in the transaction, before they are
        # inserted, the appends' events as they are to be stored. None stores them as given.
        self.prepare: Prepare | None = None
        self._last_stream: tuple[str, UUID | str] | None = None

    def convert_originator_id(self, originator_id: str) -> UUID | str:
        """The library's, remembering the last stream's: every row of a stream read carries
        its id, which the library made a UUID again for each (a fifth of reading a game)."""
        last = self._last_stream
        if last is not None and last[0] == originator_id:
            return last[1]
        converted = super().convert_originator_id(originator_id)
        self._last_stream = (originator_id, converted)
        return converted

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Outcome:
        if not stored_events:
            return super().insert_events(stored_events, **kwargs)
        return self.group.submit(stored_events, kwargs)

    def _write_alone(self, batch: list[Append]) -> None:
        for append in batch:
            try:
                with self.datastore.transaction(commit=True) as cursor:
                    (events,) = self._prepared(cursor, [append])
                    append.succeed(self._insert_events(cursor, events, **append.kwargs))
            except Exception as error:
                append.fail(error)

    def _prepared(self, cursor: SQLiteCursor, batch: list[Append]) -> list[Sequence[StoredEvent]]:
        if self.prepare is None:
            return [append.events for append in batch]
        return list(self.prepare(cursor, self.events_table_name, [append.events for append in batch]))

    def _write_batch(self, batch: list[Append]) -> None:
        outcomes: list[Outcome | BaseException] = []
        with self.datastore.get_connection(commit=True) as connection:
            cursor = connection.cursor()
            try:
                # the write lock first, waiting for it up to the lock timeout (store/sqlite.py)
                cursor.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:  # nothing is written: written alone, each would wait again
                cursor.sqlite_cursor.close()
                for append in batch:
                    append.fail(translated(error))
                return
            try:
                # numbered unless every append says its ids are not needed (`NUMBERED`)
                numbered = any(append.kwargs.get(NUMBERED, True) for append in batch)
                together = self._insert_together(cursor, self._prepared(cursor, batch), numbered)
                if together is not None:
                    outcomes.extend(together)
                else:  # nothing of the batch is written yet: each append in its own savepoint
                    for append in batch:
                        cursor.execute("SAVEPOINT append")
                        try:
                            (events,) = self._prepared(cursor, [append])
                            outcomes.append(self._insert_events(cursor, events, **append.kwargs))
                        except sqlite3.IntegrityError as error:
                            cursor.execute("ROLLBACK TO append")
                            outcomes.append(translated(error))
                        cursor.execute("RELEASE append")
            except Exception:
                connection.rollback()
                failed = True
            except BaseException:
                connection.rollback()
                raise
            else:
                failed = False
                try:
                    connection.commit()
                except sqlite3.Error as error:
                    with contextlib.suppress(sqlite3.Error):
                        connection.rollback()
                    for append in batch:
                        append.fail(translated(error))
                    return
            finally:
                cursor.sqlite_cursor.close()
        if failed:
            self._write_alone(batch)
            return
        for append, outcome in zip(batch, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                append.fail(outcome)
            else:
                append.succeed(outcome)

    def _insert_together(
        self, cursor: SQLiteCursor, batch: list[Sequence[StoredEvent]], numbered: bool = True
    ) -> list[Outcome] | None:
        """Every event of the batch (each append's events) in as few statements as
        `ROWS_PER_STATEMENT` allows, and each append's notification ids (with `numbered`;
        else None for each); None when a version clashes (what the statements wrote is then
        undone, the transaction goes on).

        One statement rather than a savepoint, an insert per event and a release per append:
        each statement is a trip through the driver that gives up the interpreter's lock and
        waits to take it back from the event loop, which holds it most of the time. A batch
        of more events than one statement takes (a simulated game stored whole, or several:
        store/simulation.py) is written in several, under a savepoint that undoes them all
        on a clash."""
        events = [event for append in batch for event in append]
        keys = [(stream_hex(event.originator_id), event.originator_version) for event in events]
        several = len(events) > ROWS_PER_STATEMENT
        positions: dict[tuple[str, int], int] = {}
        # Reading the ids back was about a third of inserting a simulated game's rows.
        returning = " RETURNING originator_id, originator_version, rowid" if numbered else ""
        if several:
            cursor.execute("SAVEPOINT together")
        try:
            for start in range(0, len(events), ROWS_PER_STATEMENT):
                stop = min(start + ROWS_PER_STATEMENT, len(events))
                values = [
                    value
                    for key, event in zip(keys[start:stop], events[start:stop], strict=True)
                    for value in (*key, event.topic, event.state)
                ]
                rows = ",".join(["(?,?,?,?)"] * (stop - start))
                cursor.execute(f"INSERT INTO {self.events_table_name} VALUES {rows}{returning}", values)
                if numbered:
                    # the order of the returned rows is not promised: each is matched by its key
                    positions.update(
                        ((stream, version), position) for stream, version, position in cursor.fetchall()
                    )
        except sqlite3.IntegrityError:
            if several:
                cursor.execute("ROLLBACK TO together")
                cursor.execute("RELEASE together")
            return None
        if several:
            cursor.execute("RELEASE together")
        if not numbered:
            return [None for _ in batch]
        found = iter(keys)
        return [[positions[next(found)] for _ in append] for append in batch]


def stream_hex(originator_id: UUID | str) -> str:
    """A stream's id as the library stores it on SQLite: 32 hex digits."""
    return originator_id.hex if isinstance(originator_id, UUID) else originator_id


TOPIC = "store.group_commit:GroupCommitSQLiteRecorder"
