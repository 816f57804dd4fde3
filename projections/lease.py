"""Which process runs the views: one at a time across every server and `chronicle projections
run` on a store.

Each process that could run the views (a server with `--projections inprocess`, a `projections
run`) asks for the runner's lease every poll; whoever holds it runs them, the others stand by.
The lease dies with its holder, however it dies (kill -9 included), so a standby takes over at
its next poll:

- PostgreSQL: a session advisory lock named for the schema, held on a connection of its own
  (never one that writes: a pooled connection would hand the lock to whoever borrows it next).
  PostgreSQL releases it when that session ends; the holder checks its session every poll, and
  stops running the views the moment it has lost it. The connection's `application_name` says
  who holds it, which is what `holder` reads back from `pg_stat_activity`.
- SQLite: an exclusive `flock` on `runner.lock` beside the view files (the store is one
  machine's file, so every process that opens it shares that machine's kernel); the kernel drops
  the lock when the holder's file is closed or its process dies. The file holds who took it.

Exclusion is what keeps two processes from doing the same work twice, not what keeps the
figures right: each game is counted in the same transaction as the view's position, so even
a moment of overlap (an old holder that has not noticed yet) counts nothing twice.
"""

from __future__ import annotations

import fcntl
import os
import socket
import zlib
from contextlib import suppress
from pathlib import Path
from typing import IO, Any, Protocol
from urllib.parse import parse_qs, urlparse

import psycopg

from store.config import sqlite_file

LOCK_NAME = "chronicle:projections-runner:"
LOCK_FILE = "runner.lock"
NAME_PREFIX = "chronicle runner: "


def describe(role: str) -> str:
    """Who a process is, as the lease shows it: `chronicle serve, pid 812 on db1`."""
    return f"{role}, pid {os.getpid()} on {socket.gethostname()}"


class Lease(Protocol):
    def hold(self) -> bool:
        """Take the lease if it is free; True while this process holds it (checked each call)."""

    def release(self) -> None: ...


def lease_for(url: str, role: str) -> Lease:
    """The runner's lease on the store at `url`, asked for by a process in `role`."""
    path = sqlite_file(url)
    if path is not None:
        return FileLease(lock_path(path), describe(role))
    return AdvisoryLease(url, describe(role))


def holder(url: str) -> str | None:
    """Who holds the runner's lease on the store at `url` now (None: nobody runs the views)."""
    path = sqlite_file(url)
    if path is not None:
        return _file_holder(lock_path(path))
    return _advisory_holder(url)


# -- SQLite: a lock file ----------------------------------------------------------------


def lock_path(store_file: Path) -> Path:
    """Beside the view files (projections/runner.py `views_dir`)."""
    directory = store_file.with_name(store_file.name + ".views")
    directory.mkdir(parents=True, exist_ok=True)
    return directory / LOCK_FILE


class FileLease:
    def __init__(self, path: Path, who: str) -> None:
        self.path = path
        self.who = who
        self._file: IO[str] | None = None

    def hold(self) -> bool:
        if self._file is not None:
            return True
        file = self.path.open("a+")
        try:
            fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # another process holds it (or is reading who does: next poll)
            file.close()
            return False
        file.seek(0)
        file.truncate()
        file.write(self.who)
        file.flush()
        self._file = file
        return True

    def release(self) -> None:
        if self._file is not None:
            with suppress(OSError):
                self._file.seek(0)
                self._file.truncate()
                self._file.flush()
            self._file.close()  # closing the file drops the lock
            self._file = None


def _file_holder(path: Path) -> str | None:
    if not path.exists():
        return None
    with path.open("r") as file:
        try:
            fcntl.flock(file.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return file.read().strip() or "a process that is starting"
        fcntl.flock(file.fileno(), fcntl.LOCK_UN)
        return None


# -- PostgreSQL: a session advisory lock ----------------------------------------------


def _conninfo_and_key(url: str) -> tuple[str, int]:
    parsed = urlparse(url)
    schema = parse_qs(parsed.query).get("schema", ["public"])[0]
    # A positive 31-bit key, so that it reads back from pg_locks as (classid 0, objid key).
    key = zlib.crc32((LOCK_NAME + schema).encode()) & 0x7FFFFFFF
    return parsed._replace(query="").geturl(), key


class AdvisoryLease:
    """The lock, and the connection it lives on. A standby keeps its connection too and asks
    again on it every poll, rather than opening a session (a PostgreSQL backend) each time."""

    def __init__(self, url: str, who: str) -> None:
        self.conninfo, self.key = _conninfo_and_key(url)
        self.who = who
        self._connection: psycopg.Connection[Any] | None = None
        self._held = False

    def hold(self) -> bool:
        try:
            if self._connection is None or self._connection.closed:
                self._held = False
                # application_name is at most 63 bytes: the tail of a long host name may be cut.
                self._connection = psycopg.connect(
                    self.conninfo, autocommit=True, application_name=(NAME_PREFIX + self.who)[:63]
                )
            if self._held:  # the lock lives as long as this session: is it still there?
                self._connection.execute("SELECT 1")
                return True
            row = self._connection.execute("SELECT pg_try_advisory_lock(%s)", (self.key,)).fetchone()
            self._held = bool(row and row[0])
            return self._held
        except psycopg.Error:
            # The session is gone (and the lock with it) or cannot be opened: stand by, and
            # open a fresh one at the next poll.
            self.release()
            return False

    def release(self) -> None:
        self._held = False
        if self._connection is not None:
            with suppress(psycopg.Error):
                self._connection.close()  # ending the session releases the lock
            self._connection = None


def _advisory_holder(url: str) -> str | None:
    conninfo, key = _conninfo_and_key(url)
    with psycopg.connect(conninfo, autocommit=True) as connection:
        row = connection.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = %s::oid "
            "AND l.objsubid = 1 AND l.database = (SELECT oid FROM pg_database "
            "WHERE datname = current_database())",
            (key,),
        ).fetchone()
    if row is None:
        return None
    name = str(row[0] or "")
    return name.removeprefix(NAME_PREFIX) or "a session without a name"
