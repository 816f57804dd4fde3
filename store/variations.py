"""Variations in the store: branch one, record into it, read it, list and audit it
(domain/variations.py).

A variation is read as a line (store/lines.py): its base's events up to the branching
version, then its own, folded through the game aggregate's own handlers, so every read goes
through the one redaction (domain/reading.py) exactly as a game's does. A line's actions are
decided by the same rules with the line's own randomness.

Who may branch: a line may be branched where everything in it is open to all, that is from a
finished (or abandoned) game, from a finished play-on game, or from a study at any time. A
running game is never branched: the position holds its hidden cards and its seed is sealed.
Anyone may then branch, as anyone may read the finished game; the new variation's recorder
token (and, for a play-on game, its seat tokens) is returned once, and writes need it.

A study is open to everyone from the start (its base is public and its seed stated), so it is
read omnisciently by all; a play-on game keeps its seats' secrets until it ends, as any game.
"""

from __future__ import annotations

import secrets as random_source
from typing import Any, Literal
from uuid import UUID, uuid4

import msgspec
from eventsourcing.persistence import IntegrityError

from domain import reading
from domain.game import Game
from domain.reading import StoredEvent
from domain.rng import NoRng, Rng, SeededRng, commitment
from domain.ruleset import Command, RejectedError, Rejection
from domain.variations import Purpose, Variation, VariationList, derive_seed, list_id
from store.aggregates import existing
from store.audit import AuditReport, Divergence
from store.clock import now as _now
from store.core import Core
from store.errors import (
    GameNotFound,
    InvalidRequest,
    SeedSealed,
    ServiceError,
    Unauthorized,
    VersionConflict,
)
from store.limits import VersionAt

# a line (store/lines.py) is read through this module too: the routes and the command line do
from store.lines import Line as Line
from store.lines import at_rest
from store.lines import fold as fold
from store.lines import is_variation as is_variation
from store.lines import line as line
from store.reads import legal_actions_for
from store.requests import Access
from store.secrets import GameSecrets, new_token


class NotBranchable(ServiceError):
    status = 409
    code = "game_running"
    title = "This line cannot be branched yet"


