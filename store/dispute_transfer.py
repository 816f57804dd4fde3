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

from store.disputes import TOPICS, Dispute, disputes_of
from store.errors import InvalidRequest
from store.stream_transfer import StreamEvent, stream_events

OPENED = Dispute.Created.TOPIC


class ExportedDispute(msgspec.Struct, forbid_unknown_fields=True):
    stream_id: str
    events: list[StreamEvent]


def export_disputes(app: Any, game_id: UUID) -> list[ExportedDispute]:
    streams = []
    for dispute_id in disputes_of(app, game_id):
        rows = app.recorder.select_events(dispute_id)
        events = [StreamEvent(r.originator_version, r.topic, json.loads(r.state)) for r in rows]
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
        if stream.events and stream.events[0].fields.get("game_id") != str(game_id):
            raise InvalidRequest(f"Dispute {stream_id} is not over this game.", code="export_invalid")
        opened_first = [e.topic == OPENED for e in stream.events] == [e.version == 1 for e in stream.events]
        if not stream.events or not opened_first:
            raise InvalidRequest(
                f"Dispute {stream_id} does not open with its claim and only then rule on it.",
                code="export_invalid",
            )
        events += stream_events(app, stream_id, stream.events, TOPICS, "dispute")
    return events
