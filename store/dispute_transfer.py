"""A game's disputes in its export (store/transfer.py): each dispute's stream in its stored form,
and on import the same streams checked and turned back into the store's events.

A dispute travels as `{"stream_id", "events": [{"version", "topic", "fields"}]}`. An import
stores it under the same id, in the transaction that stores the game, after checking that it is
a dispute (its first event opens one, the others rule on it) over this very game, whose versions
run from 1 without a gap; anything else is refused (`export_invalid`) before anything is stored.
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import StoredEvent as StoredRecord

from store.disputes import TOPICS, Dispute, disputes_of
from store.errors import InvalidRequest

OPENED = Dispute.Created.TOPIC


class StreamRecord(msgspec.Struct, forbid_unknown_fields=True):
    version: int
    topic: str
    fields: dict[str, Any]


class ExportedDispute(msgspec.Struct, forbid_unknown_fields=True):
    stream_id: str
    events: list[StreamRecord]


def export_disputes(app: Any, game_id: UUID) -> list[ExportedDispute]:
    streams = []
    for dispute_id in disputes_of(app, game_id):
        rows = app.recorder.select_events(dispute_id)
        events = [StreamRecord(r.originator_version, r.topic, json.loads(r.state)) for r in rows]
        streams.append(ExportedDispute(str(dispute_id), events))
    return streams


def prepare_disputes(app: Any, game_id: UUID, streams: list[ExportedDispute]) -> list[Any]:
    """The exported disputes as the store's events, each checked to be a dispute over this game."""
    events: list[Any] = []
    for stream in streams:
        try:
            stream_id = UUID(stream.stream_id)
        except ValueError:
            raise InvalidRequest(
                f"{stream.stream_id!r} is not a dispute id.", code="export_invalid"
            ) from None
        versions = [e.version for e in stream.events]
        if not versions or versions != list(range(1, len(versions) + 1)):
            raise InvalidRequest(
                f"Dispute {stream_id}'s events do not run from version 1 without a gap.",
                code="export_invalid",
            )
        if stream.events[0].fields.get("game_id") != str(game_id):
            raise InvalidRequest(f"Dispute {stream_id} is not over this game.", code="export_invalid")
        for event in stream.events:
            if event.topic not in TOPICS or (event.version == 1) != (event.topic == OPENED):
                raise InvalidRequest(
                    f"Dispute {stream_id} has an event no dispute holds at version {event.version}.",
                    code="export_invalid",
                )
            row = StoredRecord(stream_id, event.version, event.topic, msgspec.json.encode(event.fields))
            try:
                events.append(app.mapper.to_domain_event(row))
            except Exception:
                raise InvalidRequest(
                    f"Dispute {stream_id} cannot be read at version {event.version}.", code="export_invalid"
                ) from None
    return events
