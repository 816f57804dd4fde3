"""The audit: re-decide a whole game from scratch and compare with what was stored.

A referee's question is "was every move legal, and was every roll honest?". The audit answers
both at once: it rebuilds the configuration from the first event, checks the seed against its
published commitment, re-runs `setup` and then `decide` on every recorded action with the same
rules version and the seed, and compares each derived fact with the stored one, walking the
stream in its stored order. The first divergence is reported with its version, a stable
`code`, what differed, and the rule.

Where a divergence lies: at the version of the first stored event that the rules do not
account for. A fact that should be there and is not is reported at the version where it
belongs (the event standing there instead, or one past the end of the stream); a game the
rules have ended but that was not closed, likewise.

What the audit cannot see: fields the rules never re-decide (timestamps, names, a
retraction's reason, who entered an action) and a change that leaves a consistent game
behind (an action replaced, together with its facts, by another legal one). Retracting a
different suffix of the live actions is such a change: the first divergence is then wherever
the actions recorded after it stop adding up.

How it reads (store/audit_reading.py): each game's rows in one query, each row's JSON decoded
once for both the chain, recomputed from the rows as stored (`chain.check_bodies`), and the
events the walk reads; a decided fact is compared with its stored copy as the JSON its row
holds, where that is byte for byte the decided fact written out, and each action's state
taken from `decide` once its facts match the stored ones, not folded again from them. Its
figures, beside the rules alone re-deciding the same games, are `bench.audit`'s (in its
docstring): the audit's own work, the reading, the chain and the comparing, still costs
about twice the rules' in one process, so `audit --all` works across worker processes.

Mutation testing (bench/mutation.py, group audit) leaves these survivors, judged equivalent:
the message given to `_Diverged`'s base exception (never read: the Divergence carries it);
`position` set to anything once the walk has returned, and the event handed to `_closed_by`
(neither is read again); the sealed seed handed to a non-administrator's audit of a finished
game (the revealed seed comes first and, when it matches the commitment, is the same seed;
when it does not, any stored edit before it has already broken the chain at its version);
the fields of the `ChainCheck` made for a stream whose chain cannot be computed other than
`broken_at` and `what`, and `intact or broken_at is None` read as `and` (such a check is never
intact). The `unreadable` findings of `setup` or `decide` raising guard against a ruleset that
fails on input its own codec accepted; no shipped ruleset does, so no test reaches them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

import msgspec

from domain.endings import resignation_outcome, score_ranking
from domain.events import (
    ActionRecorded,
    ActionsRetracted,
    FactRecorded,
    GameAbandoned,
    GameCreated,
    GameFinished,
    GameResigned,
    RetractionAnswered,
    RetractionRequested,
)
from domain.rng import NoRng, Rng, SeededRng, commitment
from domain.ruleset import Command, GameConfig, Rejection, Ruleset, decider, get_ruleset
from store import chain
from store.audit_reading import Row, Stream, read_stream, stream_rows
from store.core import Core
from store.errors import Forbidden, GameNotFound, SeedSealed
from store.fact_differences import first_difference
from store.requests import Access


class Divergence(msgspec.Struct):
    version: int
    what: str
    rule: str
    # Stable, for tools: stream_start, version_gap, ruleset_unknown, ruleset_version,
    # seed_sealed, seed_not_committed, fact_differs, fact_missing, fact_extra, fact_order,
    # action_number, action_unreadable, action_illegal, retraction_not_latest, finish_early,
    # finish_missing, outcome_differs, after_finish, unreadable, chain_broken.
    code: str = ""


class AuditReport(msgspec.Struct):
    game_id: str
    clean: bool
    actions: int
    facts: int
    random_checked: bool
    divergence: Divergence | None = None
    retracted: int = 0  # of `actions`, how many a later correction undid
    chain: chain.ChainCheck | None = None  # the hash chain recomputed over the stored events


_WRITE = msgspec.json.Encoder().encode  # `_as_stored`'s two halves
_READ = msgspec.json.Decoder().decode


class _Diverged(Exception):
    def __init__(self, version: int, code: str, what: str, rule: str) -> None:
        super().__init__(what)
        self.divergence = Divergence(version, what, rule, code)


def audit_game(app: Core, game_id: UUID, access: Access, rows: list[Row] | None = None) -> AuditReport:
    """Audit one game as its stream is stored, never folding it first (a tampered stream may
    not fold). The audit opens when the game ends; an administrator may audit a running game,
    a digital one with its sealed seed. `rows`: the game's stored rows, when read already
    (`audit_reading.stream_rows`)."""
    if rows is None:
        rows = stream_rows(app, game_id)  # the whole stream in one query
    if not rows:
        raise GameNotFound(f"There is no game {game_id}.")
    stream = read_stream(app, game_id, rows)
    events = stream.events
    created = events[0]
    digital = isinstance(created, GameCreated) and created.mode == "digital"
    if access.role != "admin" and not any(isinstance(e, GameFinished | GameAbandoned) for e in events):
        if digital:
            raise SeedSealed("The seed stays sealed until the game ends; the audit opens then.")
        raise Forbidden("The audit opens when the game ends (or to the administrator).", code="game_running")
    sealed = bytes.fromhex(app.secrets(game_id).server_seed) if digital and access.role == "admin" else None
    return audit_events(events, sealed, stream)


def audit_events(events: Iterable[Any], seed: bytes | None, rows: Stream | None = None) -> AuditReport:
    """Audit one game's stored events. `seed` is the server seed the caller holds (the sealed
    one, for an administrator), or None. A finished digital game's revealed seed is used when
    it matches the published commitment; without a seed that does, random outcomes cannot be
    checked and the audit says so. `rows`: the stored rows the events were read from, as the
    audit reads them (store/audit_reading.py): the chain is then recomputed from their stored
    JSON as it is (`chain.check_bodies`) rather than from the events written out again, and
    a fact is compared with the one decided as its row holds it, where it can be."""
    stored = list(events)
    first = stored[0] if stored else None
    game_id = str(first.originator_id) if first is not None else ""
    digital = isinstance(first, GameCreated) and first.mode == "digital"
    # a digital game's outcomes count as checked once a seed matching its commitment is found
    report = AuditReport(game_id, True, 0, 0, random_checked=not digital)
    try:
        _audit(stored, seed, report, rows.facts if rows is not None else None)
    except _Diverged as found:
        report.clean = False
        report.divergence = found.divergence
    if first is not None:
        _check_chain(report, first.originator_id, stored, rows.bodies if rows is not None else None)
    return report


def _check_chain(
    report: AuditReport, game_id: UUID, stored: list[Any], rows: Sequence[chain.Body] | None
) -> None:
    """The chain recomputed over the stored events (store/chain.py). A break the rules do not
    account for first (a timestamp, a name, a retraction's reason edited: fields the rules
    never re-decide) is the divergence; where both point at one version, the rules say why."""
    try:
        if rows is None:
            found = chain.check(game_id, chain.records_of(stored))
        else:
            found = chain.check_bodies(game_id, rows)
    except (TypeError, ValueError) as error:
        found = chain.ChainCheck(chain.ALGORITHM, len(stored), "", 0, False, 1, f"unreadable: {error}")
    report.chain = found
    if found.intact or found.broken_at is None:
        return
    earlier = report.divergence is None or found.broken_at < report.divergence.version
    if earlier:
        report.clean = False
        report.divergence = Divergence(found.broken_at, found.what, "records 3.1", "chain_broken")


def _created(stored: list[Any]) -> GameCreated:
    """The stream's first event, its configuration."""
    if not stored or not isinstance(stored[0], GameCreated):
        raise _Diverged(1, "stream_start", "the stream does not start with its configuration", "records 3")
    return stored[0]


