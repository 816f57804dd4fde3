"""The application's save path: each game event stamped with its digest in the hash chain
(store/chain.py) as it is saved, a save split at its commit (store/saving.py) and committed
directly, in a group commit (store/group_commit.py) or by a writer process
(store/writer_process.py, which stamps the events itself: store/stamping.py), and the
listeners told of what was stored.

`SavePath` is the lowest layer of the application (store/core.py): the writer it commits
through is given by whoever builds the application (store/app.py), as a `Writer`.

Mutation testing of the append path (bench/mutation.py, group append) leaves these survivors,
judged equivalent. In `_stamp`: the range of stored events read for the digest before a save
(wider, or without its upper bound: at that moment nothing lies beyond it, and the last row's
digest is taken either way; or read before version 1, where there is none), a `TOPIC` looked up without a
default (every stored event class declares one), and the aggregate looked up unconditionally
(a save always holds the aggregate it saves). In the save split at its commit: the `strict`
of the zip of a save's events with their notification ids (one id each), the listeners' tuples built
even when the recorder numbers nothing (both recorders number every event), the `tracking`
keyword under another name, dropped or None (the application tracks nothing: it is None, and
the recorder ignores a keyword it does not know). Those of recording an action itself are
listed in store/core.py.
`_commit_async`'s PostgreSQL branch (and its look for a group commit without a default, which
only the PostgreSQL recorder would fail, as `close`'s would) is judged by the PostgreSQL tests,
which the mutation runs leave out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Protocol
from uuid import UUID

import msgspec
from eventsourcing.application import Application, ProcessingEvent
from eventsourcing.persistence import Recording
from eventsourcing.persistence import StoredEvent as StoredRecord

from domain.game import Game
from store import chain
from store.group_commit import NUMBERED, GroupCommit
from store.requests import Appended
from store.saving import PendingSave

# a stored event as a writer process takes it: stream id (32 hex digits), version, topic, state
Row = tuple[str, int, str, bytes]


class Writer(Protocol):
    """What commits the appends awaited on one event loop in a process of its own
    (store/writer_process.py): it stamps the events it is given with their digests, and
    answers the health check's pings (store/answering.py)."""

    answer_wait: float  # seconds it may answer nothing, with batches to answer, before it is replaced

    def serves(self, loop: asyncio.AbstractEventLoop) -> bool: ...

    async def submit(self, rows: list[Row]) -> Sequence[int] | None: ...

    async def answers(self, within: float) -> bool: ...

    def close(self) -> None: ...


