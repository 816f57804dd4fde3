"""What the live streams' poller reads of the store's sequence: for each game appended after a
position, its latest version and the position of that append (store/fanout.py).

The library's `select_notifications` answers with whole events, their stored state included,
each one an object. The poller needs three numbers per game, and reads the sequence of every
game several times a second while Redis is not there: under load, building the events it then
threw away cost the process about a sixth of what recording them did. Here the database reads
a page of the sequence and groups it by game, and the answer is one row per game.

A page is the same `limit` positions after `start` that the library's call would read, in the
same order, so paging is unchanged: a page with fewer than `limit` positions is the last.
A store other than SQLite or PostgreSQL (the library's in-memory one) is read the library's
way.

Mutants judged equivalent (bench/mutation.py, group news): the SQL keywords and names in
other letter cases (SQLite reads them alike), the read's transaction committing or told
`commit=None` (it writes nothing), and the library's `inclusive_of_start` as None (false
alike). The PostgreSQL branch is judged by the PostgreSQL tests, which the mutation runs
leave out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder
from psycopg.sql import SQL, Identifier


class Latest(NamedTuple):
    """A game's last append in a page: its id (text), version and position in the sequence."""

    game_id: str
    version: int
    position: int


class Page(NamedTuple):
    latest: list[Latest]  # one per game, in the order of their last appends
    end: int | None  # the page's last position (None: nothing after `start`)
    read: int  # positions the page holds


def latest_after(recorder: ApplicationRecorder, start: int, limit: int, topics: Sequence[str]) -> Page:
    """The positions after `start` (at most `limit` of them, only `topics`), grouped by game."""
    if isinstance(recorder, SQLiteApplicationRecorder):
        return _sqlite(recorder, start, limit, topics)
    if isinstance(recorder, PostgresApplicationRecorder):
        return _postgres(recorder, start, limit, topics)
    return _library(recorder, start, limit, topics)


def _page(rows: list[tuple[UUID, int, int, int]]) -> Page:
    rows.sort(key=lambda row: row[2])
    latest = [Latest(str(game), version, position) for game, version, position, _ in rows]
    return Page(latest, rows[-1][2] if rows else None, sum(row[3] for row in rows))


def _sqlite(recorder: SQLiteApplicationRecorder, start: int, limit: int, topics: Sequence[str]) -> Page:
    statement = (
        "SELECT originator_id, MAX(originator_version), MAX(rowid), COUNT(*) FROM ("
        f"SELECT rowid, originator_id, originator_version FROM {recorder.events_table_name} "
        f"WHERE rowid>? AND topic IN ({','.join('?' * len(topics))}) ORDER BY rowid LIMIT ?"
        ") GROUP BY originator_id"
    )
    with recorder.datastore.transaction(commit=False) as cursor:
        cursor.execute(statement, [start, *topics, limit])
        rows = [(UUID(r[0]), r[1], r[2], r[3]) for r in cursor.fetchall()]  # stored as 32 hex digits
    return _page(rows)


def _postgres(recorder: PostgresApplicationRecorder, start: int, limit: int, topics: Sequence[str]) -> Page:
    statement = SQL(
        "SELECT originator_id, MAX(originator_version) AS version, MAX(notification_id) AS position, "
        "COUNT(*) AS read FROM (SELECT notification_id, originator_id, originator_version "
        "FROM {schema}.{table} WHERE notification_id>%s AND topic = ANY(%s) "
        "ORDER BY notification_id LIMIT %s) AS page GROUP BY originator_id"
    ).format(schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name))
    with recorder.datastore.get_connection() as connection, connection.cursor() as cursor:
        cursor.execute(statement, [start, list(topics), limit], prepare=True)
        rows = [(r["originator_id"], r["version"], r["position"], r["read"]) for r in cursor.fetchall()]
    return _page(rows)


def _library(recorder: ApplicationRecorder, start: int, limit: int, topics: Sequence[str]) -> Page:
    found: dict[str, Latest] = {}
    batch = recorder.select_notifications(start, limit, topics=topics, inclusive_of_start=False)
    for n in batch:
        game = str(n.originator_id)
        found.pop(game, None)  # kept in the order of each game's last append
        found[game] = Latest(game, n.originator_version, n.id)
    return Page(list(found.values()), batch[-1].id if batch else None, len(batch))
