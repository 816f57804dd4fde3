"""PostgreSQL persistence whose table creation is safe to race.

Every process that opens a store creates its tables if they are missing (`CREATE TYPE`,
`CREATE TABLE IF NOT EXISTS`). PostgreSQL does not make that idempotent under concurrency:
two sessions creating the same table at once both pass the "not exists" check, and the slower
one fails on the catalog's unique index (`UniqueViolation ... pg_type_typname_nsp_index`) or
with `tuple concurrently updated`. So several servers started together on a fresh schema
would not all come up.

This factory (the library's, selected by `PERSISTENCE_MODULE`, store/config.py) creates each
recorder's tables under a session advisory lock named for the schema: creators queue, and
whoever comes second finds the tables there. The lock is held on its own connection only
while tables are created, so it never touches a transaction that writes events. Within a
process creators also take turns (a thread lock): creating takes two of the process's shared
sessions (store/postgres_pool.py), and two threads each holding one while waiting for the
other's lock or for a second session would wait until the pool gave up on them.

The factory's datastore is a share of the process's one pool on the store, opened once the
database answers and holds the schema (store/postgres_ready.py).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from eventsourcing import postgres
from eventsourcing.persistence import AggregateRecorder, ApplicationRecorder, Subscription
from eventsourcing.utils import Environment, EnvType
from psycopg.sql import SQL, Identifier

from store.config import WAIT, WAIT_KEY, store_env
from store.postgres_pool import connection_kwargs, share
from store.postgres_ready import ready

TOPIC = "store.postgres:PostgresFactory"
_LOCK_NAME = "chronicle:create-tables:"
_creators = threading.Lock()  # this process's threads creating tables, one at a time
_ready: set[tuple[str, ...]] = set()  # the databases and schemas this process found ready


@contextmanager
def holding_lock(connection: psycopg.Connection[Any], schema: str) -> Iterator[None]:
    """Hold `schema`'s table-creation lock on `connection` (an autocommit one; waiting for
    the lock) for the `with` block."""
    key = _LOCK_NAME + schema
    connection.execute("SELECT pg_advisory_lock(hashtext(%s))", (key,))
    try:
        yield
    finally:
        connection.execute("SELECT pg_advisory_unlock(hashtext(%s))", (key,))


@contextmanager
def table_creation_lock(datastore: postgres.PostgresDatastore) -> Iterator[psycopg.Connection[Any]]:
    """The schema's table-creation lock, taken in turn by this process's threads, held on one
    of `datastore`'s sessions (an autocommit one), which the `with` block may use too."""
    with _creators, datastore.get_connection() as connection, holding_lock(connection, datastore.schema):
        yield connection


def open_when_ready(datastore: postgres.PostgresDatastore, wait: float) -> None:
    """Wait up to `wait` seconds for the database of `datastore` to answer (once a process)
    and create its schema if missing."""
    kwargs = {k: v for k, v in connection_kwargs(datastore).items() if k != "row_factory"}
    found = (*(str(kwargs.get(k)) for k in ("host", "port", "dbname", "user")), datastore.schema)
    if found not in _ready:
        ready(kwargs, datastore.schema, wait)
        _ready.add(found)


def shared_datastore(url: str) -> postgres.PostgresDatastore:
    """A share of this process's pool on the PostgreSQL store at `url` (close it when done)."""
    return PostgresFactory(Environment(env=store_env(url))).datastore


def wait_for_store(url: str) -> None:
    """Return once the PostgreSQL store at `url` answers and holds its schema (created if
    missing); `StoreUnavailable` if it does not answer within the wait."""
    shared_datastore(url).close()


class ListeningSubscription(postgres.PostgresSubscription):
    """The library's subscription, without its gap: it reads what is stored, then starts to
    LISTEN on another thread, so an event committed between that first read and the LISTEN
    taking effect woke nobody, and a projection runner that took over just before a quiet
    spell missed it until the next write. Once listening, it reads once more."""

    def _listen(self) -> None:
        try:
            with self._recorder.datastore.get_connection() as conn:
                conn.execute(SQL("LISTEN {0}").format(Identifier(self._recorder.channel_name)))
                self._has_been_notified.set()  # whatever was committed before the LISTEN
                while not self._has_been_stopped and not self._thread_error:
                    for _ in conn.notifies(timeout=0.1, stop_after=1):
                        self._has_been_notified.set()
        except BaseException as error:
            if self._thread_error is None:
                self._thread_error = error
            self.stop()


class ListeningApplicationRecorder(postgres.PostgresApplicationRecorder):
    def subscribe(
        self, gt: int | None = None, topics: Sequence[str] = ()
    ) -> Subscription[ApplicationRecorder]:
        return ListeningSubscription(recorder=self, gt=gt, topics=topics)


class PostgresFactory(postgres.PostgresFactory):
    """The library's factory on the process's shared pool, each recorder's tables created
    under the schema's lock."""

    application_recorder_class = ListeningApplicationRecorder

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        own = self.datastore
        open_when_ready(own, float(self.env.get(WAIT_KEY) or WAIT))
        self.datastore = share(own)

    def aggregate_recorder(self, purpose: str = "events") -> AggregateRecorder:
        with self._creating():
            return super().aggregate_recorder(purpose)

    def application_recorder(self) -> ApplicationRecorder:
        with self._creating():
            return super().application_recorder()

    def tracking_recorder(self, tracking_recorder_class: Any = None) -> Any:
        with self._creating():
            return super().tracking_recorder(tracking_recorder_class)

    @contextmanager
    def _creating(self) -> Iterator[None]:
        if not self.env_create_table():
            yield
            return
        with table_creation_lock(self.datastore):
            yield
