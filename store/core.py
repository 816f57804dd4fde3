"""The Chronicle application's core: games as event streams on the eventsourcing library.

`Core` creates a game and records an action (atomically with its facts). The layers it stacks
on hold the rest of what every caller needs: corrections and endings (store/corrections.py),
reads at any version (store/reads.py), access (store/access.py) and the save path through
the hash chain (store/commits.py). The capabilities built on it (annotations, variations,
disputes, deals, imports and exports, the writer process) depend on it, never the other way
round; store/app.py assembles the application with them.

Mutation testing of the append path (bench/mutation.py, group append) leaves these survivors,
judged equivalent: a notation that names no action encoded anyway in `_stored_form` (a
Rejection's fields never equal a stored action, so the retry is refused as another action
either way), `fresh = None` for False, and a game never heard of taken as heard at version 1
rather than 0 (every game is at version 1 or more). Those of the save path are listed in
store/commits.py, and `_fold`'s in store/reads.py.
"""

from __future__ import annotations

import secrets as random_source
import threading
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any
from uuid import UUID, uuid4

import msgspec
from eventsourcing.persistence import IntegrityError
from eventsourcing.persistence import StoredEvent as StoredRecord

from domain import reading, suggestions
from domain.events import ActionRecorded, FactRecorded
from domain.game import ActionResult, Game
from domain.rng import NoRng, Rng, SeededRng, commitment
from domain.ruleset import (
    Command,
    GameConfig,
    RejectedError,
    Rejection,
    Seat,
    get_ruleset,
    resolve_options,
)
from store import clock, saving
from store.commits import Writer
from store.config import admin_token_from_env, store_env, store_url
from store.corrections import Corrections
from store.errors import (
    ActionIdReused,
    Forbidden,
    InvalidRequest,
    ServiceError,
    Unauthorized,
    VersionConflict,
)
from store.group_commit import GroupCommit
from store.kept_versions import KeptVersions
from store.requests import Access, CreatedGame, NewGame, Recorded, check_limits
from store.sealing import SealingMapper, sealing_env
from store.secrets import GameSecrets, new_token
from store.started import Dealt, Started, finish_if_over

HEARD_GAMES = 10_000  # games whose last heard version `Core.heard` keeps at most


