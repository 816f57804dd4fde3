"""One pool of PostgreSQL sessions per process and store, shared by all that open the store.

The library gives every recorder its own pool: a server held one for its application, one for
the statistics view it reads, and, while it ran the view, one for the runner's application and
one for the view it fills; and the views' catalog opened a fresh session for every question
(four a second). That made 13 to 23 sessions a process. Here the first datastore a process
opens on a store keeps its pool, and every later one (same database, schema and settings)
borrows it: the process holds at most the pool's size, whatever it opens (store/config.py).

Each holder gets a handle of its own; closing it gives its share back (twice is once), and the
last share closes the pool, so a process that closes everything it opened holds no session.
A handle dropped without closing gives its share back when it is collected, as the library's
datastore closes its pool then. The sessions name the process (`application_name`
`chronicle, pid 812 on web1`) for `pg_stat_activity`.
"""

from __future__ import annotations

import os
import socket
import threading
from typing import Any

from eventsourcing.postgres import PostgresDatastore

# Re-entrant: a handle collected while this thread holds the lock gives its share back inside.
_lock = threading.RLock()
_pools: dict[tuple[Any, ...], _Pool] = {}


class _Pool:
    def __init__(self, key: tuple[Any, ...], datastore: PostgresDatastore) -> None:
        self.key = key
        self.datastore = datastore
        self.shares = 0


class SharedDatastore(PostgresDatastore):
    """A holder's share of its process's pool: the first datastore's settings, type adapters
    and pool."""

    def __init__(self, pool: _Pool) -> None:  # the library's would build a pool of its own
        vars(self).update(vars(pool.datastore))
        self._pool = pool
        self._released = False

    def close(self) -> None:
        with _lock:
            if getattr(self, "_released", True):
                return
            self._released = True
            pool = self._pool
            pool.shares -= 1
            if pool.shares:
                return
            del _pools[pool.key]
        pool.datastore.close()


def connection_kwargs(datastore: PostgresDatastore) -> dict[str, Any]:
    """What the pool of `datastore` connects with (the library gives it a dict)."""
    kwargs = datastore.pool.kwargs
    assert isinstance(kwargs, dict)
    return kwargs


def application_name() -> str:
    return f"chronicle, pid {os.getpid()} on {socket.gethostname()}"[:63]


def _key(datastore: PostgresDatastore) -> tuple[Any, ...]:
    """What a pool is shared on: the connection's settings and the datastore's (a pool is not
    carried over a fork: the process id is part of it)."""
    plain = (str, int, float, bool)
    connection = sorted((k, v) for k, v in connection_kwargs(datastore).items() if isinstance(v, plain))
    settings = sorted((k, v) for k, v in vars(datastore).items() if isinstance(v, plain))
    sizes = (datastore.pool.min_size, datastore.pool.max_size, datastore.pool.timeout)
    return os.getpid(), tuple(connection), tuple(settings), sizes


def share(datastore: PostgresDatastore) -> SharedDatastore:
    """A share of this process's pool for the store `datastore` names: `datastore`'s own pool
    (never opened yet) if none is open, and then the one every later share borrows."""
    key, name = _key(datastore), application_name()
    with _lock:
        pool = _pools.get(key)
        if pool is None:
            kwargs = connection_kwargs(datastore)
            kwargs["application_name"] = name
            # No statement prepared on the server: a write is sent as a pipeline, and when one
            # of its statements fails (a lock waited for too long) psycopg may count as
            # prepared a statement the server skipped, so the session's next write answered
            # "prepared statement does not exist" (a 500). Parsing each time costs far less.
            kwargs["prepare_threshold"] = None
            pool = _pools[key] = _Pool(key, datastore)
        # counted before the handle is built: a collection meanwhile cannot close the pool
        pool.shares += 1
    return SharedDatastore(pool)
