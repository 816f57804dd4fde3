"""The Game aggregate: one stream per game on the eventsourcing library.

The aggregate holds the ruleset's immutable state and the bookkeeping every game needs
(action numbers, client action ids for idempotent retries, the live line of actions after
corrections, whether the game is finished). It never draws randomness itself: the caller
passes the game's `Rng`, and every outcome the ruleset draws is written into a fact.

An action is decided and then recorded: `decide` keeps the state its facts lead to (the
ruleset folded them to reach it, domain/ruleset.py `decider`), and `record`, given exactly
those facts against the same state, takes that state rather than folding each fact again.
Events read back from the store (a replay) fold their facts with `evolve`, which gives the
same state.

A retraction restores the state from before its first retracted action. The state before every
action stays kept, retracted ones included, because each action is shown to a reader against
the state it answered (domain/reading.py). States are immutable and share everything that did
not change, so this costs about a kilobyte per action even in a long game.
"""

from __future__ import annotations

import operator
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.domain import Aggregate

from domain import corrections, endings
from domain.rng import ALGORITHM, Rng
from domain.ruleset import (
    Command,
    GameConfig,
    Outcome,
    Rejection,
    Ruleset,
    decider,
    get_ruleset,
)


class ActionResult(msgspec.Struct, frozen=True):
    """Where one recorded action landed: its number, the version of its `ActionRecorded`
    event, and the version of its last fact."""

    seq: int
    action_version: int
    last_version: int
    seat: str | None = None  # the seat the action was for (the prompted seat if none was named)
    boundaries: frozenset[str] = frozenset()  # "random" / "reveal" facts it caused
    retracted_at: int | None = None  # version of the retraction that undid it


class PendingRetraction(msgspec.Struct, frozen=True):
    request_id: str
    seqs: tuple[int, ...]
    seat: str | None
    reason: str
    needs: tuple[str, ...]
    approvals: tuple[str, ...] = ()


GAME_OVER = Rejection("game_over", "The game is over; a finished record cannot change.", "records 3")