class SavePath(Application[UUID]):
    """Saves stamped with the hash chain, committed and told to the listeners. Its
    attributes are set by the application's `__init__` (store/core.py)."""

    # called after every save with what it recorded: the live streams listen (store/fanout.py)
    listeners: list[Callable[[list[Appended]], None]]
    writer: Writer | None  # on SQLite, the writer process of the server's commits, if any
    _to_row: Callable[[Any], Row]

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        group = getattr(self.recorder, "group", None)
        if isinstance(group, GroupCommit):
            group.close()
        super().close()

    def _record(self, processing_event: Any) -> list[Recording[UUID]]:
        """Stamp each new game event with its digest in the chain (store/chain.py) as it is
        saved; a clash on the version refuses the save as before, digests and all."""
        heads = self._stamp(processing_event)
        recorded: list[Recording[UUID]] = super()._record(processing_event)
        self._keep_heads(processing_event, heads)
        return recorded

    def _stamp(
        self, processing_event: Any, states: dict[int, bytes] | None = None
    ) -> dict[UUID, tuple[int, str]]:
        """Stamp the new game events with their digests: each game's last version and digest.
        With `states`, the actions' and facts' events are written in their stored form there
        too (`chain.stamp`)."""
        new: dict[UUID, list[Any]] = {}
        for event in processing_event.events:
            if getattr(type(event), "TOPIC", None) in chain.TOPICS:
                new.setdefault(event.originator_id, []).append(event)
        heads: dict[UUID, tuple[int, str]] = {}
        for game_id, events in new.items():
            before = events[0].originator_version - 1
            game = processing_event.aggregates.get(game_id)
            known = vars(game).get("_chain_head") if game is not None else None
            if known is not None and known[0] == before:  # this aggregate saved the last event
                previous = known[1]
            else:
                rows = (
                    []
                    if before < 1
                    else list(self.recorder.select_events(game_id, gt=before - 1, lte=before))
                )
                if rows and chain.KEY not in msgspec.json.decode(rows[-1].state):
                    rows = list(self.recorder.select_events(game_id, lte=before))  # stored before the chain
                previous = chain.head_of(rows, game_id)
            plain = isinstance(game, Game) and game.ruleset.codec.plain
            heads[game_id] = (events[-1].originator_version, chain.stamp(previous, events, plain, states))
        return heads

    @staticmethod
    def _keep_heads(processing_event: Any, heads: dict[UUID, tuple[int, str]]) -> None:
        for game_id, head in heads.items():
            game = processing_event.aggregates.get(game_id)
            if game is not None:
                vars(game)["_chain_head"] = head

    # -- a save split at its commit (store/saving.py) -----------------------------------

    def _prepare_save(self, *aggregates: Any) -> PendingSave:
        """What `save(*aggregates)` does before the commit: collect the new events. They are
        stamped and mapped by the commit (`_sealed`), or mapped and left to the writer process
        to stamp."""
        processing_event: ProcessingEvent[UUID] = ProcessingEvent()
        for aggregate in aggregates:
            # as `collect_events(aggregate)`, without its runtime protocol checks
            processing_event.events.extend(aggregate.collect_events())
            processing_event.aggregates[aggregate.id] = aggregate
        return PendingSave(processing_event, [], {})

    def _sealed(self, pending: PendingSave) -> PendingSave:
        """The save's events stamped with their digests, and mapped for the store: the
        actions' and facts' events written as they are stamped, where the mapper writes them
        plainly (store/sealing.py `PLAIN_EVENTS`), the others by the mapper."""
        states: dict[int, bytes] | None = {} if self.mapper.compressor is None else None
        pending.heads = self._stamp(pending.processing_event, states)
        pending.stored = self._mapped(pending, states or {})
        return pending

    def _mapped(self, pending: PendingSave, states: dict[int, bytes]) -> list[StoredRecord]:
        to_stored = self.mapper.to_stored_event
        return [
            to_stored(e)
            if (state := states.get(id(e))) is None
            else StoredRecord(e.originator_id, e.originator_version, type(e).TOPIC, state)
            for e in pending.processing_event.events
        ]

    def _commit(self, pending: PendingSave) -> Sequence[int] | None:
        event = self._sealed(pending).processing_event
        # The ids serve the listeners alone (`_finish_save`): with none, they are not read back.
        numbered = {} if self.listeners else {NUMBERED: False}
        return self.recorder.insert_events(
            pending.stored, tracking=event.tracking, **event.saved_kwargs, **numbered
        )

    def save_stored(self, stored: list[StoredRecord]) -> None:
        """Insert rows stamped and mapped already (`_sealed`'s, store/core.py `stored_form`)
        in one transaction, as `_commit` and `_finish_save` do: the listeners told of each."""
        numbered = {} if self.listeners else {NUMBERED: False}
        ids = self.recorder.insert_events(stored, **numbered)
        if ids and self.listeners:
            self._tell(
                [
                    Appended(_uuid(r.originator_id), r.originator_version, r.topic, position)
                    for r, position in zip(stored, ids, strict=True)
                ]
            )

    async def _commit_async(self, pending: PendingSave) -> Sequence[int] | None:
        """The commit, awaited: on SQLite, in the next batch of the writer process (which
        stamps the events: store/stamping.py) or of the group commit's thread; else in a
        thread."""
        writer = self.writer
        if writer is not None and writer.serves(asyncio.get_running_loop()):
            to_row = self._to_row
            # the application tracks nothing: no kwargs
            return await writer.submit([to_row(e) for e in pending.processing_event.events])
        event = self._sealed(pending).processing_event
        group = getattr(self.recorder, "group", None)
        if isinstance(group, GroupCommit):
            kwargs = {"tracking": event.tracking, **event.saved_kwargs}
            return await group.submit_async(pending.stored, kwargs)
        return await asyncio.to_thread(self._commit, pending)

    def _finish_save(self, pending: PendingSave, ids: Sequence[int] | None) -> None:
        """What `save` does after the commit: keep the chain's head and tell the listeners."""
        self._keep_heads(pending.processing_event, pending.heads)
        # none when the recorder numbers nothing, as the library's `put`; nobody to tell when
        # nobody listens (a command storing simulated games)
        if ids and self.listeners:
            self._tell(
                [
                    Appended(e.originator_id, e.originator_version, type(e).TOPIC, position)
                    for e, position in zip(pending.processing_event.events, ids, strict=True)
                ]
            )

    def _notify(self, recordings: list[Recording[UUID]]) -> None:
        """The library's hook after a save it made (`save`): the listeners hear of it."""
        self._tell(
            [
                Appended(
                    r.domain_event.originator_id,
                    r.domain_event.originator_version,
                    r.notification.topic,
                    r.notification.id,
                )
                for r in recordings
            ]
        )

    def _tell(self, appended: list[Appended]) -> None:
        for listener in self.listeners:
            listener(appended)

    def _cache(self, game: Game) -> None:
        """Keep the saved aggregate, so the next command does not fold its own facts again.
        Other processes' writes still arrive: every read fast-forwards from the store."""
        if self.repository.cache is not None:
            self.repository.cache.put(game.id, game)


def _uuid(stream: UUID | str) -> UUID:
    return stream if isinstance(stream, UUID) else UUID(stream)
