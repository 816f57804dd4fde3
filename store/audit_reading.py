"""A game's stream read once for its audit: one query for its rows, each row's JSON decoded
once into both what the audit needs of it: the canonical form its chain digest is recomputed
from, with the digest it keeps (store/chain.py `check_bodies`), and the domain event the
rules re-decide, as the store's mapper reads it (store/sealing.py).

An action's or a fact's row (nearly every row) written as the store writes it is read by a
typed decoder that takes exactly its fields, of exactly their types, and no float; its
canonical form is then written straight from what was decoded, and its event made as the
mapper's own fast way makes it (`plain_event_of`). Any other row, and any such row the typed
decoder refuses (a field more or less, another type, a float, JSON msgspec does not read),
is read as the chain and the mapper read it (`chain.read_fields`, `mapper.to_domain_event`),
so the events, the chain and the errors are those of reading the stream the general way.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple
from uuid import UUID

import msgspec
from eventsourcing.persistence import StoredEvent as StoredRecord
from eventsourcing.sqlite import SQLiteAggregateRecorder

from domain.events import ActionRecorded, FactRecorded
from store import chain
from store.core import Core
from store.sealing import SealingMapper, plain_event_of

Row = tuple[int, str, bytes]  # version, topic, stored JSON

_WHEN = "datetime_iso"


class _FactRow(msgspec.Struct, forbid_unknown_fields=True):
    """A fact's stored JSON as the store writes it, its fields in their stored order; the
    fact kept as its row holds it (`Stream.facts`), then read on its own."""

    timestamp: dict[str, str]
    fact: msgspec.Raw
    chain: str | msgspec.UnsetType = msgspec.UNSET


class _ActionRow(msgspec.Struct, forbid_unknown_fields=True):
    """An action's stored JSON as the store writes it, its fields in their stored order.
    Encoded with `order="sorted"` and no digest (UNSET is never written), it is its
    canonical form."""

    timestamp: dict[str, str]
    seq: int
    action: Any
    seat: str | None
    by: str
    action_id: str | None
    chain: str | msgspec.UnsetType = msgspec.UNSET


class Stream(NamedTuple):
    """A game's stream as the audit reads it, one entry per stored event in version order."""

    events: list[Any]  # as the store's mapper reads them
    bodies: list[chain.Body]  # as the chain digests them
    facts: list[bytes | None]  # a fact's JSON as its row holds it, where read the typed way


class _Float(Exception):
    pass


def _no_float(literal: str) -> Any:
    raise _Float(literal)


_FACT_ROW = msgspec.json.Decoder(_FactRow, float_hook=_no_float)
_ACTION_ROW = msgspec.json.Decoder(_ActionRow, float_hook=_no_float)
_VALUE = msgspec.json.Decoder(float_hook=_no_float)
_PLAIN_TOPICS: dict[str, type[Any]] = {ActionRecorded.TOPIC: ActionRecorded, FactRecorded.TOPIC: FactRecorded}
_encode = msgspec.json.encode


def stream_rows(app: Core, game_id: UUID) -> list[Row]:
    """A game's stored rows in version order, in one query."""
    recorder = app.recorder
    if isinstance(recorder, SQLiteAggregateRecorder):
        # Plain tuples: the library's `select_events` makes a `sqlite3.Row`, a stored event
        # and a UUID for every row, which costs about what decoding the row does.
        statement = (
            f"SELECT originator_version, topic, state FROM {recorder.events_table_name} "
            "WHERE originator_id=? ORDER BY originator_version"
        )
        with recorder.datastore.transaction(commit=False) as cursor:
            plain = cursor.sqlite_cursor
            plain.row_factory = None
            plain.execute(statement, (game_id.hex,))
            found: list[Row] = plain.fetchall()
            return found
    return [(r.originator_version, r.topic, r.state) for r in recorder.select_events(game_id)]


