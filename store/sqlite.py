"""SQLite persistence whose writers wait their turn for the lock.

Several processes may write one SQLite file: two `chronicle serve` processes, a server and
`chronicle simulate`, the statistics runner's view. SQLite lets one write at a time, and a
writer that finds the lock taken waits for it, up to the store's lock timeout (ten seconds,
store/config.py), but only if it asks for the lock when its transaction begins.

The library begins every transaction with a plain `BEGIN`, which takes no lock: the first read
takes a snapshot of the database, the first write asks for the write lock. A transaction that
reads before it writes (the writer process reads a game's stored digest before it inserts the
events that follow it; a view reads ratings before it stores new ones) must then upgrade its
snapshot to a write. SQLite refuses that upgrade at once with SQLITE_BUSY ("database is locked"),
without calling the busy handler, whenever another connection holds the write lock or has
committed since the snapshot was taken: waiting could not help, since the snapshot is already
stale. So under another process's writes such a transaction failed within milliseconds, though
the lock timeout promised ten seconds.

Here a transaction that is to commit begins with `BEGIN IMMEDIATE`: it takes the write lock
first, waiting for it as long as the lock timeout allows, and only then reads, so its snapshot
is the latest and is never upgraded. Read-only transactions still begin with `BEGIN` and never
wait for writers (the store is in write-ahead-log mode).

The factory (the library's, selected by `PERSISTENCE_MODULE`, store/config.py) builds the
library's datastore with a pool of such connections: the application's recorder, the group
commit's, the writer process's and the statistics views' all write through it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from eventsourcing import sqlite
from eventsourcing.sqlite import SQLiteConnection, SQLiteCursor, SQLiteTransaction

from store.group_commit import translated

TOPIC = "store.sqlite:SQLiteFactory"


class _WritingTransaction(SQLiteTransaction):
    """The library's transaction; one that is to commit holds the write lock from its start."""

    def __enter__(self) -> SQLiteCursor:
        cursor = self.connection.cursor()
        try:
            cursor.execute("BEGIN IMMEDIATE" if self.commit else "BEGIN")
        except sqlite3.Error as error:  # the lock timeout ran out: the library's error
            cursor.sqlite_cursor.close()
            raise translated(error) from error
        return cursor


class WritingConnection(SQLiteConnection):
    @contextmanager
    def transaction(self, *, commit: bool) -> Iterator[SQLiteCursor]:
        with _WritingTransaction(self, commit=commit) as cursor, cursor:
            yield cursor


class WritingConnectionPool(sqlite.SQLiteConnectionPool):
    def _create_connection(self) -> SQLiteConnection:
        made = super()._create_connection()  # opened, in write-ahead-log mode, as the library's
        return WritingConnection(made._sqlite_conn, max_age=self.max_age)


class SQLiteFactory(sqlite.SQLiteFactory):
    """The library's factory, its datastore's connections beginning writes IMMEDIATE."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        made = self.datastore.pool
        self.datastore.pool = WritingConnectionPool(db_name=made.db_name, lock_timeout=made.lock_timeout)
        made.close()  # no connection was opened yet
