"""One stream of an export in its stored form, and on import the same stream checked and turned
back into the store's events: the shared step of carrying a game's events, its annotations,
variations and disputes (store/transfer.py, store/studies_transfer.py, store/dispute_transfer.py).

Every exported event is read against its event class before anything is stored: a field the
class does not declare, a declared field without a default that is missing, or a value of
another type than the class declares is refused (`export_invalid`). The library's mapper would
store whatever the file holds, and a stored field no event class knows is read by nobody, so it
would forge a record that every later export carries. Two fields stand beside the declared ones,
as the store writes them: each game event's digest in the hash chain (absent before the chain
existed), and a same-deal game's first game on its `GameCreated`.
"""

from __future__ import annotations

import dataclasses
import typing
from functools import cache
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import StoredEvent as StoredRecord
from eventsourcing.utils import resolve_topic

from domain.events import GameCreated
from store import chain
from store.core import Core
from store.errors import InvalidRequest

# fields the store keeps beside an event's declared ones (see the module's docstring)
EXTRA_FIELDS = {topic: frozenset({chain.KEY}) for topic in chain.TOPICS} | {
    GameCreated.TOPIC: frozenset({chain.KEY, "deal"})
}
ROW_FIELDS = frozenset({"originator_id", "originator_version"})  # the row's, not the state's


class StreamEvent(msgspec.Struct, forbid_unknown_fields=True):
    version: int
    topic: str
    fields: dict[str, Any]


@cache
def _declared(topic: str) -> dict[str, Any]:
    """The stored fields of the event class of `topic`, with their types."""
    cls = resolve_topic(topic)
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls) if f.name not in ROW_FIELDS}


@cache
def _optional(topic: str) -> frozenset[str]:
    """The fields of `topic`'s class with a default: a field added to an event type since an
    export was written (a dispute's `game_head`) may be absent from it."""
    fields = dataclasses.fields(resolve_topic(topic))
    return frozenset(f.name for f in fields if f.default is not dataclasses.MISSING)


def exported_event(
    app: Core, stream_id: UUID, version: int, topic: str, fields: dict[str, Any], what: str
) -> Any:
    """The exported event as the store's own event, refused (`export_invalid`) unless its fields
    are exactly those its class declares (with the stored extras) and of the declared types."""
    where = f"Version {version} of the {what} stream"
    declared = _declared(topic)
    unknown = sorted(set(fields) - set(declared) - EXTRA_FIELDS.get(topic, frozenset()))
    missing = sorted(set(declared) - set(fields) - _optional(topic))
    if unknown or missing:
        said = [f"holds {', '.join(unknown)}, which {topic} does not have"] if unknown else []
        said += [f"lacks {', '.join(missing)}"] if missing else []
        raise InvalidRequest(f"{where} {' and '.join(said)}.", code="export_invalid")
    row = StoredRecord(stream_id, version, topic, msgspec.json.encode(fields))
    try:
        event = app.mapper.to_domain_event(row)
        for name, kind in declared.items():
            msgspec.convert(getattr(event, name), kind, strict=True, from_attributes=False)
    except Exception:
        raise InvalidRequest(f"{where} cannot be read.", code="export_invalid") from None
    return event


def stream_events(
    app: Core, stream_id: UUID, exported: list[StreamEvent], topics: frozenset[str], what: str
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
        events.append(exported_event(app, stream_id, event.version, event.topic, event.fields, what))
    return events
