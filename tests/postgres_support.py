"""What the PostgreSQL tests of connections and start-up share: the sessions a process holds,
as PostgreSQL lists them, sampled while a test runs; and a schema that does not exist yet."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse
from uuid import uuid4

import psycopg

from tests.conftest import POSTGRES, postgres_unreachable


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:  # closed meanwhile
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    return inodes


def _port(address: str) -> int:
    return int(address.rsplit(":", 1)[1], 16)


def _local_ports(pids: list[int], server_port: int) -> dict[int, int]:
    """The local port of each TCP connection of the processes `pids` to `server_port`: the
    process that owns it."""
    owner = {inode: pid for pid in pids for inode in _socket_inodes(pid)}
    ports = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote, inode = fields[1], fields[2], fields[9]
            if inode in owner and _port(remote) == server_port:
                ports[_port(local)] = owner[inode]
    return ports


def sessions(pids: list[int]) -> dict[int, list[str]]:
    """Each of `pids`: the `application_name` of every PostgreSQL session it holds, found by
    the client port of each row of `pg_stat_activity` (so a session counts whatever it is
    named); the session that asks is left out."""
    ports = _local_ports(pids, urlparse(POSTGRES).port or 5432)
    held: dict[int, list[str]] = {pid: [] for pid in pids}
    with psycopg.connect(POSTGRES, autocommit=True) as connection:
        rows = connection.execute(
            "SELECT client_port, application_name FROM pg_stat_activity "
            "WHERE client_port = ANY(%s) AND pid <> pg_backend_pid()",
            (list(ports),),
        ).fetchall()
    for port, name in rows:
        held[ports[port]].append(name)
    return held


class Sampler(threading.Thread):
    """Counts the sessions of each process every tenth of a second until stopped: the most
    each held at once, and every name they had."""

    def __init__(self, pids: list[int]) -> None:
        super().__init__(daemon=True)
        self.pids = pids
        self.most = dict.fromkeys(pids, 0)
        self.names: set[tuple[int, str]] = set()
        self.samples = 0
        self.error: BaseException | None = None
        self.stopping = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopping.wait(0.1):
                for pid, names in sessions(self.pids).items():
                    self.most[pid] = max(self.most[pid], len(names))
                    self.names.update((pid, name) for name in names)
                self.samples += 1
        except BaseException as error:
            self.error = error

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=30)
        assert self.error is None, repr(self.error)


def schema_exists(name: str) -> bool:
    with psycopg.connect(POSTGRES, autocommit=True) as connection:
        found = connection.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (name,)).fetchone()
    return found is not None


@contextmanager
def missing_schema() -> Iterator[tuple[str, str]]:
    """A schema name no schema has yet, and the store URL that names it; whatever creates it,
    it is dropped afterwards. Skipped (failed under CI) without a PostgreSQL server."""
    from tests.conftest import _unreachable

    _unreachable("PostgreSQL", POSTGRES, postgres_unreachable())
    name = f"t_{uuid4().hex}"
    try:
        yield name, f"{POSTGRES}?schema={name}"
    finally:
        with psycopg.connect(POSTGRES, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
