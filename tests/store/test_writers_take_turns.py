"""Writers of one SQLite file wait their turn for its lock (store/sqlite.py): a transaction that
reads before it writes, while another process holds the lock, waits for it up to the lock
timeout rather than failing at once with "database is locked"; once the timeout runs out it
fails whole, having written nothing."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import OperationalError, StoredEvent
from eventsourcing.sqlite import SQLiteCursor, SQLiteDatastore

from projections.runner import close_view, open_view, views_dir
from store.app import Chronicle
from store.config import store_env
from store.group_commit import Append, GroupCommitSQLiteRecorder

HELD = 0.5  # seconds another process holds the write lock


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/turns.sqlite3"


@contextmanager
def lock_held(path: str | Path, seconds: float = HELD) -> Iterator[threading.Thread]:
    """Another connection (as another process would) takes the file's write lock, writes, and
    commits after `seconds`: a snapshot taken meanwhile is stale by then."""
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("CREATE TABLE IF NOT EXISTS other_process (n INTEGER)")
    holder.execute("INSERT INTO other_process VALUES (1)")

    def release() -> None:
        time.sleep(seconds)
        holder.execute("COMMIT")
        holder.close()

    thread = threading.Thread(target=release)
    thread.start()
    try:
        yield thread
    finally:
        thread.join()


def read_then_write(datastore: SQLiteDatastore) -> None:
    with datastore.transaction(commit=True) as cursor:
        cursor.execute("SELECT count(*) FROM sqlite_master")  # a read first: the snapshot
        cursor.execute("CREATE TABLE written_after_reading (n INTEGER)")


def tables(path: str | Path) -> set[str]:
    with closing(sqlite3.connect(path)) as connection:
        return {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_a_transaction_that_reads_before_it_writes_waits_for_another_process_s_lock(url: str) -> None:
    path = store_env(url)["SQLITE_DBNAME"]
    with closing(Chronicle(url)) as app:
        datastore = app.recorder.datastore  # type: ignore[attr-defined]
        with lock_held(path):
            started = time.monotonic()
            read_then_write(datastore)
            waited = time.monotonic() - started
    assert waited >= HELD * 0.8  # it waited for the lock, and took it once released
    assert "written_after_reading" in tables(path)


def test_the_statistics_view_s_writes_wait_for_the_lock_too(url: str) -> None:
    with closing(Chronicle(url)):
        pass
    view = open_view(url, "stats", 1)
    try:
        path = views_dir(url) / "stats_g1.sqlite3"
        with lock_held(path):
            read_then_write(view.datastore)  # type: ignore[attr-defined]
    finally:
        close_view(view)
    assert "written_after_reading" in tables(path)


def reading_first(
    cursor: SQLiteCursor, table: str, appends: list[Sequence[StoredEvent]]
) -> Sequence[Sequence[StoredEvent]]:
    """A `prepare` that reads the store before the batch is inserted, as the writer process's
    stamping does for a game another process appended to."""
    cursor.execute(f"SELECT count(*) FROM {table}")
    cursor.fetchall()
    return appends


def events(stream: UUID, *versions: int) -> list[StoredEvent]:
    return [StoredEvent(stream, v, "test:Event", b"{}") for v in versions]


def test_a_group_commit_that_reads_before_it_inserts_waits_for_another_process_s_lock(url: str) -> None:
    path = store_env(url)["SQLITE_DBNAME"]
    with closing(Chronicle(url)) as app:
        recorder = app.recorder
        assert isinstance(recorder, GroupCommitSQLiteRecorder)
        recorder.prepare = reading_first
        stream = uuid4()
        with lock_held(path):
            started = time.monotonic()
            ids = recorder.insert_events(events(stream, 1, 2))
            waited = time.monotonic() - started
        assert ids is not None and len(ids) == 2
        assert [e.originator_version for e in recorder.select_events(stream)] == [1, 2]
    assert waited >= HELD * 0.8


def test_a_batch_that_cannot_take_the_lock_in_time_fails_whole_after_one_wait(
    url: str, monkeypatch: Any
) -> None:
    monkeypatch.setenv("CHRONICLE_SQLITE_LOCK_TIMEOUT", "1")  # the application's own setting
    path = store_env(url)["SQLITE_DBNAME"]
    with closing(Chronicle(url)) as app:
        recorder = app.recorder
        assert isinstance(recorder, GroupCommitSQLiteRecorder)
        streams = [uuid4() for _ in range(3)]
        batch = [Append(events(s, 1), {}, waited=False) for s in streams]
        with lock_held(path, seconds=3.0):
            started = time.monotonic()
            recorder._write_batch(batch)  # as the writer process writes what it was sent
            waited = time.monotonic() - started
        assert all(recorder.select_events(s) == [] for s in streams)
    assert all(a.done and isinstance(a.error, OperationalError) for a in batch)
    assert all("locked" in str(a.error) for a in batch)
    # one lock timeout: not one more for each append written again alone
    assert 0.8 <= waited < 2.0
