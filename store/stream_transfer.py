"""One stream of an export in its stored form, and on import the same stream checked and turned
back into the store's events: the shared step of carrying annotations, variations and disputes
(store/studies_transfer.py, store/dispute_transfer.py)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import StoredEvent as StoredRecord

from store.app import Chronicle
from store.errors import InvalidRequest


class StreamEvent(msgspec.Struct, forbid_unknown_fields=True):
    version: int
    topic: str
    fields: dict[str, Any]


def stream_events(
    app: Chronicle, stream_id: UUID, exported: list[StreamEvent], topics: frozenset[str], what: str
) -> list[Any]:
    """The events of the `what` stream, refused (`export_invalid`) unless its versions run from 1
    without a gap and each event has one of `topics` and reads as the store's event."""
    if [e.version for e in exported] != list(range(1, len(exported) + 1)):
        raise InvalidRequest(
            f"The {what} stream's events do not run from version 1 without a gap.", code="export_invalid"
        )
    events: list[Any] = []
    for event in exported:
        if event.topic not in topics:
            raise InvalidRequest(
                f"Version {event.version} of the {what} stream has a topic it never holds.",
                code="export_invalid",
            )
        row = StoredRecord(stream_id, event.version, event.topic, msgspec.json.encode(event.fields))
        try:
            events.append(app.mapper.to_domain_event(row))
        except Exception:
            raise InvalidRequest(
                f"Version {event.version} of the {what} stream cannot be read.", code="export_invalid"
            ) from None
    return events
