"""Disputes: a claim over a range of a game's versions, the engine's verdict on it, and the
human rulings that follow (design.md 3: its own stream, pointing at the game; the game's
stream stays exactly what happened at the table).

Opening. Anyone holding a token of the game (a seat, the recorder) or the administrator
opens a dispute over `first..last` (versions of the game as it stands) with a claim in words.
The verdict (store/verdict.py) is decided then, inside the store, and recorded with the claim:
with the revealed seed once the game has ended, and while it runs with the sealed seed, which
never leaves the store; what the verdict shows a reader is redacted for that reader (below),
so a seat learns nothing hidden from its own dispute.

Ruling. The recorder (or an administrator) records a ruling, in words, as an event of the
dispute; there may be several (a ruling revised); the last one stands.

Imported. A dispute carried in an export (store/dispute_transfer.py) is judged again by the
engine where it arrives, and that verdict is the one stored in its opening event, whatever
verdict the file stated; an `Imported` event closes what the file brought, naming the store the
export came from. A ruling keeps its provenance wherever it is
shown: who ruled, in which store (`store`: the name of the store it was made in, store/identity.py;
empty when the export named none) and when it was imported into this one (`imported_at`, empty
for a ruling made here). An administrator of another store is not this store's administrator.

Reading. Whoever may read the game reads its disputes. A reader who does not see the stored
events whole (a seat or the public while the game runs) gets each finding's action line as
the game's own redaction shows that action to them, and no `detail` (a differing fact could
name a hidden card).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from domain import reading
from domain.ruleset import Viewer
from store import chain
from store.errors import Forbidden, InvalidRequest, ServiceError, Unauthorized, VersionConflict
from store.identity import store_name
from store.verdict import Finding, Verdict, verdict

MAX_CLAIM = 2000


class DisputeNotFound(ServiceError):
    status = 404
    code = "dispute_not_found"
    title = "No such dispute"


class Dispute(Aggregate):
    TOPIC = "chronicle:Dispute"

    class Created(Aggregate.Created):
        TOPIC = "chronicle:Dispute.Opened"
        game_id: str
        first: int
        last: int
        claim: str
        opened_by: str  # recorder, admin, or seat:<id>
        game_version: int  # the game's version when the dispute was opened
        verdict: dict[str, Any]
        # the hash chain's digest at that version: the record the verdict judged, which a
        # bundle exported later must reproduce (empty in disputes opened before it was kept)
        game_head: str = ""

    class Ruled(Aggregate.Event):
        TOPIC = "chronicle:Dispute.Ruled"
        text: str
        by: str

        def apply(self, aggregate: Dispute) -> None:
            aggregate.rulings.append(
                {
                    "text": self.text,
                    "by": self.by,
                    "at": self.timestamp.isoformat(),
                    "store": "",
                    "imported_at": "",
                }
            )

    class Imported(Aggregate.Event):
        """The end of what an export brought: the store it came from, for the rulings made there."""

        TOPIC = "chronicle:Dispute.Imported"
        store: str

        def apply(self, aggregate: Dispute) -> None:
            for ruling in aggregate.rulings:
                if not ruling["imported_at"] and not ruling["store"]:
                    ruling["store"] = self.store  # made in the store the export came from
                ruling["imported_at"] = self.timestamp.isoformat()

    def __init__(
        self,
        game_id: str,
        first: int,
        last: int,
        claim: str,
        opened_by: str,
        game_version: int,
        verdict: dict[str, Any],
        game_head: str = "",
    ) -> None:
        self.game_id = game_id
        self.first = first
        self.last = last
        self.claim = claim
        self.opened_by = opened_by
        self.game_version = game_version
        self.verdict = verdict
        self.game_head = game_head
        self.rulings: list[dict[str, str]] = []


TOPICS = frozenset({Dispute.Created.TOPIC, Dispute.Ruled.TOPIC, Dispute.Imported.TOPIC})
RULERS = ("recorder", "admin")  # who may rule (`_who` of the roles `rule` admits)


class Ruling(msgspec.Struct):
    """A ruling with its provenance: who ruled, when, in which store, and (for a ruling made in
    another store) when it was imported here."""

    text: str
    by: str
    at: str
    store: str = ""
    imported_at: str = ""


class DisputeView(msgspec.Struct):
    """A dispute as one reader may see it."""

    dispute_id: str
    game_id: str
    first: int
    last: int
    claim: str
    opened_by: str
    opened_at: str
    game_version: int
    verdict: Verdict
    rulings: list[Ruling]
    view: str
    game_head: str = ""  # shown only to a viewer who sees the stored events whole (store/chain.py)


def _who(access: Any) -> str:
    return f"seat:{access.seat}" if access.role == "seat" else str(access.role)


def open_dispute(app: Any, game_id: UUID, access: Any, first: int, last: int, claim: str) -> DisputeView:
    if access.role == "public":
        raise Unauthorized("Opening a dispute needs a token of the game (a seat's or the recorder's).")
    claim = claim.strip()
    if not claim_holds(claim):
        raise InvalidRequest(
            f"A claim is 1 to {MAX_CLAIM} characters of text, without control characters.",
            code="invalid_claim",
        )
    game = app.game(game_id)
    if not 1 <= first <= last <= game.version:
        raise InvalidRequest(
            f"The range must lie within versions 1..{game.version}, its start not after its end.",
            code="invalid_range",
        )
    events = app.stored_events(game_id, lte=game.version)
    seed = None
    if game.config.mode == "digital":
        # inside the store the sealed seed re-decides a running game; it is never shown
        seed = bytes.fromhex(game.revealed_seed or app.secrets(game_id).server_seed)
    found = verdict(events, seed, first, last)
    dispute = Dispute(
        game_id=str(game_id),
        first=first,
        last=last,
        claim=claim,
        opened_by=_who(access),
        game_version=game.version,
        verdict=msgspec.to_builtins(found),
        game_head=chain.digest_of(events[-1]) or chain.digests(game_id, chain.records_of(events))[-1],
    )
    app.save(dispute)
    return show(app, dispute.id, access)


def claim_holds(claim: str) -> bool:
    return 0 < len(claim) <= MAX_CLAIM and not any(ord(c) < 32 and c not in "\n\t" for c in claim)


def rule(app: Any, dispute_id: UUID, access: Any, text: str) -> DisputeView:
    if access.role not in ("recorder", "admin"):
        raise Forbidden(
            "Only the game's recorder or an administrator rules on a dispute.", code="recorder_required"
        )
    text = text.strip()
    if not text or len(text) > MAX_CLAIM:
        raise InvalidRequest(f"A ruling is 1 to {MAX_CLAIM} characters.", code="invalid_ruling")
    dispute = load(app, dispute_id)
    dispute.trigger_event(Dispute.Ruled, text=text, by=_who(access))
    try:
        app.save(dispute)
    except IntegrityError:
        raise VersionConflict(
            "Another ruling was recorded meanwhile; read the dispute and rule again."
        ) from None
    return show(app, dispute_id, access)


def load(app: Any, dispute_id: UUID) -> Dispute:
    try:
        found = app.repository.get(dispute_id)
    except AggregateNotFoundError:
        raise DisputeNotFound(f"There is no dispute {dispute_id}.") from None
    if not isinstance(found, Dispute):
        raise DisputeNotFound(f"There is no dispute {dispute_id}.")
    return found


def game_of(app: Any, dispute_id: UUID) -> UUID:
    return UUID(load(app, dispute_id).game_id)


def show(app: Any, dispute_id: UUID, access: Any) -> DisputeView:
    dispute = load(app, dispute_id)
    game = app.game(UUID(dispute.game_id))
    viewer = app.viewer(game, access)
    found = msgspec.convert(dispute.verdict, Verdict)
    found.findings = redact_findings(app, game, found.findings, viewer)
    if viewer.kind != "omniscient" and found.stopped is not None:
        found.stopped.what = ""
    return DisputeView(
        str(dispute.id),
        dispute.game_id,
        dispute.first,
        dispute.last,
        dispute.claim,
        dispute.opened_by,
        dispute.created_on.isoformat(),
        dispute.game_version,
        found,
        _rulings(app, dispute.rulings),
        str(viewer),
        dispute.game_head if viewer.kind == "omniscient" else "",
    )


def _rulings(app: Any, rulings: list[dict[str, str]]) -> list[Ruling]:
    """The rulings with their provenance; a ruling made here names this store."""
    here = store_name(app) if any(not r["imported_at"] for r in rulings) else ""
    return [
        Ruling(
            r["text"], r["by"], r["at"], r["store"] or ("" if r["imported_at"] else here), r["imported_at"]
        )
        for r in rulings
    ]


def redact_findings(app: Any, game: Any, findings: list[Finding], viewer: Viewer) -> list[Finding]:
    """Each finding's action line as the game's redaction shows it to `viewer`."""
    if viewer.kind == "omniscient" or not findings:
        return findings
    low, high = findings[0].version, findings[-1].version
    shown = {
        e.version: e.text
        for e in reading.present_all(game, app.stored_events(game.id, gt=low - 1, lte=high), viewer)
    }
    return [msgspec.structs.replace(f, action=shown.get(f.version, f"#{f.seq}"), detail="") for f in findings]


def disputes_of(app: Any, game_id: UUID) -> list[UUID]:
    """The disputes over a game, oldest first."""
    found: list[UUID] = []
    start = 1
    while True:
        batch = app.recorder.select_notifications(start, 500, topics=[Dispute.Created.TOPIC])
        for notification in batch:
            if msgspec.json.decode(notification.state).get("game_id") == str(game_id):
                found.append(notification.originator_id)
        if len(batch) < 500:
            return found
        start = batch[-1].id + 1