def _versions_in_order(stored: list[Any]) -> None:
    if [e.originator_version for e in stored] == list(range(1, len(stored) + 1)):
        return  # the common case, in one pass
    for index, event in enumerate(stored):
        if event.originator_version != index + 1:
            raise _Diverged(
                index + 1,
                "version_gap",
                f"the event at position {index + 1} carries version {event.originator_version}",
                "records 3",
            )


def _installed(created: GameCreated) -> Ruleset[Any, Any, Any]:
    """The ruleset the game was recorded under, at the version installed."""
    ruleset = get_ruleset(created.ruleset)
    if ruleset is None:
        raise _Diverged(1, "ruleset_unknown", f"ruleset {created.ruleset!r} is not installed", "records 2")
    if ruleset.meta.version != created.ruleset_version:
        raise _Diverged(
            1,
            "ruleset_version",
            f"recorded under {created.ruleset} version {created.ruleset_version}, installed is "
            f"{ruleset.meta.version}",
            "records 3",
        )
    return ruleset


def _audit(
    stored: list[Any], seed: bytes | None, report: AuditReport, facts: list[bytes | None] | None
) -> None:
    created = _created(stored)
    _versions_in_order(stored)
    ruleset = _installed(created)
    try:
        config = GameConfig.from_record(report.game_id, vars(created))
        state = ruleset.initial(config)
    except Exception as error:
        raise _Diverged(
            1, "unreadable", f"the configuration cannot be read: {error!r}", "records 3"
        ) from None
    rng, late = _rng(stored, created, config, seed, report)
    _Walk(ruleset, stored, rng, state, report, facts).run(config)
    if late is not None:
        raise late