class Game(Aggregate):
    """The stream of one game. Its events (re-exported by `domain.events`) are the library's
    dataclass events with primitive fields; each has an explicit, stable topic."""

    TOPIC = "chronicle:Game"

    class Created(Aggregate.Created):
        TOPIC = "chronicle:GameCreated"
        ruleset: str
        ruleset_version: str
        mode: str
        seats: list[dict[str, str]]
        options: dict[str, Any]
        client_seed: str
        commitment: str
        rng_algorithm: str
        tags: list[str]

        def apply(self, aggregate: Game) -> None:
            aggregate.on_created(self)

    class ActionRecorded(Aggregate.Event):
        TOPIC = "chronicle:ActionRecorded"
        seq: int
        action: dict[str, Any]
        seat: str | None
        by: str
        action_id: str | None

        def apply(self, aggregate: Game) -> None:
            aggregate.on_action(self)

    class FactRecorded(Aggregate.Event):
        TOPIC = "chronicle:FactRecorded"
        fact: dict[str, Any]

        def apply(self, aggregate: Game) -> None:
            aggregate.on_fact(self)

    class Retracted(Aggregate.Event):
        TOPIC = "chronicle:ActionsRetracted"
        seqs: list[int]
        by: str
        seat: str | None
        reason: str
        approvals: list[str]

        def apply(self, aggregate: Game) -> None:
            aggregate.on_retracted(self)

    class RetractionRequested(Aggregate.Event):
        TOPIC = "chronicle:RetractionRequested"
        request_id: str
        seqs: list[int]
        seat: str | None
        reason: str
        needs: list[str]

        def apply(self, aggregate: Game) -> None:
            aggregate.on_requested(self)

    class RetractionAnswered(Aggregate.Event):
        TOPIC = "chronicle:RetractionAnswered"
        request_id: str
        seat: str
        approved: bool

        def apply(self, aggregate: Game) -> None:
            aggregate.on_answered(self)

    class Resigned(Aggregate.Event):
        TOPIC = "chronicle:GameResigned"
        seat: str
        by: str
        reason: str

        def apply(self, aggregate: Game) -> None:
            aggregate.on_resigned(self)

    class Abandoned(Aggregate.Event):
        TOPIC = "chronicle:GameAbandoned"
        by: str
        reason: str
        server_seed: str

        def apply(self, aggregate: Game) -> None:
            aggregate.on_abandoned(self)

    class Finished(Aggregate.Event):
        TOPIC = "chronicle:GameFinished"
        outcome: dict[str, Any]
        server_seed: str

        def apply(self, aggregate: Game) -> None:
            aggregate.on_finished(self)

    def __init__(self) -> None:
        self.config: GameConfig
        self.ruleset: Ruleset[Any, Any, Any]
        self.state: Any = None
        self.commitment = ""
        self.tags: tuple[str, ...] = ()
        self.actions: list[ActionResult] = []
        self.action_ids: dict[str, int] = {}
        self.outcome: Outcome | None = None
        self.revealed_seed: str | None = None
        self.live: list[int] = []
        self.checkpoints: dict[int, Any] = {}
        self.requests: dict[str, PendingRetraction] = {}
        self.resigned: str | None = None  # the seat whose resignation ended the game
        self.abandoned = False
        # (state decided against, its facts, the state they lead to) of the last `decide`,
        # until `record` takes it
        self._decided: tuple[Any, tuple[Any, ...], Any] | None = None

    # Immutable state is shared between copies; only the bookkeeping is copied.
    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.copy()

    def copy(self) -> Game:
        """A copy that records on its own: `copy.deepcopy` of the game, without its memo.

        The checkpoints are shared, not copied: an entry is only ever added, for the action
        recorded next, and its value is the state that action is decided on, which is the
        state after every action before it, whichever copy records it, committed or not. So
        an entry a copy adds beyond the original's last action is one the original would add
        alike, and none of the original's own entries changes."""
        # as `copy.copy`, which takes the long way through `__reduce_ex__` for this plain object
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.actions = list(self.actions)
        clone.action_ids = dict(self.action_ids)
        clone.live = list(self.live)
        clone.requests = dict(self.requests)
        clone._pending_events = []
        clone._decided = None
        return clone

    def trigger_event(self, event_class: type[Any], **kwargs: Any) -> None:
        """The library's `trigger_event` less what it checks again on every call: that the
        class is not the bare `Event` and that its explicit topic is registered. Every event
        class of a game is declared above with its topic, registered when this module loads."""
        event = event_class(originator_id=self._id, originator_version=self._version + 1, **kwargs)
        # as the library's `mutate`, whose checks of the id and version hold by construction
        event.apply(self)
        self._version = event.originator_version
        self._modified_on = event.timestamp
        self._pending_events.append(event)

    # -- commands -----------------------------------------------------------------------

    @classmethod
    def start(
        cls, config: GameConfig, commitment: str, rng: Rng, at: datetime, tags: tuple[str, ...] = ()
    ) -> Game:
        """Create the stream and append the setup facts. `config.options` must already be
        resolved against the ruleset's metadata."""
        game = cls._create(
            cls.Created,
            id=UUID(config.game_id),
            timestamp=at,
            ruleset=config.ruleset,
            ruleset_version=_ruleset(config.ruleset).meta.version,
            mode=config.mode,
            seats=[{"id": s.id, "name": s.name} for s in config.seats],
            options=dict(config.options),
            client_seed=config.client_seed,
            commitment=commitment,
            rng_algorithm=ALGORITHM,
            tags=list(tags),
        )
        if config.deal:
            # Stored only on a same-deal game, beside the declared fields (as the chain's
            # digest is), so every other game's first event keeps its stored bytes.
            vars(game.pending_events[0])["deal"] = config.deal
            game.config = config
        for fact in game.ruleset.setup(config, game.state, rng):
            game.trigger_event(cls.FactRecorded, timestamp=at, fact=game.ruleset.codec.encode(fact))
        return game

    def decide(self, command: Command, rng: Rng) -> list[Any] | Rejection:
        """The facts `command` would cause now, without recording anything."""
        self._decided = None
        if self.closed:
            return GAME_OVER
        result = decider(self.ruleset)(self.state, command, rng)
        if isinstance(result, Rejection):
            return result
        facts, reached = result
        self._decided = (self.state, tuple(facts), reached)
        return list(facts)

    def record(
        self, command: Command, facts: list[Any], at: datetime, action_id: str | None = None
    ) -> ActionResult:
        """Append an accepted action and its facts (from `decide`). Facts that are the very
        ones `decide` just returned for this state lead to the state it reached; any others
        are folded one by one."""
        codec = self.ruleset.codec
        decided, self._decided = self._decided, None
        adopt = (
            decided is not None
            and decided[0] is self.state
            and len(decided[1]) == len(facts)
            and all(map(operator.is_, decided[1], facts))
        )
        # `trigger_event(ActionRecorded, ...)`, built as `_append_fact` builds a fact's event
        action = object.__new__(self.ActionRecorded)
        vars(action).update(
            originator_id=self._id,
            originator_version=self._version + 1,
            timestamp=at,
            seq=len(self.actions) + 1,
            action=codec.encode(command.action),
            seat=command.seat,
            by=command.by,
            action_id=action_id,
        )
        self.on_action(action)
        self._version = action.originator_version
        self._modified_on = at
        self._pending_events.append(action)
        if decided is None or not adopt:
            for fact in facts:
                self.trigger_event(self.FactRecorded, timestamp=at, fact=codec.encode(fact))
            return self.actions[-1]
        # The facts decided against this state: their events are appended without folding
        # them again (`on_fact`), and the action's result takes them all at once.
        for fact in facts:
            self._append_fact(at, codec.encode(fact))
        self.state = decided[2]
        if facts:
            last = self.actions[-1]
            found = {b for b in map(self.ruleset.boundary, facts) if b}
            self.actions[-1] = msgspec.structs.replace(
                last,
                last_version=self._version,
                boundaries=last.boundaries | found if found else last.boundaries,
            )
        return self.actions[-1]

    def _append_fact(self, at: datetime, fact: dict[str, Any]) -> None:
        """`trigger_event(FactRecorded, ...)` for a fact already folded, built as its
        dataclass builds it (the same fields, in the same order) without the frozen
        dataclass's setter per field or the library's check that the id is a UUID."""
        event = object.__new__(self.FactRecorded)
        vars(event).update(
            originator_id=self._id, originator_version=self._version + 1, timestamp=at, fact=fact
        )
        self._version = event.originator_version
        self._modified_on = at
        self._pending_events.append(event)

    def finish(self, server_seed: str, at: datetime) -> None:
        """Close the record once the ruleset reports an outcome, revealing the seed."""
        outcome = self.ruleset.outcome(self.state)
        assert outcome is not None and self.outcome is None
        self.trigger_event(
            self.Finished, timestamp=at, outcome=msgspec.to_builtins(outcome), server_seed=server_seed
        )

    def resign(self, seat: str, by: str, reason: str, server_seed: str, at: datetime) -> Rejection | None:
        """`seat` leaves the game: it ends at once, ranked as the ruleset ranks a resignation
        (domain/endings.py), and the seed is revealed as at any end."""
        if self.closed:
            return GAME_OVER
        outcome = endings.resignation_outcome(self.ruleset, self.state, seat, self.config.seat_ids())
        self.trigger_event(self.Resigned, timestamp=at, seat=seat, by=by, reason=reason)
        self.trigger_event(
            self.Finished, timestamp=at, outcome=msgspec.to_builtins(outcome), server_seed=server_seed
        )
        return None

    def abandon(self, by: str, reason: str, server_seed: str, at: datetime) -> Rejection | None:
        """End the game with no outcome. The seed is revealed, so the audit still runs."""
        if self.closed:
            return GAME_OVER
        self.trigger_event(self.Abandoned, timestamp=at, by=by, reason=reason, server_seed=server_seed)
        return None

    def plan_retraction(self, count: int, by: str, seat: str | None) -> corrections.Plan | Rejection:
        """What retracting the last `count` live actions would undo and whose approval it needs."""
        if self.closed:
            return GAME_OVER
        live = [self.actions[seq - 1] for seq in self.live]
        facts = [corrections.LiveAction(a.seq, a.seat, a.boundaries) for a in live]
        return corrections.plan(facts, count, by, seat, self.config.seat_ids())

    def retract(
        self,
        plan: corrections.Plan,
        by: str,
        seat: str | None,
        reason: str,
        at: datetime,
        approvals: tuple[str, ...] = (),
    ) -> None:
        self.trigger_event(
            self.Retracted,
            timestamp=at,
            seqs=list(plan.seqs),
            by=by,
            seat=seat,
            reason=reason,
            approvals=list(approvals),
        )

    def request_retraction(
        self, plan: corrections.Plan, seat: str | None, reason: str, request_id: str, at: datetime
    ) -> None:
        self.trigger_event(
            self.RetractionRequested,
            timestamp=at,
            request_id=request_id,
            seqs=list(plan.seqs),
            seat=seat,
            reason=reason,
            needs=list(plan.needs),
        )

    def answer_retraction(self, request_id: str, seat: str, approved: bool, at: datetime) -> Rejection | None:
        """A seat approves or declines a pending retraction; the last approval carries it out."""
        if self.closed:
            return GAME_OVER
        request = self.requests.get(request_id)
        if request is None:
            return Rejection(
                "no_pending_retraction",
                "No such retraction is pending: it was carried out, declined, or lapsed when play went on.",
                "corrections 4",
            )
        if seat not in request.needs or seat in request.approvals:
            return Rejection(
                "not_an_approver", f"Seat {seat} has no answer to give on this retraction.", "corrections 2"
            )
        self.trigger_event(
            self.RetractionAnswered, timestamp=at, request_id=request_id, seat=seat, approved=approved
        )
        if approved and set(request.needs) <= {*request.approvals, seat}:
            self.trigger_event(
                self.Retracted,
                timestamp=at,
                seqs=list(request.seqs),
                by="seat",
                seat=request.seat,
                reason=request.reason,
                approvals=[*request.approvals, seat],
            )
        return None

    # -- event handlers (called by the events' apply) -----------------------------------

    def on_created(self, event: Game.Created) -> None:
        self.ruleset = _ruleset(event.ruleset)
        self.config = GameConfig.from_record(str(event.originator_id), vars(event))
        self.commitment = event.commitment
        self.tags = tuple(event.tags)
        self.state = self.ruleset.initial(self.config)

    def on_action(self, event: Game.ActionRecorded) -> None:
        version = event.originator_version
        seat = event.seat if event.seat is not None else self.ruleset.progress(self.state)[1]
        self.actions.append(ActionResult(event.seq, version, version, seat))
        self.live.append(event.seq)
        self.checkpoints[event.seq] = self.state
        self.requests.clear()  # a pending retraction named the last actions; play went on
        if event.action_id is not None:
            self.action_ids[event.action_id] = event.seq

    def on_fact(self, event: Game.FactRecorded) -> None:
        fact = self.ruleset.codec.decode_fact(event.fact)
        self.state = self.ruleset.evolve(self.state, fact)
        if self.actions:
            last = self.actions[-1]
            boundary = self.ruleset.boundary(fact)
            self.actions[-1] = msgspec.structs.replace(
                last,
                last_version=event.originator_version,
                boundaries=last.boundaries | {boundary} if boundary else last.boundaries,
            )

    def on_retracted(self, event: Game.Retracted) -> None:
        self.state = self.checkpoints[min(event.seqs)]
        for seq in event.seqs:
            self.live.remove(seq)
            self.actions[seq - 1] = msgspec.structs.replace(
                self.actions[seq - 1], retracted_at=event.originator_version
            )
        self.requests.clear()

    def on_requested(self, event: Game.RetractionRequested) -> None:
        self.requests[event.request_id] = PendingRetraction(
            event.request_id, tuple(event.seqs), event.seat, event.reason, tuple(event.needs)
        )

    def on_answered(self, event: Game.RetractionAnswered) -> None:
        request = self.requests.pop(event.request_id)
        if event.approved:
            self.requests[event.request_id] = msgspec.structs.replace(
                request, approvals=(*request.approvals, event.seat)
            )

    def on_resigned(self, event: Game.Resigned) -> None:
        self.resigned = event.seat
        self.requests.clear()

    def on_abandoned(self, event: Game.Abandoned) -> None:
        self.abandoned = True
        self.revealed_seed = event.server_seed or None
        self.requests.clear()

    def on_finished(self, event: Game.Finished) -> None:
        self.outcome = msgspec.convert(event.outcome, Outcome)
        self.revealed_seed = event.server_seed or None
        if (
            self.actions and self.resigned is None
        ):  # the closing event belongs to the answer of the action that ended the game
            self.actions[-1] = msgspec.structs.replace(
                self.actions[-1], last_version=event.originator_version
            )

    # -- reading ------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Whether the record is closed: finished (by the rules or a resignation) or abandoned."""
        return self.outcome is not None or self.abandoned

    @property
    def status(self) -> str:
        if self.abandoned:
            return "abandoned"
        return "finished" if self.outcome is not None else "running"

    def retracted_versions(self) -> set[int]:
        """The versions of every retracted action and of the facts it caused."""
        return {
            version
            for a in self.actions
            if a.retracted_at is not None
            for version in range(a.action_version, a.last_version + 1)
        }

    def result_of(self, action_id: str) -> ActionResult | None:
        seq = self.action_ids.get(action_id)
        return None if seq is None else self.actions[seq - 1]


def _ruleset(ruleset_id: str) -> Ruleset[Any, Any, Any]:
    ruleset = get_ruleset(ruleset_id)
    if ruleset is None:
        raise LookupError(f"no ruleset {ruleset_id!r} is installed")
    return ruleset
