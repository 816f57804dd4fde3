"""What travels with an exported game beside its own stream: its annotations and variations.

An export (store/transfer.py) carries the stream of the game's annotations and, for each
variation branching from it (in the order they were made, so a base comes before what
branches from it), the variation's stream and its annotations' stream, every event in its
stored form. Ids are kept: an annotations stream's id is derived from its target's, and a
variation keeps its own, so the family reads the same after the import.

What stays behind: review tokens and every token (an import hands out new recorder and seat
tokens); a running digital play-on game, whose seed is sealed and never leaves its server
(export again once it ends); and while the game runs, the annotations of a line that is not
open to all, unless the administrator exports (they hold every side's words, store/notes.py).
A study's seed is stated in its stream, and a finished play-on game's revealed, so both are
sealed again on import from what the file holds. Each variation is audited on import as `audit
VAR` audits it (its actions re-decided from its branching position, a study's seed checked
against its derivation from the base's), from the events the import brings, before anything is
stored: a line whose actions or facts were rewritten is refused (`export_unclean`).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from domain.events import GameAbandoned, GameFinished
from domain.notes import Annotations, annotations_id
from domain.variations import Variation, VariationList, list_id
from store import chain
from store.aggregates import existing
from store.clock import now as _now
from store.core import Core
from store.errors import InvalidRequest
from store.lines import as_game_event, line
from store.requests import Access
from store.secrets import GameSecrets, new_token
from store.stream_transfer import StreamEvent, stream_events
from store.variations import audit_carried

ANNOTATION_TOPICS = frozenset(
    cls.TOPIC for cls in (Annotations.Created, Annotations.Added, Annotations.Edited, Annotations.Deleted)
)
VARIATION_TOPICS = frozenset(
    cls.TOPIC
    for cls in (
        Variation.Created,
        Variation.ActionRecorded,
        Variation.FactRecorded,
        Variation.Finished,
    )
)


class ExportedVariation(msgspec.Struct, forbid_unknown_fields=True):
    variation_id: str
    events: list[StreamEvent]
    annotations: list[StreamEvent] = []


def _stream(app: Core, stream_id: UUID) -> list[StreamEvent]:
    rows = app.recorder.select_events(stream_id)
    return [StreamEvent(r.version, r.topic, r.fields) for r in chain.records_of_rows(rows)]


def export_studies(
    app: Core, game_id: UUID, access: Access
) -> tuple[list[StreamEvent], list[ExportedVariation]]:
    """The game's annotations stream and its variations, as the exporter may take them."""
    admin = access.role == "admin"
    notes = _stream(app, annotations_id(game_id)) if admin or line(app, game_id).open_to_all else []
    listing = existing(app, list_id(game_id), VariationList)
    if listing is None:
        return notes, []
    carried: list[ExportedVariation] = []
    for vid in map(UUID, listing.variations):
        found = line(app, vid)
        variation = found.variation
        assert variation is not None
        if variation.mode == "digital" and variation.purpose == "game" and not found.game.closed:
            continue  # its seed is sealed on this server
        shown = admin or found.open_to_all
        carried.append(
            ExportedVariation(str(vid), _stream(app, vid), _stream(app, annotations_id(vid)) if shown else [])
        )
    return notes, carried


class Prepared(msgspec.Struct):
    """The events and secrets an import writes beside the game, and the new tokens."""

    events: list[Any]
    recorder_tokens: dict[str, str]


def prepare_studies(
    app: Core,
    game_id: UUID,
    game: list[Any],
    seats: list[str],
    notes: list[StreamEvent],
    carried: list[ExportedVariation],
) -> Prepared:
    """The exported annotations and variations as the store's own events, checked before
    anything is stored: known topics, versions from 1 without a gap, each variation of this
    game (whose events are `game`) branching from it or from a variation before it, readable
    fields, and every variation audited as `audit VAR` would (`export_unclean`)."""
    events = stream_events(app, annotations_id(game_id), notes, ANNOTATION_TOPICS, "annotations")
    tokens: dict[str, str] = {}
    known = {str(game_id)}
    closing = next((e for e in game if isinstance(e, GameFinished | GameAbandoned)), None)
    # each line's events and the seed it states or revealed, for what branches from it
    lines: dict[str, tuple[list[Any], str]] = {str(game_id): (game, closing.server_seed if closing else "")}
    listing = VariationList.open(game_id, _now()) if carried else None
    for exported in carried:
        vid = _uuid(exported.variation_id)
        stream = stream_events(app, vid, exported.events, VARIATION_TOPICS, "variation")
        created = stream[0] if stream else None
        if (
            not isinstance(created, Variation.Created)
            or created.game_id != str(game_id)
            or created.base_id not in known
        ):
            raise InvalidRequest(
                f"Variation {vid} does not branch from this game or a variation before it.",
                code="export_invalid",
            )
        known.add(str(vid))
        finished = next((e for e in stream if isinstance(e, Variation.Finished)), None)
        seed = created.seed or (finished.server_seed if finished is not None else "")
        if created.mode == "digital" and not seed:
            raise InvalidRequest(
                f"Variation {vid} is a running digital game: its seed stays on its server.",
                code="game_running_digital",
            )
        base, base_seed = lines[created.base_id]
        if not 1 <= created.at <= len(base):
            raise InvalidRequest(
                f"Variation {vid} branches where its base has no version.", code="export_invalid"
            )
        prefix = base[: created.at]
        report = audit_carried(vid, created, stream[1:], prefix, base_seed)
        if not report.clean:
            assert report.divergence is not None
            divergence = report.divergence
            raise InvalidRequest(
                f"Variation {vid} does not audit clean at version {divergence.version}: "
                f"{divergence.what} ({divergence.code}).",
                code="export_unclean",
            )
        origin = prefix[0].originator_id
        own = [as_game_event(e, origin, created.at + e.originator_version - 1) for e in stream[1:]]
        lines[str(vid)] = (prefix + own, seed)
        roles = ["recorder"] + ([f"seat:{s}" for s in seats] if created.purpose == "game" else [])
        new = {role: new_token() for role in roles}
        tokens[str(vid)] = new["recorder"]
        sealed = GameSecrets.seal(vid, bytes.fromhex(seed) if seed else None, new)
        events += [*stream, *sealed.collect_events()]
        notes_id = annotations_id(vid)
        events += stream_events(app, notes_id, exported.annotations, ANNOTATION_TOPICS, "annotations")
        assert listing is not None
        listing.add(vid, _now())
    if listing is not None:
        events += listing.collect_events()
    return Prepared(events, tokens)


def _uuid(text: str) -> UUID:
    try:
        return UUID(text)
    except ValueError:
        raise InvalidRequest(f"{text!r} is not a variation id.", code="export_invalid") from None
