"""The Chronicle application: games as event streams on the eventsourcing library.

Every write goes through here: create a game, record an action (atomically with its facts),
finish it. Reads rebuild state at any version and redact it for the reader.

Mutation testing of the append path (bench/mutation.py, group append) leaves these survivors,
judged equivalent: the library's own projector in place of `_fold` (the same game, folded
more slowly), and a notation that names no action encoded anyway in `_stored_form` (a
Rejection's fields never equal a stored action, so the retry is refused as another action
either way). In `_stamp`: the range of stored events read for the digest before a save
(wider, or without its upper bound: at that moment nothing lies beyond it, and the last row's
digest is taken either way; or read before version 1, where there is none), a `TOPIC` looked up without a
default (every stored event class declares one), and the aggregate looked up unconditionally
(a save always holds the aggregate it saves). In the save split at its commit: the `strict`
of the zip of a save's events with their notification ids (one id each), the listeners' tuples built
even when the recorder numbers nothing (both recorders number every event), the `tracking`
keyword under another name, dropped or None (the application tracks nothing: it is None, and
the recorder ignores a keyword it does not know), `fresh = None` for False, and a game never heard of
taken as heard at version 1 rather than 0 (every game is at version 1 or more).
`_commit_async`'s PostgreSQL branch (and its look for a group commit without a default, which
only the PostgreSQL recorder would fail, as `close`'s would) is judged by the PostgreSQL tests,
which the mutation runs leave out.
"""

from __future__ import annotations

import asyncio
import secrets as random_source
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Annotated, Any, Literal, NamedTuple
from uuid import UUID, uuid4

import msgspec
from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.persistence import IntegrityError, Recording
from eventsourcing.persistence import StoredEvent as StoredRecord

from domain import reading, suggestions
from domain.events import ActionRecorded, FactRecorded
from domain.game import ActionResult, Game
from domain.reading import StoredEvent
from domain.rng import NoRng, Rng, SeededRng, commitment
from domain.ruleset import (
    OMNISCIENT,
    PUBLIC,
    Command,
    GameConfig,
    Mode,
    RejectedError,
    Rejection,
    Seat,
    Viewer,
    get_ruleset,
    resolve_options,
)
from store import chain, deals, saving
from store.config import admin_token_from_env, store_env, store_url
from store.errors import (
    ActionIdReused,
    Forbidden,
    GameNotFound,
    InvalidRequest,
    RetractionPending,
    ServiceError,
    Unauthorized,
    VersionConflict,
)
from store.group_commit import GroupCommit
from store.kept_versions import KeptVersions
from store.limits import ClientSeed, Options, Players, RulesetId, Tags, explain, options_problem
from store.saving import PendingSave
from store.sealing import SealingMapper, sealing_env
from store.secrets import GameSecrets, hmac_equal, new_token, secrets_id
from store.writer_process import WriterProcess

# what _server_seed and the deal's lookup read (`invalid_seed`, `invalid_game_id`), for the document
HEX_SEED = "^[0-9a-fA-F]{64}$"
GAME_ID = {"format": "uuid"}


class NewGame(msgspec.Struct, forbid_unknown_fields=True):
    """A request to create a game. Names and tags are 1 to 64 characters, the client seed at
    most 256, none with control characters; at most 16 tags and 64 options (store/limits.py)."""

    ruleset: RulesetId
    players: Players
    mode: Mode = "digital"
    options: Options = {}
    client_seed: ClientSeed = ""
    tags: Tags = []
    # administrators only: fixes the deal for a reproduction (64 hex digits)
    server_seed: (
        Annotated[str, msgspec.Meta(max_length=64, extra_json_schema={"pattern": HEX_SEED})] | None
    ) = None
    # a finished digital game whose deal this game replays (store/deals.py)
    same_deal_as: Annotated[str, msgspec.Meta(max_length=64, extra_json_schema=GAME_ID)] | None = None


class CreatedGame(msgspec.Struct):
    game_id: str
    commitment: str
    version: int
    seat_tokens: dict[str, str]
    recorder_token: str
    seats: dict[str, str]


class Access(msgspec.Struct, frozen=True):
    """What a token grants on one game."""

    role: Literal["admin", "recorder", "seat", "public"]
    seat: str | None = None

    def viewer(self, finished: bool) -> Viewer:
        if finished or self.role in ("admin", "recorder"):
            return OMNISCIENT
        if self.role == "seat":
            return Viewer("seat", self.seat)
        return PUBLIC


RECORDER = Access("recorder")
ADMIN = Access("admin")
ANONYMOUS = Access("public")


class Recorded(msgspec.Struct):
    """The answer to a recorded action (the same answer for a retried `action_id`)."""

    game_id: str
    seq: int
    version: int
    facts: list[dict[str, Any]]
    finished: bool
    replayed: bool = False


class Retraction(msgspec.Struct):
    """The answer to a retraction: the actions it undid, or the request still waiting for
    the seats in `waiting_for`."""

    game_id: str
    version: int
    retracted: list[int]
    request_id: str | None = None
    waiting_for: list[str] = []


