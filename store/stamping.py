"""The hash chain's digests (store/chain.py), given by the SQLite writer process in the
transaction that stores the events.

The server's event loop sends a recorded action's events to the writer process
(store/writer_process.py) without their digests: digesting them was about a seventh of the
loop's work per action, and the writer process runs on a core of its own. The writer digests
each game event from the very bytes it stores, its stored JSON read as the audit reads it,
after the digest of the stored event before it, read in the same transaction. So the digest is
the one the audit recomputes by construction, and a stream that another process appended to
meanwhile is followed as it is stored. The digest goes into the stored JSON as its last key,
so the bytes are those of an event stamped before it was mapped (`chain.stamp`).

The figure (`bench.instructions`): the event loop's instructions per recorded action fell from
1,178,691 to 1,014,265 when the digests moved here.

An append that follows another of the same batch, in one statement, follows that append's
last digest (nothing of the batch is stored yet when the statement's events are stamped); an
append written in a savepoint of its own follows what the transaction holds so far. An append
that follows one the writer committed follows the head it remembers (`Stamper`): a table
recording through one server reads no digest back.

Mutants judged equivalent (bench/mutation.py, group append): in `stored_head`, the stored
digest's row not read or its digest not taken (the walk from the start that follows gives the
same head, in more time), the SQL in other letter cases (SQLite reads them alike), and the
walk's rows without their stream id (`head_of` is given the game's id).
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteCursor

from store import chain
from store.group_commit import Append, stream_hex

HEADS_KEPT = 4096  # streams whose committed head the writer remembers


class Stamper:
    """The writer's stamping (the recorder's `prepare`), which remembers, per stream, the
    last version it stamped that was committed, and that version's digest, so that the next
    append of a game follows it without reading the store. Stored events are never replaced,
    so the event a remembered head names is the one stored at its version; an append that
    does not follow it (another process appended meanwhile) reads the stored head."""

    def __init__(self) -> None:
        self.committed: dict[str, tuple[int, str]] = {}
        # this batch's appends (by the identity of their events, alive until it is written):
        # the last game event each was stamped with, its stream, version and digest
        self._stamped: dict[int, tuple[str, int, str]] = {}

    def __call__(
        self, cursor: SQLiteCursor, table: str, appends: Sequence[Sequence[StoredEvent]]
    ) -> list[list[StoredEvent]]:
        """Each append's events, its game events with their digests (events of other streams
        as they are), for inserting in one statement in the transaction `cursor` is in."""
        heads: dict[str, tuple[int, str]] = {}  # per stream, the last version stamped and its digest
        stamped: list[list[StoredEvent]] = []
        for events in appends:
            out: list[StoredEvent] = []
            for event in events:
                if event.topic not in chain.TOPICS:
                    out.append(event)
                    continue
                stream = stream_hex(event.originator_id)
                before = event.originator_version - 1
                known = heads.get(stream) or self.committed.get(stream)
                if known is not None and known[0] == before:
                    previous = known[1]
                else:
                    previous = stored_head(cursor, table, stream, before)
                event, digest = chain.stamped(previous, event)
                heads[stream] = (event.originator_version, digest)
                self._stamped[id(events)] = (stream, event.originator_version, digest)
                out.append(event)
            stamped.append(out)
        return stamped

    def written(self, appends: Sequence[Append]) -> None:
        """The batch `appends` was written: remember the heads of those committed."""
        for append in appends:
            last = self._stamped.get(id(append.events))
            if last is not None and append.done and append.error is None:
                stream, version, digest = last
                self.committed.pop(stream, None)  # the newest go last, the oldest first
                self.committed[stream] = (version, digest)
        self._stamped.clear()
        while len(self.committed) > HEADS_KEPT:
            del self.committed[next(iter(self.committed))]


def stored_head(cursor: SQLiteCursor, table: str, stream: str, version: int) -> str:
    """The digest of the stream's event at `version` as stored (the genesis before the first)."""
    if version < 1:
        return chain.GENESIS
    cursor.execute(
        f"SELECT state FROM {table} WHERE originator_id = ? AND originator_version = ?", (stream, version)
    )
    row = cursor.fetchone()
    if row is not None:
        kept = chain.kept_digest(row[0])
        if kept is not None:
            return kept
    # stored before the chain existed (or missing): the digests are worked out from the start
    cursor.execute(
        f"SELECT originator_version, topic, state FROM {table} "
        "WHERE originator_id = ? AND originator_version <= ? ORDER BY originator_version",
        (stream, version),
    )
    game_id = UUID(hex=stream)
    rows = [StoredEvent(game_id, v, topic, state) for v, topic, state in cursor.fetchall()]
    return chain.head_of(rows, game_id)
