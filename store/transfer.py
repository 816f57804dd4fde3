"""Export and import: a game carried whole, as stored, into another store or server.

An export holds every stored event of the game's stream in its stored form (version, topic and
the stored JSON fields, each with its digest in the hash chain, store/chain.py), retractions and
their requests included, and the chain's head. It is the stored form, so it holds every hidden
fact recorded so far: a viewer who does not see the stored events whole (a seat or the public,
while the game runs) may not export it (403 `export_not_allowed`); the recorder and an
administrator may at any time, everyone once the game has ended. No export holds a seed that
was not revealed: the seed lives in the game's secrets, which never leave the store, and a
digital game shows it only in its finishing event.

What that means for importing: a finished (or abandoned) game imports whole and audits as it
did where it came from, random outcomes included (its seed was revealed). A running physical
game imports and can be recorded on. A running digital game does not import
(`game_running_digital`): without its seed nobody could draw its next card, and the seed never
leaves its server; export it again once it ends. An import gets fresh tokens (a recorder token
and one per seat): tokens are stored hashed and are never exported.

Before anything is stored, an import checks the file's format, the chain (every digest, and the
head the file states), reads every event against its class (store/stream_transfer.py: no field
the class does not have), and audits the game as the audit endpoint would, finished or running,
so a game whose actions were rewritten and its chain recomputed is refused (`export_unclean`).
A game id the store already holds is refused (409 `game_exists`), and so is any id of the
import that a stream of the store has or would derive (409 `id_taken`, store/import_ids.py).
The events, the new secrets, the disputes and annotations and variations, and a same-deal
game's place in its deal are written in one transaction, byte for byte the fields the events
had, so the chain's head stays the same; a clash at that moment stores nothing.

JSON: one object `{"format", "game_id", "status", "chain": {"algorithm", "head"}, "events":
[...], "annotations": [...], "variations": [...], "disputes": [...]}`; NDJSON: that object
without its lists on the first line (with their lengths), then one event per line, then one
annotations event per line, one variation per line, and one dispute per line. Annotations and
variations travel as store/studies_transfer.py says.

The game's disputes (store/disputes.py) travel with it: `"disputes": [{"stream_id", "events":
[...]}]`, each stream in its stored form, and `"origin"`, the name of the store that exported
them (store/identity.py), which their rulings keep as their provenance. Both keys are left out
when there are no disputes, so such an export reads as before. An import stores them with
their ids, each judged again by the engine (store/dispute_transfer.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec
from eventsourcing.persistence import IntegrityError

from domain.events import GameAbandoned, GameCreated, GameFinished
from store import chain, deals
from store.audit import audit_events
from store.core import Core
from store.dispute_transfer import ExportedDispute, export_disputes, prepare_disputes
from store.errors import Forbidden, InvalidRequest, ServiceError, VersionConflict
from store.identity import store_name
from store.import_ids import RANDOM, IdTaken, check_free, claimed
from store.requests import Access
from store.secrets import GameSecrets, new_token
from store.stream_transfer import StreamEvent, exported_event
from store.studies_transfer import ExportedVariation, export_studies, prepare_studies

FORMAT = "chronicle-export-v1"
Format = Literal["json", "ndjson"]


class GameExists(ServiceError):
    status = 409
    code = "game_exists"
    title = "The store already holds this game"


class ChainHead(msgspec.Struct, forbid_unknown_fields=True):
    algorithm: str
    head: str


class ExportedEvent(msgspec.Struct, forbid_unknown_fields=True):
    version: int
    topic: str
    fields: dict[str, Any]


class Header(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    format: str
    game_id: str
    status: str
    chain: ChainHead
    events: int
    annotations: int = 0
    variations: int = 0
    disputes: int = 0
    origin: str = ""


class Export(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    # checked by the import (`export_invalid`, naming the format it reads); said in the document
    format: Annotated[str, msgspec.Meta(extra_json_schema={"enum": [FORMAT]})]
    game_id: str
    status: str
    chain: ChainHead
    events: list[ExportedEvent]
    annotations: list[StreamEvent] = []
    variations: list[ExportedVariation] = []
    disputes: list[ExportedDispute] = []
    origin: str = ""  # the exporting store's name, for its disputes' rulings


class Imported(msgspec.Struct):
    """The answer to an import: the game, its status, the chain head and new tokens."""

    game_id: str
    status: str
    version: int
    head: str
    recorder_token: str
    seat_tokens: dict[str, str]
    variation_tokens: dict[str, str] = {}  # each variation's new recorder token


def export_game(app: Core, game_id: UUID, access: Access) -> Export:
    game = app.game(game_id)
    if app.viewer(game, access).kind != "omniscient":
        raise Forbidden(
            "An export holds every stored fact: while the game runs only the recorder or an "
            "administrator may take it.",
            code="export_not_allowed",
        )
    rows = list(app.recorder.select_events(game_id))
    records = chain.records_of_rows(rows)
    found = chain.check(game_id, records)
    notes, variations = export_studies(app, game_id, access)
    disputes = export_disputes(app, game_id)
    return Export(
        FORMAT,
        str(game_id),
        game.status,
        ChainHead(found.algorithm, found.head),
        [ExportedEvent(r.version, r.topic, r.fields) for r in records],
        notes,
        variations,
        disputes,
        store_name(app) if disputes else "",
    )


def ndjson_lines(export: Export) -> Iterator[bytes]:
    header = Header(
        format=export.format,
        game_id=export.game_id,
        status=export.status,
        chain=export.chain,
        events=len(export.events),
        annotations=len(export.annotations),
        variations=len(export.variations),
        disputes=len(export.disputes),
        origin=export.origin,
    )
    yield msgspec.json.encode(header) + b"\n"
    for part in (export.events, export.annotations, export.variations, export.disputes):
        for item in part:
            yield msgspec.json.encode(item) + b"\n"


def encode(export: Export, form: Format) -> bytes:
    return b"".join(ndjson_lines(export)) if form == "ndjson" else msgspec.json.encode(export)


def decode(data: bytes) -> Export:
    """An export file in either form; a one-sentence `InvalidRequest` when it is none."""
    try:
        text = data.lstrip()
        first_line = text.split(b"\n", 1)[0]
        if text.startswith(b"{") and b'"events":[' not in first_line.replace(b" ", b""):
            lines = [line for line in text.splitlines() if line.strip()]
            header = msgspec.json.decode(lines[0], type=Header)
            announced = header.events + header.annotations + header.variations + header.disputes
            if len(lines) - 1 != announced:
                raise InvalidRequest(
                    f"The export announces {announced} lines after its header and holds {len(lines) - 1}.",
                    code="export_invalid",
                )
            notes_from = 1 + header.events
            variations_from = notes_from + header.annotations
            disputes_from = variations_from + header.variations
            events = [msgspec.json.decode(line, type=ExportedEvent) for line in lines[1:notes_from]]
            notes = [
                msgspec.json.decode(line, type=StreamEvent) for line in lines[notes_from:variations_from]
            ]
            variations = [
                msgspec.json.decode(line, type=ExportedVariation)
                for line in lines[variations_from:disputes_from]
            ]
            disputes = [msgspec.json.decode(line, type=ExportedDispute) for line in lines[disputes_from:]]
            return Export(
                header.format,
                header.game_id,
                header.status,
                header.chain,
                events,
                notes,
                variations,
                disputes,
                header.origin,
            )
        return msgspec.json.decode(text, type=Export)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        raise InvalidRequest(f"This is not a Chronicle export: {error}.", code="export_invalid") from None


def import_game(app: Core, export: Export) -> Imported:
    """Store the exported game (see the module's docstring for what is checked first)."""
    if export.format != FORMAT:
        raise InvalidRequest(
            f"Unknown export format {export.format!r}; expected {FORMAT}.", code="export_invalid"
        )
    try:
        game_id = UUID(export.game_id)
    except ValueError:
        raise InvalidRequest(f"{export.game_id!r} is not a game id.", code="export_invalid") from None
    records = [chain.Record(e.version, e.topic, e.fields) for e in export.events]
    if [r.version for r in records] != list(range(1, len(records) + 1)) or not records:
        raise InvalidRequest(
            "The export's events do not run from version 1 without a gap.", code="export_invalid"
        )
    found = chain.check(game_id, records)
    if not found.intact or found.head != export.chain.head or found.stored != len(records):
        where = f" at version {found.broken_at}" if found.broken_at is not None else ""
        raise InvalidRequest(
            f"The export's hash chain does not hold{where}: it was edited after it was exported.",
            code="chain_broken",
        )
    events = _domain_events(app, game_id, records)
    created = events[0]
    closing = next((e for e in events if isinstance(e, GameFinished | GameAbandoned)), None)
    if created.mode == "digital" and closing is None:
        raise InvalidRequest(
            "A running digital game does not import: its seed stays on its server. "
            "Export it again once it has ended.",
            code="game_running_digital",
        )
    report = audit_events(events, None)
    if not report.clean:
        assert report.divergence is not None
        divergence = report.divergence
        raise InvalidRequest(
            f"The exported game does not audit clean at version {divergence.version}: "
            f"{divergence.what} ({divergence.code}).",
            code="export_unclean",
        )
    deal = _deal(created)
    attached = prepare_disputes(app, game_id, events, export.disputes, export.origin)
    seats = [s["id"] for s in created.seats]
    studies = prepare_studies(app, game_id, events, seats, export.annotations, export.variations)
    owners = [(game_id, "game")]
    owners += [(UUID(v.variation_id), "variation") for v in export.variations]
    owners += [(UUID(d.stream_id), "dispute") for d in export.disputes]
    taken = claimed(owners)
    _not_held(app, game_id)
    check_free(app, taken)
    tokens = {f"seat:{s}": new_token() for s in seats} | {"recorder": new_token()}
    seed = closing.server_seed if closing is not None and created.mode == "digital" else None
    sealed = GameSecrets.seal(game_id, bytes.fromhex(seed) if seed else None, tokens)
    stored = [*events, *sealed.collect_events(), *studies.events, *attached]
    for _attempt in range(5):
        # a same-deal game joins its deal in the same transaction
        joined = deals.joined(app, deal, game_id).collect_events() if deal is not None else []
        try:
            app.events.put([*stored, *joined])
            break
        except IntegrityError:
            # a racing import took the game or another of its ids first, or a table joined the deal
            _not_held(app, game_id)
            check_free(app, taken)
            if deal is None:
                raise IdTaken(
                    "Another write took one of this import's ids meanwhile; nothing was stored."
                ) from None
    else:
        raise VersionConflict("Other tables keep joining this game's deal; try again.")
    status = "abandoned" if isinstance(closing, GameAbandoned) else "finished" if closing else "running"
    return Imported(
        str(game_id),
        status,
        len(records),
        found.head,
        tokens["recorder"],
        {s: tokens[f"seat:{s}"] for s in seats},
        studies.recorder_tokens,
    )


def _not_held(app: Core, game_id: UUID) -> None:
    """Refuse a game the store holds already (`game_exists`); an id held by a stream of another
    kind is left to `check_free` (`id_taken`)."""
    held = app.recorder.select_events(game_id, limit=1)
    if held and held[0].topic == GameCreated.TOPIC:
        raise GameExists(f"This store already holds game {game_id}.")


def _deal(created: Any) -> UUID | None:
    """A same-deal game's first game, which must be a game's id."""
    deal = vars(created).get("deal")
    if deal is None or deal == "":
        return None
    try:
        first = UUID(deal) if isinstance(deal, str) else None
    except ValueError:
        first = None
    if first is None or first.version != RANDOM:
        raise InvalidRequest("The game's deal does not name a game.", code="export_invalid")
    return first


def _domain_events(app: Core, game_id: UUID, records: list[chain.Record]) -> list[Any]:
    """The exported events as the store's own event classes; an unknown topic or a field the
    class does not have is refused before anything is stored."""
    if records[0].topic != GameCreated.TOPIC:
        raise InvalidRequest("An export starts with the game's creation.", code="export_invalid")
    events: list[Any] = []
    for record in records:
        if record.topic not in chain.TOPICS:
            raise InvalidRequest(
                f"Version {record.version} has a topic no game stream holds.", code="export_invalid"
            )
        events.append(exported_event(app, game_id, record.version, record.topic, record.fields, "game"))
    return events