class Core(Corrections):
    """The application every capability builds on: it creates a game, records an action,
    reads a game at any version (store/reads.py), corrects and ends it
    (store/corrections.py), checks who may do each (store/access.py) and saves through the
    hash chain (store/commits.py). What it cannot tell alone is asked of methods that
    store/app.py fills in: the deals (`lend_deal`, `save_dealt`, `withhold`) and the review
    tokens (`is_reviewer`)."""

    name = "Chronicle"  # the library's name for the application, store/app.py's too
    # A cached game keeps the state before each live action (for retractions): about 1 MB for
    # a very long game, so a few hundred games fit comfortably.
    env = {"AGGREGATE_CACHE_MAXSIZE": "256", "DEEPCOPY_FROM_AGGREGATE_CACHE": "y"}

    def __init__(
        self,
        url: str | None = None,
        admin_token: str | None = None,
        *,
        writer: Callable[[str], Writer] | None = None,
    ) -> None:
        """`writer`: on SQLite, builds (for the store's URL) what commits the appends awaited
        on an event loop in a process of its own (store/writer_process.py), as the server's
        are; given by whoever builds the application (store/app.py)."""
        self.url = store_url(url)
        super().__init__(env=self._environment())
        self.admin_token = admin_token if admin_token is not None else admin_token_from_env()
        self._secrets = {}
        self._secrets_lock = threading.Lock()
        self.listeners = []
        self.kept_versions = KeptVersions()
        # per game (its id as text), the last version any process was heard to append (`heard`)
        self._heard: dict[str, int] = {}
        grouped = isinstance(getattr(self.recorder, "group", None), GroupCommit)
        self.writer = writer(self.url) if writer is not None and grouped else None
        assert isinstance(self.mapper, SealingMapper)  # named by `sealing_env`
        self._to_row = self.mapper.to_row

    def _environment(self) -> dict[str, str]:
        """The library's settings: the store at `url`, its secrets sealed with its key."""
        return store_env(self.url) | sealing_env(self.url)

    # -- what store/app.py plugs in -----------------------------------------------------

    def lend_deal(self, new: NewGame, token: str | None, admin: bool) -> Dealt:
        """The deal a game created `same_deal_as` a finished game replays, for a creator
        holding `token` (store/deals.py). The core replays none."""
        raise InvalidRequest("This store replays no deal.", code="invalid_game_id")

    def save_dealt(self, first_game: UUID, game_id: UUID, *aggregates: Any) -> bool:
        """Save a new game of the deal of `first_game` with its place in the deal; False when
        another table joined the deal first (store/deals.py)."""
        raise InvalidRequest("This store replays no deal.", code="invalid_game_id")

    # -- writing ------------------------------------------------------------------------

    def create_game(
        self, new: NewGame, *, admin: bool = False, game_id: UUID | None = None, token: str | None = None
    ) -> CreatedGame:
        started = self.start_game(new, admin=admin, game_id=game_id, token=token)
        game, sealed, dealt = started.game, started.sealed, started.dealt
        if dealt is not None:
            if not self.save_dealt(UUID(dealt.first_game), game.id, game, sealed):
                # another table joined first
                return self.create_game(new, admin=admin, game_id=game.id, token=token)
        else:
            self.save(game, sealed)
        return started.created

    def start_game(
        self, new: NewGame, *, admin: bool = False, game_id: UUID | None = None, token: str | None = None
    ) -> Started:
        """Everything creating a game does before its first save: the request checked, the
        game started (its configuration and setup facts) and its secrets sealed, nothing
        stored yet. `create_game` saves it at once; `save_started` saves games played on in
        memory first (`Started.record`, store/simulation.py), each with its secrets in the same
        transaction."""
        check_limits(new)
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
        dealt = self.lend_deal(new, token, admin) if new.same_deal_as is not None else None
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
        game = Game.start(config, published, rng, clock.now(), tuple(new.tags))
        tokens = {f"seat:{s.id}": new_token() for s in seats} | {"recorder": new_token()}
        sealed = GameSecrets.seal(game_id, seed if new.mode == "digital" else None, tokens)
        self._finish_if_over(game, sealed)
        created = CreatedGame(
            game_id=str(game_id),
            commitment=published,
            version=game.version,
            seat_tokens={s.id: tokens[f"seat:{s.id}"] for s in seats},
            recorder_token=tokens["recorder"],
            seats={s.id: s.name for s in seats},
        )
        return Started(game, sealed, rng, created, dealt)

    def save_started(self, *started: Started) -> None:
        """Save games from `start_game`, with everything recorded on them since, in one
        transaction: each game's secrets, then its events whole (so the last event stored is a
        game's last, as when it is recorded as it is played), the chain stamped as one action
        at a time would have stamped it, the listeners told of every event. A game of a deal is
        saved by `create_game` alone."""
        self.save_stored(self.stored_form(*started))

    def stored_form(self, *started: Started) -> list[StoredRecord]:
        """The rows `save_started` inserts for `started`, in its order, stamped and mapped,
        nothing stored: a game played in another process (store/simulation_processes.py) is
        saved from them (`save_stored`). The games are not to be saved otherwise after."""
        if any(s.dealt is not None for s in started):
            raise ValueError("a game of a deal is saved by create_game, which joins it to its deal")
        pending = self._prepare_save(*(aggregate for s in started for aggregate in (s.sealed, s.game)))
        return self._sealed(pending).stored

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
            result = game.record(command, facts, clock.now(), action_id)
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
        finish_if_over(game, sealed)

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


def _as_stored(encoded: dict[str, Any]) -> Any:
    """An encoded action as the store gives it back: JSON's lists where the action holds tuples
    (a Dominion selection's cards), so that a retry compares equal to what was stored."""
    return msgspec.json.decode(msgspec.json.encode(encoded))


def _seat_words(seat: str | None) -> str:
    return "the prompted seat" if seat is None else f"seat {seat}"