class BranchRequest(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /games/{id}/variations` (or `/variations/{id}/variations`): branch at version
    `at`; `purpose` `study` (a what-if line) or `game` (play on from here, with `players`,
    one name per seat; by default the base's)."""

    at: VersionAt
    purpose: Literal["study", "game"] = "study"
    players: list[str] | None = None


class Branched(msgspec.Struct):
    variation_id: str
    game_id: str
    base_id: str
    at: int
    purpose: str
    version: int
    seed: str
    derivation: str
    commitment: str
    recorder_token: str
    seat_tokens: dict[str, str]
    seats: dict[str, str]


class Summary(msgspec.Struct):
    """A variation as listed under its game."""

    variation_id: str
    base_id: str
    at: int
    purpose: str
    ruleset: str
    mode: str
    seats: dict[str, str]
    status: str
    version: int
    actions: int
    seed: str
    derivation: str
    commitment: str


def branch(app: Core, base_id: UUID, request: BranchRequest, by: str) -> Branched:
    """A new variation of `base_id` at `request.at`, branched by `by` (an author key, or
    `public`; see the module docstring for who may)."""
    base = line(app, base_id)
    if not base.open_to_all:
        raise NotBranchable(
            "A running game is branched once it has ended: its position holds what its seats "
            "may not see yet, and its seed is sealed."
        )
    if not 1 <= request.at <= base.game.version:
        raise InvalidRequest(
            f"Version {request.at} is outside 1..{base.game.version}.", code="invalid_version"
        )
    if not at_rest(base, request.at):
        raise InvalidRequest(
            f"Version {request.at} is inside an action (its facts follow it); branch at the "
            "version of the action's last fact.",
            code="not_a_position",
        )
    position = fold(base.events, request.at)
    if position.closed:
        raise InvalidRequest(
            f"At version {request.at} the game is over; branch earlier.", code="not_a_position"
        )
    config = position.config
    players = request.players if request.players is not None else [s.name for s in config.seats]
    if len(players) != len(config.seats) or any(
        not p.strip() or len(p) > 64 or any(ch < " " or ch == "\x7f" for ch in p) for p in players
    ):
        raise InvalidRequest(
            f"Give one name (1 to 64 characters, no control characters) per seat: {len(config.seats)}.",
            code="invalid_player_name",
        )
    variation_id = uuid4()
    seed = _seed_of(app, base, variation_id, request.purpose)
    digital = config.mode == "digital"
    stated = seed.hex() if digital and request.purpose == "study" else ""
    seats = {s.id: name.strip() for s, name in zip(config.seats, players, strict=True)}
    tokens = {"recorder": new_token()}
    if request.purpose == "game":
        tokens |= {f"seat:{s}": new_token() for s in seats}
    when = _now()
    variation = Variation.branch(
        variation_id,
        game_id=UUID(base.variation.game_id) if base.variation is not None else base_id,
        base_id=base_id,
        at=request.at,
        purpose=request.purpose,
        ruleset=config.ruleset,
        mode=config.mode,
        seed=stated,
        commitment=commitment(seed) if digital else "",
        by=by,
        players=list(seats.values()),
        when=when,
    )
    listing = _listing(app, UUID(variation.game_id), when)
    listing.add(variation_id, when)
    sealed = GameSecrets.seal(variation_id, seed if digital else None, tokens)
    try:
        app.save(variation, listing, sealed)
    except IntegrityError:
        raise VersionConflict("Another variation was listed at the same moment; try again.") from None
    return Branched(
        variation_id=str(variation_id),
        game_id=variation.game_id,
        base_id=str(base_id),
        at=request.at,
        purpose=request.purpose,
        version=request.at,
        seed=stated,
        derivation=variation.derivation,
        commitment=variation.commitment,
        recorder_token=tokens["recorder"],
        seat_tokens={s: tokens[f"seat:{s}"] for s in seats if f"seat:{s}" in tokens},
        seats=seats,
    )


def line_access(app: Core, line_id: UUID, token: str | None) -> Access:
    """What `token` grants on a game or a variation (404 for neither, first)."""
    line(app, line_id)
    return app.access(line_id, token)


def _seed_of(app: Core, base: Line, variation_id: UUID, purpose: Purpose) -> bytes:
    """A study's seed, derived from its base's (revealed, or stated by a study); a play-on
    game's, fresh from the CSPRNG."""
    if purpose == "game" or base.game.config.mode != "digital":
        return random_source.token_bytes(32)
    if base.variation is not None and base.variation.purpose == "study":
        base_seed = base.variation.seed
    else:
        base_seed = base.game.revealed_seed or ""
    return derive_seed(bytes.fromhex(base_seed), variation_id)


def _listing(app: Core, game_id: UUID, when: Any) -> VariationList:
    found = existing(app, list_id(game_id), VariationList)
    return VariationList.open(game_id, when) if found is None else found


def record(
    app: Core, variation_id: UUID, action: dict[str, Any] | str, access: Access, seat: str | None = None
) -> list[StoredEvent]:
    """Decide `action` on the variation by the game's rules and its own randomness; append it
    with its facts (and its end, if it ended the line). Answers the appended events as the
    recorder sees them."""
    if access.role == "public":
        raise Unauthorized("Recording into a variation needs its recorder's or a seat's token.")
    current = line(app, variation_id)
    variation = current.variation
    if variation is None:
        raise GameNotFound(f"There is no variation {variation_id}.")
    game = current.game
    command = app._command(game, action, access, seat)
    seed = bytes.fromhex(app.secrets(variation_id).server_seed) if variation.mode == "digital" else None
    rng: Rng = SeededRng(seed, str(variation_id), game.config.client_seed) if seed else NoRng()
    facts = game.decide(command, rng)
    if not isinstance(facts, list):
        raise RejectedError(app.suggested(game, facts, action, command.seat))
    codec = game.ruleset.codec
    when = _now()
    variation.record(
        len(game.actions) + 1,
        codec.encode(command.action),
        command.seat,
        command.by,
        [codec.encode(f) for f in facts],
        when,
    )
    state = game.state
    for fact in facts:
        state = game.ruleset.evolve(state, fact)
    outcome = game.ruleset.outcome(state)
    if outcome is not None:
        variation.finish(msgspec.to_builtins(outcome), seed.hex() if seed else "", when)
    before = game.version
    try:
        app.save(variation)
    except IntegrityError:
        raise VersionConflict("The variation moved on meanwhile; look again and retry.") from None
    after = line(app, variation_id)
    viewer = after.viewer(access)
    return reading.present_all(after.game, [e for e in after.events if e.originator_version > before], viewer)


def events(app: Core, line_id: UUID, access: Access) -> list[StoredEvent]:
    """The line's events as `access` may see them."""
    found = line(app, line_id)
    return reading.present_all(found.game, found.events, found.viewer(access))


def view(app: Core, line_id: UUID, access: Access, at: int | None = None) -> dict[str, Any]:
    found = line(app, line_id)
    latest = found.game
    if at is not None and not 1 <= at <= latest.version:
        raise InvalidRequest(f"Version {at} is outside 1..{latest.version}.", code="invalid_version")
    game = latest if at is None else fold(found.events, at)
    viewer = found.viewer(access)
    return {
        "line_id": str(line_id),
        "version": game.version,
        "status": game.status,
        "view": str(viewer),
        "state": reading.state(game, viewer),
        "prompts": reading.prompts(game, viewer),
        "outcome": reading.outcome(game),
    }


def legal_actions(app: Core, line_id: UUID, access: Access, seat: str | None = None) -> dict[str, Any]:
    """The line's legal actions now, as a game's (store/reads.py `legal_actions_for`)."""
    return legal_actions_for(line(app, line_id).game, access, seat)


def summary(app: Core, variation_id: UUID) -> Summary:
    found = line(app, variation_id)
    variation = found.variation
    if variation is None:
        raise GameNotFound(f"There is no variation {variation_id}.")
    return Summary(
        variation_id=str(variation_id),
        base_id=variation.base_id,
        at=variation.at,
        purpose=variation.purpose,
        ruleset=variation.ruleset,
        mode=variation.mode,
        seats={s.id: s.name for s in found.game.config.seats},
        status=found.game.status,
        version=found.game.version,
        actions=variation.actions,
        seed=variation.seed,
        derivation=variation.derivation,
        commitment=variation.commitment,
    )


def variations_of(app: Core, game_id: UUID) -> list[Summary]:
    """Every variation branching from the game or its variations, oldest first."""
    line(app, game_id)  # 404 for an unknown game
    listing = existing(app, list_id(game_id), VariationList)
    return [] if listing is None else [summary(app, UUID(v)) for v in listing.variations]


def audit(app: Core, variation_id: UUID, access: Access) -> AuditReport:
    """Re-decide every action of the variation from its branching position, with its seed,
    and compare with what was stored: a study's stated seed (checked against its derivation
    from the base's seed and against its commitment), a finished play-on game's revealed one,
    or, for an administrator, the sealed one. The base's own record is the base's audit."""
    current = line(app, variation_id)
    variation = current.variation
    if variation is None:
        raise GameNotFound(f"There is no variation {variation_id}.")
    stored = list(app.events.get(variation_id))[1:]
    report = AuditReport(str(variation_id), True, 0, 0, random_checked=variation.mode != "digital")
    base = line(app, UUID(variation.base_id))
    position = fold(base.events, variation.at)
    try:
        rng = _audit_rng(app, variation_id, variation, base, stored, access, report)
        _walk(position, stored, rng, variation.at, report)
    except _Diverged as found:
        report.clean = False
        report.divergence = found.divergence
    return report


def audit_carried(
    variation_id: UUID, created: Variation.Created, stored: list[Any], prefix: list[Any], base_seed: str
) -> AuditReport:
    """`audit` of a variation an export carries, before anything is stored: its own events
    (`stored`, after its creation) re-decided from its base line's events up to the branch
    (`prefix`), with its stated seed (derived from the base's, `base_seed`) or its revealed one."""
    report = AuditReport(str(variation_id), True, 0, 0, random_checked=created.mode != "digital")
    first = created.at + 1
    try:
        position = fold(prefix, created.at)
        rng: Rng = NoRng()
        if created.mode == "digital":
            finished = next((e for e in stored if isinstance(e, Variation.Finished)), None)
            if created.seed:
                seed = bytes.fromhex(created.seed)
                if not base_seed or seed != derive_seed(bytes.fromhex(base_seed), variation_id):
                    raise _Diverged(
                        first, "seed_not_derived", "the stated seed is not derived from the base's seed"
                    )
            elif finished is not None and finished.server_seed:
                seed = bytes.fromhex(finished.server_seed)
            else:
                raise _Diverged(first, "seed_sealed", "the seed is sealed; random outcomes cannot be checked")
            if commitment(seed) != created.commitment:
                raise _Diverged(
                    first, "seed_not_committed", "the seed does not match the published commitment"
                )
            report.random_checked = True
            rng = SeededRng(seed, str(variation_id), position.config.client_seed)
        _walk(position, stored, rng, created.at, report)
    except _Diverged as found:
        report.clean = False
        report.divergence = found.divergence
    except Exception as error:  # a stored action or seed no decoder reads
        report.clean = False
        report.divergence = Divergence(first, f"unreadable: {error}", "records 3", "unreadable")
    return report


class _Diverged(Exception):
    def __init__(self, version: int, code: str, what: str, rule: str = "design.md 4") -> None:
        super().__init__(what)
        self.divergence = Divergence(version, what, rule, code)


def _audit_rng(
    app: Core,
    variation_id: UUID,
    variation: Variation,
    base: Line,
    stored: list[Any],
    access: Access,
    report: AuditReport,
) -> Rng:
    if variation.mode != "digital":
        return NoRng()
    first = variation.at + 1
    finished = next((e for e in stored if isinstance(e, Variation.Finished)), None)
    if variation.seed:
        seed = bytes.fromhex(variation.seed)
        if seed != derive_seed(bytes.fromhex(_stated_seed(base)), variation_id):
            raise _Diverged(first, "seed_not_derived", "the stated seed is not derived from the base's seed")
    elif finished is not None and finished.server_seed:
        seed = bytes.fromhex(finished.server_seed)
    elif access.role == "admin":
        seed = bytes.fromhex(app.secrets(variation_id).server_seed)
    else:
        raise SeedSealed("The seed stays sealed until this game ends; the audit opens then.")
    if commitment(seed) != variation.commitment:
        raise _Diverged(first, "seed_not_committed", "the seed does not match the published commitment")
    report.random_checked = True
    return SeededRng(seed, str(variation_id), base.game.config.client_seed)


def _stated_seed(base: Line) -> str:
    if base.variation is not None and base.variation.seed:
        return base.variation.seed
    return base.game.revealed_seed or ""


def _walk(position: Game, stored: list[Any], rng: Rng, at: int, report: AuditReport) -> None:
    ruleset, state = position.ruleset, position.state
    codec, spec = ruleset.codec, ruleset.meta.spec
    index = 0
    while index < len(stored):
        event = stored[index]
        version = at + event.originator_version - 1
        if isinstance(event, Variation.Finished):
            outcome = ruleset.outcome(state)
            if outcome is None or msgspec.json.decode(msgspec.json.encode(outcome)) != event.outcome:
                raise _Diverged(
                    version, "outcome_differs", "the stated outcome is not the rules' outcome", spec
                )
            return
        if not isinstance(event, Variation.ActionRecorded):
            raise _Diverged(version, "fact_extra", "a fact outside any action", spec)
        command = Command(codec.decode_action(event.action), event.seat, event.by)  # type: ignore[arg-type]
        decided = ruleset.decide(state, command, rng)
        if isinstance(decided, Rejection):
            raise _Diverged(
                version, "action_illegal", f"action #{event.seq}: {decided.message}", decided.rule
            )
        following = []
        for later in stored[index + 1 :]:
            if not isinstance(later, Variation.FactRecorded):
                break
            following.append(later.fact)
        expected = msgspec.json.decode(msgspec.json.encode([codec.encode(f) for f in decided]))
        if expected != following:
            raise _Diverged(
                version, "fact_differs", f"action #{event.seq}: its facts are not the rules'", spec
            )
        report.actions += 1
        report.facts += len(following)
        for fact in decided:
            state = ruleset.evolve(state, fact)
        index += 1 + len(following)
    if ruleset.outcome(state) is not None:
        raise _Diverged(at + len(stored) + 1, "finish_missing", "the rules ended the line here", spec)