def read_stream(app: Core, game_id: UUID, rows: list[Row]) -> Stream:
    """The stream's domain events, and its rows as the chain digests them.

    An action's events share its timestamp, so the last one read is kept, parsed and in its
    canonical form; and a stream holds each distinct fact about four times over (a card
    drawn, a phase changed), so each is decoded and written in its canonical form once, its
    events sharing the fact read (the audit never changes one). One loop, every name local:
    a call or an attribute more for each row would cost a tenth of the reading."""
    mapper = app.mapper
    typed = isinstance(mapper, SealingMapper) and mapper.compressor is None
    stream = Stream([], [], [])
    events, bodies, facts = stream
    fact_topic, action_topic = FactRecorded.TOPIC, ActionRecorded.TOPIC
    read_fact, read_action, read_value = _FACT_ROW.decode, _ACTION_ROW.decode, _VALUE.decode
    encode, replace, unset, new = _encode, msgspec.structs.replace, msgspec.UNSET, object.__new__
    set_fields = object.__setattr__
    refused = (msgspec.DecodeError, _Float)
    known: dict[bytes, tuple[Any, bytes]] = {}  # a fact as stored: read, and canonical
    written = ""  # the last timestamp read, as stored; parsed; in its canonical form
    when: datetime | None = None
    stamp_body = b""
    for version, topic, state in rows:
        row: Any = None
        if typed and topic in (fact_topic, action_topic):
            try:
                row = read_fact(state) if topic == fact_topic else read_action(state)
            except refused:
                row = None
        if row is not None:
            stamp = row.timestamp
            text = stamp.get("_data_")
            if len(stamp) != 2 or stamp.get("_type_") != _WHEN or text is None:
                row = None
            elif text != written:
                try:
                    when = datetime.fromisoformat(text)
                except ValueError:
                    row = None
                else:
                    written, stamp_body = text, encode(stamp, order="sorted")
        if row is not None and topic == fact_topic:
            stored = bytes(row.fact)
            found = known.get(stored)
            if found is None:
                try:
                    value = read_value(stored)
                except refused:
                    row = None
                else:
                    found = known[stored] = value, encode(value, order="sorted")
            if found is not None:
                value, written_fact = found
        if row is None:
            _read_generally(stream, mapper, game_id, version, topic, state, typed)
            continue
        if topic == fact_topic:
            fields = {"timestamp": when, "fact": value}
            body = b'{"fact":%s,"timestamp":%s}' % (written_fact, stamp_body)
            facts.append(stored)
        else:
            fields = {
                "timestamp": when,
                "seq": row.seq,
                "action": row.action,
                "seat": row.seat,
                "by": row.by,
                "action_id": row.action_id,
            }
            body = encode(replace(row, chain=unset), order="sorted")
            facts.append(None)
        # the event as `plain_event_of` makes it: its stored fields, then its stream
        kept = row.chain
        if kept is unset:  # stored before the chain existed
            kept = None
        else:
            fields["chain"] = kept
        fields["originator_id"] = game_id
        fields["originator_version"] = version
        event = new(FactRecorded if topic == fact_topic else ActionRecorded)
        set_fields(event, "__dict__", fields)
        events.append(event)
        bodies.append((version, topic, body, kept))
    return stream


def _read_generally(
    stream: Stream, mapper: Any, game_id: UUID, version: int, topic: str, state: bytes, typed: bool
) -> None:
    """A row read as the chain and the store's mapper read any row."""
    events, bodies, facts = stream
    try:
        value, plain = chain.read_fields(state)
    except Exception as error:  # raised again where the general way raises it
        bodies.append((version, topic, error, None))
        value, plain = None, False
    else:
        bodies.append(chain.body_of(version, topic, value, plain))
    cls = _PLAIN_TOPICS.get(topic) if typed else None
    event = None
    if cls is not None and plain and type(value) is dict:
        event = plain_event_of(cls, dict(value), game_id, version)
    if event is None:
        event = mapper.to_domain_event(StoredRecord(game_id, version, topic, state))
    events.append(event)
    facts.append(None)
