"""Opening a PostgreSQL store: wait for the database to answer, and create the schema.

A server started beside its database (a container, a machine booting) often comes up first.
Rather than exit, a process opening the store tries again with a growing pause (a quarter of
a second, doubling, at most five) for up to `CHRONICLE_PG_WAIT` seconds (store/config.py),
says so once on stderr, and gives up with one line if the database still does not answer.
Every failure to connect is waited for alike, a database that does not exist yet (being
created, or restored) or a refused login too: libpq gives no error code for a failed
connection, only its text, which the waiting line shows at once. A schema that does not
exist is created (`?schema=NAME`), so that a fresh schema needs no step of its own before the
first command.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import sql

from store.errors import StoreUnavailable

FIRST_PAUSE = 0.25
LONGEST_PAUSE = 5.0
# How long one attempt may take to connect (libpq counts whole seconds, at least 2): a host
# that drops packets must not hold an attempt past the bound.
ATTEMPT = 10


def where(kwargs: dict[str, Any]) -> str:
    """The database as a message names it: host, port and name (never the user or password)."""
    return f"{kwargs.get('host')}:{kwargs.get('port')}/{kwargs.get('dbname')}"


def reason(error: psycopg.Error) -> str:
    """What the server or the socket said, without libpq's preamble and hints."""
    line = (str(error).strip().splitlines() or ["no answer"])[0]
    return line.rsplit("failed: ", 1)[-1].removeprefix("FATAL:").strip() or "no answer"


def ready(
    kwargs: dict[str, Any],
    schema: str,
    wait: float,
    *,
    say: Callable[[str], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Return once the database named by the connection `kwargs` answers and holds `schema`
    (created if missing); `StoreUnavailable` if it does not answer within `wait` seconds."""
    deadline = clock() + wait
    pause = FIRST_PAUSE
    told = False
    while True:
        left = deadline - clock()
        try:
            with psycopg.connect(
                **kwargs, autocommit=True, connect_timeout=max(2, min(ATTEMPT, int(left) + 1))
            ) as connection:
                create_schema(connection, schema, kwargs)
                return
        except psycopg.OperationalError as error:
            left = deadline - clock()
            if left <= 0:
                raise StoreUnavailable(
                    f"PostgreSQL at {where(kwargs)} did not answer within {wait:g} s ({reason(error)}); "
                    "CHRONICLE_PG_WAIT sets how long to wait"
                ) from None
            if not told:
                (say or _to_stderr)(
                    f"chronicle: waiting up to {wait:g} s for PostgreSQL at {where(kwargs)} ({reason(error)})"
                )
                told = True
            sleep(min(pause, left))
            pause = min(pause * 2, LONGEST_PAUSE)


def create_schema(connection: psycopg.Connection[Any], schema: str, kwargs: dict[str, Any]) -> None:
    """Create `schema` unless it exists. Processes that race to create it all succeed: the
    loser's statement fails on the catalog's unique index once the winner's is committed."""
    if connection.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone():
        return
    try:
        connection.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
    except psycopg.errors.UniqueViolation:
        pass
    except psycopg.errors.InsufficientPrivilege as error:
        raise StoreUnavailable(
            f"cannot create schema {schema!r} in PostgreSQL at {where(kwargs)}: {reason(error)}; "
            "create it, or grant CREATE on the database"
        ) from None


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