def _rng(
    stored: list[Any], created: Any, config: GameConfig, seed: bytes | None, report: AuditReport
) -> tuple[Rng, _Diverged | None]:
    """The randomness to re-decide with, and a divergence of the revealed seed to report if
    nothing diverges before it. A revealed seed that does not match the commitment is itself
    a divergence at the finishing event; the re-decision then uses the caller's seed if that
    one matches, and stops there if none does."""
    if created.mode != "digital":
        return NoRng(), None
    finished = _closing(stored)
    late: _Diverged | None = None
    if finished is not None:
        try:
            revealed: bytes | None = bytes.fromhex(finished.server_seed)
        except (TypeError, ValueError):
            revealed = None
        if revealed is not None and commitment(revealed) == created.commitment:
            report.random_checked = True
            return SeededRng(revealed, config.rng_key, config.client_seed), None
        late = _Diverged(
            finished.originator_version,
            "seed_not_committed",
            "the revealed seed does not match the published commitment",
            "records 4.1",
        )
    if seed is None:
        if late is not None:
            raise late
        raise _Diverged(
            1,
            "seed_sealed",
            "the seed is sealed until the game ends; random outcomes cannot be checked",
            "records 4.7",
        )
    if commitment(seed) != created.commitment:
        if late is not None:
            raise late
        raise _Diverged(
            1, "seed_not_committed", "the seed does not match the published commitment", "records 4.1"
        )
    report.random_checked = True
    return SeededRng(seed, config.rng_key, config.client_seed), late


def _closing(stored: list[Any]) -> Any:
    """The first finishing or abandoning event, if any, found by the events' classes (a
    stream has a handful) rather than by looking at each event in turn."""
    kinds = list(map(type, stored))
    closing = [k for k in set(kinds) if issubclass(k, GameFinished | GameAbandoned)]
    return stored[min(kinds.index(k) for k in closing)] if closing else None