class Ended(msgspec.Struct):
    """The answer to a resignation or an abandonment: the closed game's last version, its
    status (`finished` or `abandoned`) and its outcome (none when abandoned)."""

    game_id: str
    version: int
    status: str
    outcome: dict[str, Any] | None


class Appended(NamedTuple):
    """One event a save stored, as the listeners hear of it: its stream, version, topic and
    position in the store's sequence."""

    originator_id: UUID
    originator_version: int
    topic: str
    position: int


HEARD_GAMES = 10_000  # games whose last heard version `Chronicle.heard` keeps at most


def _now() -> datetime:
    return datetime.now(UTC)


def _check_limits(new: NewGame) -> None:
    """The limits of a new game hold whoever built it: HTTP decodes the request against them,
    and a `NewGame` built in process (the command line) is checked the same way here."""
    try:
        msgspec.convert(msgspec.to_builtins(new), NewGame)
    except msgspec.ValidationError as error:
        raise InvalidRequest(f"The game cannot be created: {explain(str(error))}.") from None
    problem = options_problem(new.options)
    if problem is not None:
        raise InvalidRequest(f"The game cannot be created: {problem}.")


class Chronicle(Application[UUID]):
    name = "Chronicle"
    # A cached game keeps the state before each live action (for retractions): about 1 MB for
    # a very long game, so a few hundred games fit comfortably.
    env = {"AGGREGATE_CACHE_MAXSIZE": "256", "DEEPCOPY_FROM_AGGREGATE_CACHE": "y"}

    def __init__(
        self, url: str | None = None, admin_token: str | None = None, *, writer_process: bool = False
    ) -> None:
        """`writer_process`: on SQLite, the commits awaited on an event loop are written by a
        process of their own (store/writer_process.py), as the server's are."""
        self.url = store_url(url)
        super().__init__(env=store_env(self.url) | sealing_env(self.url))
        self.admin_token = admin_token if admin_token is not None else admin_token_from_env()
        self._secrets: dict[UUID, GameSecrets] = {}
        self._secrets_lock = threading.Lock()
        # called after every save with what it recorded: the live streams listen (store/fanout.py)
        self.listeners: list[Callable[[list[Appended]], None]] = []
        self.kept_versions = KeptVersions()
        # per game (its id as text), the last version any process was heard to append (`heard`)
        self._heard: dict[str, int] = {}
        grouped = isinstance(getattr(self.recorder, "group", None), GroupCommit)
        self.writer = WriterProcess(self.url) if writer_process and grouped else None
        assert isinstance(self.mapper, SealingMapper)  # named by `sealing_env`
        self._to_row = self.mapper.to_row

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        group = getattr(self.recorder, "group", None)
        if isinstance(group, GroupCommit):
            group.close()
        super().close()

    def _record(self, processing_event: Any) -> list[Recording[UUID]]:
        """Stamp each new game event with its digest in the chain (store/chain.py) as it is
        saved; a clash on the version refuses the save as before, digests and all."""
        heads = self._stamp(processing_event)
        recorded: list[Recording[UUID]] = super()._record(processing_event)
        self._keep_heads(processing_event, heads)
        return recorded

    def _stamp(self, processing_event: Any) -> dict[UUID, tuple[int, str]]:
        """Stamp the new game events with their digests: each game's last version and digest."""
        new: dict[UUID, list[Any]] = {}
        for event in processing_event.events:
            if getattr(type(event), "TOPIC", None) in chain.TOPICS:
                new.setdefault(event.originator_id, []).append(event)
        heads: dict[UUID, tuple[int, str]] = {}
        for game_id, events in new.items():
            before = events[0].originator_version - 1
            game = processing_event.aggregates.get(game_id)
            known = vars(game).get("_chain_head") if game is not None else None
            if known is not None and known[0] == before:  # this aggregate saved the last event
                previous = known[1]
            else:
                rows = (
                    []
                    if before < 1
                    else list(self.recorder.select_events(game_id, gt=before - 1, lte=before))
                )
                if rows and chain.KEY not in msgspec.json.decode(rows[-1].state):
                    rows = list(self.recorder.select_events(game_id, lte=before))  # stored before the chain
                previous = chain.head_of(rows, game_id)
            plain = isinstance(game, Game) and game.ruleset.codec.plain
            heads[game_id] = (events[-1].originator_version, chain.stamp(previous, events, plain))
        return heads

    @staticmethod
    def _keep_heads(processing_event: Any, heads: dict[UUID, tuple[int, str]]) -> None:
        for game_id, head in heads.items():
            game = processing_event.aggregates.get(game_id)
            if game is not None:
                vars(game)["_chain_head"] = head

    # -- a save split at its commit (store/saving.py) -----------------------------------

    def _prepare_save(self, game: Game) -> PendingSave:
        """What `save(game)` does before the commit: collect the new events. They are stamped
        and mapped by the commit (`_sealed`), or mapped and left to the writer process to stamp."""
        processing_event: ProcessingEvent[UUID] = ProcessingEvent()
        # as `collect_events(game)`, without its runtime protocol checks
        processing_event.events.extend(game.collect_events())
        processing_event.aggregates[game.id] = game
        return PendingSave(processing_event, [], {})

    def _sealed(self, pending: PendingSave) -> PendingSave:
        """The save's events stamped with their digests, and mapped for the store."""
        pending.heads = self._stamp(pending.processing_event)
        pending.stored = self._mapped(pending)
        return pending

    def _mapped(self, pending: PendingSave) -> list[StoredRecord]:
        return [self.mapper.to_stored_event(e) for e in pending.processing_event.events]

    def _commit(self, pending: PendingSave) -> Sequence[int] | None:
        event = self._sealed(pending).processing_event
        return self.recorder.insert_events(pending.stored, tracking=event.tracking, **event.saved_kwargs)

    async def _commit_async(self, pending: PendingSave) -> Sequence[int] | None:
        """The commit, awaited: on SQLite, in the next batch of the writer process (which
        stamps the events: store/stamping.py) or of the group commit's thread; else in a
        thread."""
        writer = self.writer
        if writer is not None and writer.serves(asyncio.get_running_loop()):
            to_row = self._to_row
            # the application tracks nothing: no kwargs
            return await writer.submit([to_row(e) for e in pending.processing_event.events])
        event = self._sealed(pending).processing_event
        group = getattr(self.recorder, "group", None)
        if isinstance(group, GroupCommit):
            kwargs = {"tracking": event.tracking, **event.saved_kwargs}
            return await group.submit_async(pending.stored, kwargs)
        return await asyncio.to_thread(self._commit, pending)

    def _finish_save(self, pending: PendingSave, ids: Sequence[int] | None) -> None:
        """What `save` does after the commit: keep the chain's head and tell the listeners."""
        self._keep_heads(pending.processing_event, pending.heads)
        if ids:  # none when the recorder numbers nothing, as the library's `put`
            self._tell(
                [
                    Appended(e.originator_id, e.originator_version, type(e).TOPIC, position)
                    for e, position in zip(pending.processing_event.events, ids, strict=True)
                ]
            )

    def _notify(self, recordings: list[Recording[UUID]]) -> None:
        """The library's hook after a save it made (`save`): the listeners hear of it."""
        self._tell(
            [
                Appended(
                    r.domain_event.originator_id,
                    r.domain_event.originator_version,
                    r.notification.topic,
                    r.notification.id,
                )
                for r in recordings
            ]
        )

    def _tell(self, appended: list[Appended]) -> None:
        for listener in self.listeners:
            listener(appended)

    # -- access -------------------------------------------------------------------------

    def access(self, game_id: UUID, token: str | None) -> Access:
        """The role a bearer token grants on `game_id` (anonymous without one)."""
        self.withhold(game_id, token)
        if not token:
            return ANONYMOUS
        if self.admin_token and hmac_equal(token, self.admin_token):
            return ADMIN
        role = self.secrets(game_id).role_of(token)
        if role is None:
            from store.notes import is_reviewer  # a review token reads as the public (store/notes.py)

            if is_reviewer(self, game_id, token):
                return ANONYMOUS
            raise Unauthorized("This token is not valid for this game.", code="invalid_token")
        return _access_of(role)

    def withhold(self, subject_id: UUID, token: str | None) -> None:
        """Refuse `token` on a game, or on what derives from it (a variation, its
        annotations, its variations' list), while the game is withheld (store/deals.py):
        403 `same_deal_in_play`."""
        deals.withhold(self, subject_id, token)

    def access_in_memory(self, game_id: UUID, token: str | None) -> Access | None:
        """`access(game_id, token)` when this process can tell it without reading the store:
        the administrator's token, or one of the game's own tokens once its secrets are
        loaded; None otherwise (then ask `access`, which may read)."""
        if not token:
            return None
        if self.admin_token and hmac_equal(token, self.admin_token):
            return ADMIN
        with self._secrets_lock:
            sealed = self._secrets.get(game_id)
        role = sealed.role_of(token) if sealed is not None else None
        return _access_of(role) if role is not None else None

    def is_admin(self, token: str | None) -> bool:
        return bool(token and self.admin_token and hmac_equal(token, self.admin_token))

    def secrets(self, game_id: UUID) -> GameSecrets:
        with self._secrets_lock:
            found = self._secrets.get(game_id)
        if found is None:
            try:
                found = self.repository.get(secrets_id(game_id))
            except AggregateNotFoundError:
                raise GameNotFound(f"There is no game {game_id}.") from None
            assert isinstance(found, GameSecrets)
            with self._secrets_lock:
                self._secrets[game_id] = found
        return found

    # -- writing ------------------------------------------------------------------------

    def create_game(
        self, new: NewGame, *, admin: bool = False, game_id: UUID | None = None, token: str | None = None
    ) -> CreatedGame:
        _check_limits(new)
        ruleset = get_ruleset(new.ruleset)
        if ruleset is None:
            raise InvalidRequest(f"There is no ruleset {new.ruleset!r}.", code="unknown_ruleset")
        meta = ruleset.meta
        # A ruleset whose player limit depends on its configuration (a map's homeland capacity)
        # has more seat ids than its default maximum, and its `check_config` judges the count.
        check_config = getattr(ruleset, "check_config", None)
        flexible = check_config is not None and len(meta.seat_ids) > meta.max_players
        highest = len(meta.seat_ids) if flexible else meta.max_players
        if not meta.min_players <= len(new.players) <= highest:
            raise InvalidRequest(
                f"{meta.title} takes {meta.min_players} to {meta.max_players} players, "
                f"not {len(new.players)}.",
                code="invalid_player_count",
            )
        if any(not name.strip() for name in new.players):
            raise InvalidRequest("Every player needs a name.", code="invalid_player_name")
        dealt = deals.lend(self, new, token, admin=admin) if new.same_deal_as is not None else None
        options = resolve_options(meta, dealt.options if dealt else new.options)
        if isinstance(options, Rejection):
            raise RejectedError(options, status=400)
        seed = dealt.server_seed if dealt else self._server_seed(new, admin)
        game_id = game_id or uuid4()
        seats = tuple(Seat(sid, name.strip()) for sid, name in zip(meta.seat_ids, new.players, strict=False))
        client_seed = dealt.client_seed if dealt else new.client_seed
        config = GameConfig(
            str(game_id), meta.id, new.mode, seats, options, client_seed, dealt.first_game if dealt else ""
        )
        # A ruleset may check what options alone cannot (a custom map's geometry, say).
        problem = check_config(config) if check_config is not None else None
        if isinstance(problem, Rejection):
            raise RejectedError(problem, status=400)
        rng = self.rng_for(config, seed) if new.mode == "digital" else NoRng()
        published = commitment(seed) if new.mode == "digital" else ""
        game = Game.start(config, published, rng, _now(), tuple(new.tags))
        tokens = {f"seat:{s.id}": new_token() for s in seats} | {"recorder": new_token()}
        sealed = GameSecrets.seal(game_id, seed if new.mode == "digital" else None, tokens)
        self._finish_if_over(game, sealed)
        if dealt is not None:
            if not deals.save_game_of_deal(self, UUID(dealt.first_game), game_id, game, sealed):
                # another table joined first
                return self.create_game(new, admin=admin, game_id=game_id, token=token)
        else:
            self.save(game, sealed)
        return CreatedGame(
            game_id=str(game_id),
            commitment=published,
            version=game.version,
            seat_tokens={s.id: tokens[f"seat:{s.id}"] for s in seats},
            recorder_token=tokens["recorder"],
            seats={s.id: s.name for s in seats},
        )

    def _server_seed(self, new: NewGame, admin: bool) -> bytes:
        if new.server_seed is None:
            return random_source.token_bytes(32)
        if not admin:
            raise Forbidden("Only an administrator may fix the server seed.", code="admin_required")
        try:
            seed = bytes.fromhex(new.server_seed)
        except ValueError:
            raise InvalidRequest("server_seed must be hexadecimal.", code="invalid_seed") from None
        if len(seed) != 32:
            raise InvalidRequest("server_seed must be 32 bytes (64 hex digits).", code="invalid_seed")
        return seed

    def record(
        self,
        game_id: UUID,
        action: Mapping[str, Any] | str,
        access: Access,
        *,
        seat: str | None = None,
        action_id: str | None = None,
        expected_version: int | None = None,
    ) -> Recorded:
        """Validate and append one action with its facts, atomically.

        An `action_id` is bound to the seat and the action it first carried: sent again with
        both, it returns the first answer (`replayed`) and appends nothing, even when
        `expected_version` has gone stale since; with another seat or action it is refused
        (`ActionIdReused`)."""
        return saving.run(
            self._record_steps(game_id, action, access, seat, action_id, expected_version), self._commit
        )

    async def record_async(
        self,
        game_id: UUID,
        action: Mapping[str, Any] | str,
        access: Access,
        *,
        seat: str | None = None,
        action_id: str | None = None,
        expected_version: int | None = None,
    ) -> Recorded:
        """`record` on an event loop: deciding runs on the loop; a read of the store runs in a
        worker thread, and the commit is awaited (on SQLite, in the next group commit:
        store/group_commit.py)."""
        return await saving.run_async(
            self._record_steps(game_id, action, access, seat, action_id, expected_version), self._commit_async
        )

    def _record_steps(
        self,
        game_id: UUID,
        action: Mapping[str, Any] | str,
        access: Access,
        seat: str | None,
        action_id: str | None,
        expected_version: int | None,
    ) -> saving.Steps[Recorded]:
        if access.role == "public":
            raise Unauthorized("Recording an action needs a seat or recorder token.")
        fresh = False
        for _attempt in range(5):
            copied = None if fresh else self._cached_copy(game_id)
            read = copied is None
            game: Game = (
                (yield saving.Read(lambda: self._game_and_secrets(game_id))) if copied is None else copied
            )
            try:
                if action_id is not None:
                    prior = game.result_of(action_id)
                    if prior is not None:
                        replayed: Recorded = yield saving.Read(
                            partial(self._replayed, game, prior, action_id, action, access, seat)
                        )
                        return replayed
                if expected_version is not None and expected_version != game.version:
                    raise VersionConflict(
                        f"Expected version {expected_version}, but the game is at version {game.version}."
                    )
                command = self._command(game, action, access, seat)
                rng = self._rng(game)
                facts = game.decide(command, rng)
                if isinstance(facts, Rejection):
                    raise RejectedError(self.suggested(game, facts, action, command.seat))
            except (ServiceError, RejectedError):
                if read:
                    raise
                # Refused on this process's copy, which another process's write may have
                # overtaken: only the stored game refuses.
                fresh = True
                continue
            result = game.record(command, facts, _now(), action_id)
            self._finish_if_over(game, self.secrets(game_id))
            pending = self._prepare_save(game)
            try:
                ids = yield pending
            except IntegrityError:
                fresh = True
                # Another write took this version first. Read the stream again before anything
                # else: that write may have been this very action (a duplicate send racing this
                # one), which is then answered as a retry, not as a conflict; otherwise a stale
                # expected version is refused there, and without one the action is decided
                # afresh on the new state.
                continue
            self._finish_save(pending, ids)
            self._cache(game)
            return self._recorded(game, result, access, facts=facts)
        raise VersionConflict("The game is too busy to record this action now; try again.")

    def _cached_copy(self, game_id: UUID) -> Game | None:
        """A copy of the game as this process last saved or read it, to decide an action on
        without a read (None when not cached): a game whose every write goes through one
        process is decided and appended with no read at all. Another process may have
        appended since; then the copy is stale, and whatever is decided on it can only be
        refused by the store (the version it would write is taken) or by the rules: either
        way `record` reads the stored game and decides again. So a stale copy costs a second
        try, never a wrong write or a wrong refusal."""
        cache = self.repository.cache
        if cache is not None:
            try:
                cached = cache.get(game_id)
            except KeyError:
                return None
            if isinstance(cached, Game) and cached.version >= self._heard.get(cached.config.game_id, 0):
                return cached.copy()
        return None

    def heard(self, game_id: str, version: int) -> None:
        """Some process appended the game up to `version` (the live streams' news of every
        append, store/fanout.py): a cached copy older than that is stale, and the next action
        is decided on the stored game at once rather than tried on the copy first."""
        if version > self._heard.get(game_id, 0):
            if len(self._heard) >= HEARD_GAMES:
                self._heard.clear()  # forgetting costs a try on a stale copy, never a wrong write
            self._heard[game_id] = version

    def _game_and_secrets(self, game_id: UUID) -> Game:
        """The stored game, its secrets loaded too (deciding and finishing need them)."""
        game = self.game(game_id)
        self.secrets(game_id)
        return game

    def _replayed(
        self,
        game: Game,
        prior: ActionResult,
        action_id: str,
        action: Mapping[str, Any] | str,
        access: Access,
        seat: str | None,
    ) -> Recorded:
        """The first answer to a retried `action_id`, once it is checked to be the same action."""
        self._check_same_action(game, prior, action_id, action, access, seat)
        return self._recorded(game, prior, access, replayed=True)

    def _check_same_action(
        self,
        game: Game,
        prior: ActionResult,
        action_id: str,
        action: Mapping[str, Any] | str,
        access: Access,
        seat: str | None,
    ) -> None:
        """Refuse a stored `action_id` sent with another seat or another action. The seat is
        the one the request acts for (its token's, or the one it names); the action is
        compared in its stored form, notation being read against the table as it stood when
        the action was first recorded."""
        (stored,) = self.events.get(game.id, gt=prior.action_version - 1, lte=prior.action_version)
        assert isinstance(stored, ActionRecorded)
        acting, _by = self._acting_seat(game, access, seat)
        if acting != stored.seat:
            raise ActionIdReused(
                f"action_id {action_id!r} was recorded as action #{prior.seq} for "
                f"{_seat_words(stored.seat)}, not {_seat_words(acting)}; choose a new action_id."
            )
        if self._stored_form(game, prior, action) != stored.action:
            raise ActionIdReused(
                f"action_id {action_id!r} was recorded as action #{prior.seq}, a different action; "
                "choose a new action_id."
            )

    def _stored_form(self, game: Game, prior: ActionResult, action: Mapping[str, Any] | str) -> Any:
        """`action` as `ActionRecorded` would store it for the action `prior`, or None if it
        names no action there."""
        ruleset = game.ruleset
        if isinstance(action, str):
            # the state before each action is kept for good, a retracted action's included
            parsed = ruleset.parse_notation(action, game.checkpoints[prior.seq])
            return None if isinstance(parsed, Rejection) else _as_stored(ruleset.codec.encode(parsed))
        try:
            return _as_stored(ruleset.codec.encode(ruleset.codec.decode_action(dict(action))))
        except msgspec.ValidationError:
            return None

    def retract(
        self,
        game_id: UUID,
        access: Access,
        *,
        count: int = 1,
        reason: str = "",
        ask_approval: bool = False,
        seat: str | None = None,
        expected_version: int | None = None,
    ) -> Retraction:
        """Retract the last `count` live actions (domain/corrections.py). The recorder's token
        retracts at once; a seat's retraction that crosses another seat's action, a random
        outcome or a reveal is refused with the rule, or with `ask_approval` left pending
        until every other seat approves."""
        if access.role == "public":
            raise Unauthorized("A retraction needs a seat or recorder token.")
        if access.role == "seat":
            if seat is not None and seat != access.seat:
                raise Forbidden(f"This token acts for seat {access.seat}, not {seat}.", code="wrong_seat")
            seat, by = access.seat, "seat"
        else:
            by = "recorder"
        game = self.game(game_id)
        if seat is not None and seat not in game.config.seat_ids():
            raise InvalidRequest(f"There is no seat {seat!r} in this game.", code="unknown_seat")
        if expected_version is not None and expected_version != game.version:
            # "undo the last K" must undo what the asker saw, not an action recorded since
            raise VersionConflict(
                f"Expected version {expected_version}, but the game is at version {game.version}."
            )
        plan = game.plan_retraction(count, by, seat)
        if isinstance(plan, Rejection):
            raise RejectedError(plan)
        if plan.crossings and not ask_approval:
            raise RejectedError(plan.refusal())
        if plan.crossings:
            # One open request per seat: each is an event, and the other seats must answer it.
            waiting = next((r for r in game.requests.values() if r.seat == seat), None)
            if waiting is not None:
                raise RetractionPending(
                    f"Seat {seat} already waits for an answer to request {waiting.request_id}; "
                    "it lapses when an action is recorded or a seat declines it."
                )
            request_id = uuid4().hex[:12]
            game.request_retraction(plan, seat, reason, request_id, _now())
            self._save_correction(game)
            return Retraction(str(game_id), game.version, [], request_id, list(plan.needs))
        game.retract(plan, by, seat, reason, _now())
        self._save_correction(game)
        return Retraction(str(game_id), game.version, list(plan.seqs))

    def answer_retraction(self, game_id: UUID, request_id: str, access: Access, approved: bool) -> Retraction:
        """A seat's token approves or declines a pending retraction; the last approval
        carries it out."""
        if access.role != "seat" or access.seat is None:
            raise Forbidden("Only a seat's token answers a retraction request.", code="seat_token_required")
        game = self.game(game_id)
        refused = game.answer_retraction(request_id, access.seat, approved, _now())
        if refused is not None:
            raise RejectedError(refused)
        self._save_correction(game)
        still = game.requests.get(request_id)
        if still is not None:
            waiting = [s for s in still.needs if s not in still.approvals]
            return Retraction(str(game_id), game.version, [], request_id, waiting)
        undone = [a.seq for a in game.actions if a.retracted_at == game.version]
        return Retraction(str(game_id), game.version, undone)

    def resign(self, game_id: UUID, access: Access, *, seat: str | None = None, reason: str = "") -> Ended:
        """`seat` resigns: its own token, or the recorder (or an administrator) naming it. The
        game ends at once, ranked as the ruleset ranks a resignation (domain/endings.py)."""
        if access.role == "public":
            raise Unauthorized("Resigning needs the seat's token or the recorder's.")
        if access.role == "seat":
            if seat is not None and seat != access.seat:
                raise Forbidden(f"This token acts for seat {access.seat}, not {seat}.", code="wrong_seat")
            seat = access.seat
        game = self.game(game_id)
        if seat is None:
            raise InvalidRequest("Name the seat that resigns.", code="seat_required")
        if seat not in game.config.seat_ids():
            raise InvalidRequest(f"There is no seat {seat!r} in this game.", code="unknown_seat")
        refused = game.resign(seat, access.role, reason, self.secrets(game_id).server_seed, _now())
        if refused is not None:
            raise RejectedError(refused)
        self._save_ending(game)
        return Ended(str(game_id), game.version, game.status, reading.outcome(game))

    def abandon(self, game_id: UUID, access: Access, *, reason: str = "") -> Ended:
        """The recorder or an administrator abandons the game: it ends with no outcome (the
        statistics leave it out), its seed is revealed and the audit still runs."""
        if access.role not in ("recorder", "admin"):
            raise Forbidden(
                "Only the recorder or an administrator abandons a game.", code="recorder_required"
            )
        game = self.game(game_id)
        refused = game.abandon(access.role, reason, self.secrets(game_id).server_seed, _now())
        if refused is not None:
            raise RejectedError(refused)
        self._save_ending(game)
        return Ended(str(game_id), game.version, game.status, None)

    def _save_ending(self, game: Game) -> None:
        try:
            self.save(game)
        except IntegrityError:
            raise VersionConflict("The game moved on meanwhile; look again and retry.") from None
        self._cache(game)

    def pending_retractions(self, game_id: UUID) -> list[dict[str, Any]]:
        return [msgspec.to_builtins(r) for r in self.game(game_id).requests.values()]

    def _save_correction(self, game: Game) -> None:
        try:
            self.save(game)
        except IntegrityError:
            raise VersionConflict("The game moved on while the correction was entered; try again.") from None
        self._cache(game)

    def _cache(self, game: Game) -> None:
        """Keep the saved aggregate, so the next command does not fold its own facts again.
        Other processes' writes still arrive: every read fast-forwards from the store."""
        if self.repository.cache is not None:
            self.repository.cache.put(game.id, game)

    def _acting_seat(self, game: Game, access: Access, seat: str | None) -> tuple[str | None, str]:
        """The seat a request acts for (its token's, else the one it names, else None for
        the prompted seat) and who enters it."""
        if seat is not None and seat not in game.config.seat_ids():
            raise InvalidRequest(f"There is no seat {seat!r} in this game.", code="unknown_seat")
        if access.role == "seat":
            if seat is not None and seat != access.seat:
                raise Forbidden(f"This token acts for seat {access.seat}, not {seat}.", code="wrong_seat")
            return access.seat, "seat"
        return seat, "recorder"

    def _command(
        self, game: Game, action: Mapping[str, Any] | str, access: Access, seat: str | None
    ) -> Command:
        seat, by = self._acting_seat(game, access, seat)
        ruleset = game.ruleset
        if isinstance(action, str):
            parsed = ruleset.parse_notation(action, game.state)
            if isinstance(parsed, Rejection):
                raise RejectedError(self.suggested(game, parsed, action, seat), status=400)
            return Command(parsed, seat, by)  # type: ignore[arg-type]
        kinds = ruleset.codec.action_kinds()
        kind = action.get("kind")
        if not isinstance(kind, str) or kind not in kinds:  # a list or an object is no kind either
            known = ", ".join(sorted(kinds))
            raise RejectedError(
                Rejection(
                    "unknown_action",
                    f"{ruleset.meta.title} has no action {kind!r}; it knows {known}.",
                    ruleset.meta.spec,
                ),
                status=400,
            )
        try:
            decoded = ruleset.codec.decode_action(dict(action))
        except msgspec.ValidationError as error:
            raise RejectedError(
                Rejection("invalid_payload", f"The {kind} action is malformed: {error}.", ruleset.meta.spec),
                status=400,
            ) from None
        return Command(decoded, seat, by)  # type: ignore[arg-type]

    def suggested(
        self, game: Game, rejection: Rejection, action: Mapping[str, Any] | str, seat: str | None
    ) -> Rejection:
        """A rejection of notation, with the closest words the acting seat may use (the seats
        the game waits for when none is named): domain/suggestions.py."""
        if not isinstance(action, str):
            return rejection
        ruleset = game.ruleset
        seats = [seat] if seat is not None else sorted({p.seat for p in ruleset.pending(game.state)}, key=str)
        return suggestions.with_suggestion(rejection, ruleset, game.state, seats, action)

    def _rng(self, game: Game) -> Rng:
        if game.config.mode != "digital":
            return NoRng()
        seed = bytes.fromhex(self.secrets(game.id).server_seed)
        return self.rng_for(game.config, seed)

    def rng_for(self, config: GameConfig, seed: bytes) -> Rng:
        """The generator of a digital game: `hmac-sha256-v1` over its seed (records 4)."""
        return SeededRng(seed, config.rng_key, config.client_seed)

    def _finish_if_over(self, game: Game, sealed: GameSecrets) -> None:
        if game.outcome is None and game.ruleset.outcome(game.state) is not None:
            game.finish(sealed.server_seed, _now())

    def _recorded(
        self,
        game: Game,
        result: ActionResult,
        access: Access,
        *,
        replayed: bool = False,
        facts: list[Any] | None = None,
    ) -> Recorded:
        """The answer to an action, its facts redacted for whoever recorded it."""
        if facts is None:
            codec = game.ruleset.codec
            stored = self.events.get(game.id, gt=result.action_version, lte=result.last_version)
            facts = [codec.decode_fact(e.fact) for e in stored if isinstance(e, FactRecorded)]
        shown = reading.facts(game, facts, self.viewer(game, access))
        return Recorded(
            str(game.id), result.seq, result.last_version, shown, game.outcome is not None, replayed
        )

    # -- reading ------------------------------------------------------------------------

    def game(self, game_id: UUID, version: int | None = None) -> Game:
        try:
            if version is None:
                game: Game = self.repository.get(game_id, projector_func=_fold)
            else:
                game = self._game_at(game_id, version)
        except AggregateNotFoundError:
            if version is not None and version < 1:
                raise InvalidRequest("Versions start at 1.", code="invalid_version") from None
            raise GameNotFound(f"There is no game {game_id}.") from None
        if not isinstance(game, Game):
            raise GameNotFound(f"There is no game {game_id}.")
        return game

    def _game_at(self, game_id: UUID, version: int) -> Game:
        """The game folded up to `version` (or its last version, if before), from the nearest
        copy kept at or before it (store/kept_versions.py)."""
        game = self.kept_versions.fold(
            game_id, version, lambda gt, lte: self.events.get(game_id, gt=gt or None, lte=lte)
        )
        if game is None:
            raise AggregateNotFoundError(f"Aggregate {game_id!r} version {version!r} not found.")
        return game

    def cached_game(self, game_id: UUID) -> Game:
        """The game as this process last saved or read it, without asking the store whether
        another process has appended since (`game` asks: one read); from the store when it is
        not cached. For a caller that writes the game alone and only looks before it acts (a
        simulation's bot choosing its next move): `record` confirms with the store whatever
        it decided on a stale copy, so a stale look can cost a refusal, never a wrong write.
        The object is the cache's own: read it, never change it."""
        cache = self.repository.cache
        if cache is not None:
            try:
                game = cache.get(game_id)
            except KeyError:
                pass
            else:
                if isinstance(game, Game):
                    return game
        return self.game(game_id)

    def stored_events(self, game_id: UUID, gt: int | None = None, lte: int | None = None) -> list[Any]:
        return list(self.events.get(game_id, gt=gt, lte=lte))

    def read_events(
        self, game_id: UUID, access: Access, gt: int | None = None, lte: int | None = None
    ) -> list[StoredEvent]:
        """The stream as `access` may see it (domain/reading.py): redacted, one human line each."""
        game = self.game(game_id)
        return reading.present_all(game, self.events.get(game_id, gt=gt, lte=lte), self.viewer(game, access))

    def viewer(self, game: Game, access: Access) -> Viewer:
        return access.viewer(game.closed)

    def view(self, game_id: UUID, access: Access, at: int | None = None) -> dict[str, Any]:
        latest = self.game(game_id)
        if at is not None and not 1 <= at <= latest.version:
            raise InvalidRequest(f"Version {at} is outside 1..{latest.version}.", code="invalid_version")
        game = latest if at is None or at == latest.version else self.game(game_id, version=at)
        viewer = self.viewer(latest, access)
        return {
            "game_id": str(game_id),
            "version": game.version,
            "status": game.status,
            "view": str(viewer),
            "state": reading.state(game, viewer),
            "outcome": reading.outcome(game),
        }

    def prompts(self, game_id: UUID, access: Access) -> list[dict[str, Any]]:
        game = self.game(game_id)
        return reading.prompts(game, self.viewer(game, access))

    def legal_actions(self, game_id: UUID, access: Access, seat: str | None = None) -> dict[str, Any]:
        game = self.game(game_id)
        if access.role == "seat":
            if seat is not None and seat != access.seat:
                raise Forbidden(f"This token sees seat {access.seat}'s choices only.", code="wrong_seat")
            seat = access.seat
        elif access.role == "public":
            raise Unauthorized("Legal actions are shown to a seat or the recorder.")
        return reading.legal_actions(game, seat)

    def seed_for_audit(self, game: Game, access: Access) -> bytes | None:
        """The seed an audit may use: revealed when the game ended, else an administrator's
        (or the local store owner's) view of the sealed one."""
        if game.config.mode != "digital":
            return None
        if game.revealed_seed:
            return bytes.fromhex(game.revealed_seed)
        if access.role == "admin":
            return bytes.fromhex(self.secrets(game.id).server_seed)
        return None


def _fold(game: Any, events: Iterable[Any]) -> Any:
    """The library's `project_aggregate` without its assertion that each event can mutate (a
    runtime protocol check that cost as much as the rest of a fold): every event of a game
    stream is the library's aggregate event. The game keeps the last stored digest of its
    chain, so that its next save need not read it back."""
    last: Any = None
    for last in events:
        game = last.mutate(game)
    digest = vars(last).get(chain.KEY) if last is not None and game is not None else None
    if digest is not None:
        vars(game)["_chain_head"] = (last.originator_version, digest)
    return game


def _access_of(role: str) -> Access:
    """The access of a token the game's secrets know: `recorder` or `seat:<id>`."""
    return RECORDER if role == "recorder" else Access("seat", role.removeprefix("seat:"))


def _as_stored(encoded: dict[str, Any]) -> Any:
    """An encoded action as the store gives it back: JSON's lists where the action holds tuples
    (a Dominion selection's cards), so that a retry compares equal to what was stored."""
    return msgspec.json.decode(msgspec.json.encode(encoded))


def _seat_words(seat: str | None) -> str:
    return "the prompted seat" if seat is None else f"seat {seat}"
