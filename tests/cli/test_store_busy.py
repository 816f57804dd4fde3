"""A command whose write waits out another process's hold on an SQLite store's write lock
stops with one line, as the server's 503 does, and stores nothing."""

from __future__ import annotations

import sqlite3
import time

from tests.cli.conftest import PHYSICAL_OPENING, Cli

PLAYERS = ("--player", "Ann", "--player", "Bob")
LOCK_WAIT = 10.0  # seconds a write waits for the lock (store/sqlite.py)


def test_a_write_behind_another_process_s_lock_stops_with_one_line_and_stores_nothing(cli: Cli) -> None:
    game = cli.new_game("province", *PLAYERS, "--mode", "physical")
    before = cli.ok("log", game)
    holder = sqlite3.connect(cli.home / "games.sqlite3", isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        started = time.monotonic()
        line = cli.fails(1, "record", game, PHYSICAL_OPENING[0])
        waited = time.monotonic() - started
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert line.startswith("chronicle: error: the event store did not answer (")
    assert "database is locked" in line and line.endswith("; retry (store_unavailable)")
    assert waited >= LOCK_WAIT - 1.0
    assert cli.ok("log", game) == before
    cli.ok("record", game, PHYSICAL_OPENING[0])  # taken once the lock is gone
    assert cli.ok("log", game) != before
