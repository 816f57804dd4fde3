"""A game's disputes in its export (store/transfer.py): each dispute's stream in its stored form,
and on import the same streams checked and turned back into the store's events.

A dispute travels as `{"stream_id", "events": [{"version", "topic", "fields"}]}`. An import
stores it under the same id, in the transaction that stores the game, after checking that it is
a dispute (its first event opens one, the others rule on it) over this very game, whose versions
run from 1 without a gap, whose range lies within the game as it stood when the dispute was
opened, opened by one of the game's seats, its recorder or an administrator, and ruled on by a
recorder or an administrator; anything else is refused (`export_invalid`) before anything is
stored. The verdict is not taken from the file: the engine decides it again over the imported
events and stores that one, and an `Imported` event names the store the export came from, so
its rulings keep their provenance (store/disputes.py).
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

import msgspec

from domain.events import GameAbandoned, GameCreated, GameFinished
from store.clock import now as _now
from store.disputes import MAX_CLAIM, RULERS, TOPICS, Dispute, claim_holds, disputes_of
from store.errors import InvalidRequest
from store.stream_transfer import StreamEvent, stream_events
from store.verdict import verdict

OPENED = Dispute.Created.TOPIC
IMPORTED: Any = Dispute.Imported  # the library's dataclass event, whose fields mypy cannot see


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


def prepare_disputes(
    app: Any, game_id: UUID, game: list[Any], streams: list[ExportedDispute], origin: str
) -> list[Any]:
    """The exported disputes as the store's events, each checked to be a dispute over this game
    (whose stored events are `game`), with the verdict decided again and the `origin` store."""
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
        carried = stream_events(app, stream_id, stream.events, TOPICS, "dispute")
        opened = carried[0]
        _check(stream_id, game, opened, carried[1:])
        judged = verdict(game[: opened.game_version], _seed(game), opened.first, opened.last)
        vars(opened)["verdict"] = msgspec.to_builtins(judged)  # the engine's, never the file's
        marker = IMPORTED(
            originator_id=stream_id, originator_version=len(carried) + 1, timestamp=_now(), store=origin
        )
        events += [*carried, marker]
    return events


def _check(stream_id: UUID, game: list[Any], opened: Any, then: list[Any]) -> None:
    """Refuse a dispute whose claim, range, opener or rulings the store would never have stored."""
    created = game[0]
    assert isinstance(created, GameCreated)
    openers = {"recorder", "admin", *(f"seat:{s['id']}" for s in created.seats)}
    problem = (
        f"its claim is not 1 to {MAX_CLAIM} characters of text"
        if not claim_holds(opened.claim)
        else f"it was opened by {opened.opened_by!r}, who holds no token of the game"
        if opened.opened_by not in openers
        else "its range does not lie within the game as it stood when the dispute was opened"
        if not 1 <= opened.first <= opened.last <= opened.game_version <= len(game)
        else next(
            (
                f"a ruling is by {ruled.by!r}, not the recorder or an administrator"
                for ruled in then
                if isinstance(ruled, Dispute.Ruled) and ruled.by not in RULERS
            ),
            None,
        )
    )
    if problem is not None:
        raise InvalidRequest(f"Dispute {stream_id} cannot be stored: {problem}.", code="export_invalid")


def _seed(game: list[Any]) -> bytes | None:
    """The revealed seed a dispute is judged with (a running game imports only when physical)."""
    closing = next((e for e in game if isinstance(e, GameFinished | GameAbandoned)), None)
    if closing is None or game[0].mode != "digital":
        return None
    return bytes.fromhex(closing.server_seed)