class _Walk:
    """The stream in stored order: setup facts, then actions (each with its facts),
    corrections, and the finishing event, which must come exactly when the rules end the game
    (or right after a resignation) and nothing after it; or the abandoning event, the last."""

    def __init__(
        self,
        ruleset: Ruleset[Any, Any, Any],
        stored: list[Any],
        rng: Rng,
        state: Any,
        report: AuditReport,
        facts: list[bytes | None] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.stored = stored
        self.rng = rng
        self.state = state
        self.report = report
        self.spec = ruleset.meta.spec
        self.decide = decider(ruleset)  # the facts and the state they lead to
        # each stored event's fact as its row holds it, where read so (store/audit_reading.py)
        self.facts = facts if facts is not None else [None] * len(stored)
        self.position = 1  # index of the next event to read
        self.checkpoints: dict[int, Any] = {}
        self.live: list[int] = []

    def run(self, config: GameConfig) -> None:
        self.seats = config.seat_ids()
        version = self.position + 1
        try:
            setup = list(self.ruleset.setup(config, self.state, self.rng))
        except Exception as error:
            raise _Diverged(version, "unreadable", f"setup cannot be re-run: {error!r}", self.spec) from None
        self._facts(setup, version)
        while self.position < len(self.stored):
            if self.ruleset.outcome(self.state) is not None:
                self._finish()
                return
            event = self.stored[self.position]
            version = event.originator_version
            self.position += 1
            if isinstance(event, ActionRecorded):
                self._action(event)
            elif isinstance(event, ActionsRetracted):
                self._retraction(event)
            elif isinstance(event, RetractionRequested | RetractionAnswered):
                continue  # a request changes nothing until its retraction is recorded
            elif isinstance(event, GameResigned):
                self._resigned(event)
                return
            elif isinstance(event, GameAbandoned):
                self._closed_by(event)
                return
            elif isinstance(event, FactRecorded):
                raise _Diverged(version, "fact_extra", f"a fact outside any action: {event.fact}", self.spec)
            elif isinstance(event, GameFinished):
                raise _Diverged(
                    version,
                    "finish_early",
                    "the game is marked finished but the rules say it is still running",
                    self.spec,
                )
            else:
                raise _Diverged(version, "unreadable", f"an unexpected {type(event).__name__}", "records 3")
        if self.ruleset.outcome(self.state) is not None:
            self._finish()

    def _action(self, event: Any) -> None:
        version = event.originator_version
        self.report.actions += 1
        if event.seq != self.report.actions:
            raise _Diverged(
                version,
                "action_number",
                f"action #{event.seq} is the {self.report.actions}th action recorded",
                "records 3",
            )
        codec = self.ruleset.codec
        try:
            action = codec.decode_action(event.action)
        except msgspec.ValidationError as error:
            raise _Diverged(
                version, "action_unreadable", f"stored action cannot be read: {error}", self.spec
            ) from None
        self.checkpoints[event.seq] = self.state
        self.live.append(event.seq)
        command = Command(action, event.seat, event.by)
        try:
            decided = self.decide(self.state, command, self.rng)
        except Exception as error:
            raise _Diverged(
                version, "unreadable", f"action #{event.seq} cannot be re-decided: {error!r}", self.spec
            ) from None
        if isinstance(decided, Rejection):
            raise _Diverged(
                version,
                "action_illegal",
                f"action #{event.seq} ({self.ruleset.format_action(action)}) is not legal here: "
                f"{decided.code}: {decided.message}",
                decided.rule,
            )
        facts, reached = decided
        self._facts(facts, version + 1, reached)

    def _facts(self, decided: Sequence[Any], version: int, reached: Any = None) -> None:
        """Compare the facts stored from `version` on with the facts `decided`, then fold
        them: the state `reached` by folding the decided facts, when given, is the state the
        stored ones lead to, since they are the same facts."""
        events, start = self.stored, self.position
        end, last = start, len(events)
        while end < last and isinstance(events[end], FactRecorded):
            end += 1
        self.position = end
        stored = events[start:end]
        encode = self.ruleset.codec.encode
        # Compared as stored (`_as_stored`, what JSON gives back): a stored fact whose JSON is
        # byte for byte the decided fact's written out is the fact JSON gives back from it,
        # which spares reading the decided one back; any other is compared as read.
        written = [_WRITE(encode(f)) for f in decided]
        if written != self.facts[start:end]:
            mismatch = first_difference([_READ(w) for w in written], [e.fact for e in stored], version)
            if mismatch is not None:
                raise _Diverged(*mismatch, self.spec)
        if reached is not None:
            self.state = reached
            self.report.facts += len(stored)
            return
        for event in stored:
            self.state = self.ruleset.evolve(self.state, self.ruleset.codec.decode_fact(event.fact))
            self.report.facts += 1

    def _retraction(self, event: Any) -> None:
        # A correction restores the state before its first action; it may only undo the
        # latest live actions (domain/corrections.py, rule 1).
        seqs = list(event.seqs)
        if not seqs or self.live[-len(seqs) :] != sorted(seqs):
            raise _Diverged(
                event.originator_version,
                "retraction_not_latest",
                f"retraction of {seqs} is not of the latest live actions",
                "corrections 1",
            )
        self.state = self.checkpoints[min(seqs)]
        del self.live[-len(seqs) :]
        self.report.retracted += len(seqs)

    def _resigned(self, event: Any) -> None:
        """A seat resigned: the next event closes the game with the resignation's outcome,
        recomputed from the state it left (domain/endings.py)."""
        if event.seat not in self.seats:
            raise _Diverged(
                event.originator_version,
                "unreadable",
                f"seat {event.seat!r} resigned but has no seat",
                self.spec,
            )
        ruled = resignation_outcome(self.ruleset, self.state, event.seat, self.seats)
        # A resignation recorded before it followed the game's own end-of-game order was
        # ranked by score alone: that ruling stands for it, as the rules of its day.
        earlier = score_ranking(self.ruleset, self.state, event.seat, self.seats)
        closing = self.stored[self.position] if self.position < len(self.stored) else None
        stored = getattr(closing, "outcome", None)
        self._finish(
            earlier if stored is not None and _as_stored(msgspec.to_builtins(earlier)) == stored else ruled
        )

    def _closed_by(self, event: Any) -> None:
        """An abandoned game has no outcome; nothing may follow its closing event."""
        self._nothing_after(self.position - 1)
        self.position = len(self.stored)

    def _nothing_after(self, index: int) -> None:
        if index + 1 < len(self.stored):
            after = self.stored[index + 1]
            raise _Diverged(
                after.originator_version,
                "after_finish",
                f"a {type(after).__name__} after the game was closed; a finished record never changes",
                "records 3",
            )

    def _finish(self, ended: Any = None) -> None:
        """The game has ended (by the rules, or `ended` by a resignation): the next event
        closes it, with this outcome, and is the last one."""
        outcome = msgspec.to_builtins(ended if ended is not None else self.ruleset.outcome(self.state))
        if self.position >= len(self.stored) or not isinstance(self.stored[self.position], GameFinished):
            raise _Diverged(
                self.position + 1,
                "finish_missing",
                "the rules say the game is over here but it was not closed",
                self.spec,
            )
        finished = self.stored[self.position]
        if _as_stored(outcome) != finished.outcome:
            raise _Diverged(
                finished.originator_version,
                "outcome_differs",
                f"stored outcome {finished.outcome} differs from the recomputed {outcome}",
                self.spec,
            )
        self._nothing_after(self.position)
        self.position = len(self.stored)


def _as_stored(value: Any) -> Any:
    """`value` in the shape the store gives it back: JSON types only (a tuple reads back as
    a list), so a recomputed fact compares equal to its stored copy."""
    return _READ(_WRITE(value))
