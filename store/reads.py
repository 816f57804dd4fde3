"""Reading a game: its state at any version (folded from the nearest kept copy,
store/kept_versions.py), its stored events, and what a reader may see of them (the view,
the prompts, the legal actions), redacted for the reader's access (domain/reading.py).

Mutation testing of the append path (bench/mutation.py, group append) leaves this survivor,
judged equivalent: the library's own projector in place of `_fold` (the same game, folded
more slowly).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain import reading
from domain.game import Game
from domain.reading import StoredEvent
from domain.ruleset import Viewer
from store import chain
from store.access import Guarded
from store.errors import Forbidden, GameNotFound, InvalidRequest, Unauthorized
from store.kept_versions import KeptVersions
from store.requests import Access


class Reads(Guarded):
    """The application's reads. `kept_versions` is set by its `__init__` (store/core.py)."""

    kept_versions: KeptVersions

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
        return legal_actions_for(self.game(game_id), access, seat)

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


def legal_actions_for(game: Game, access: Access, seat: str | None = None) -> dict[str, Any]:
    """A game's (or a variation's) legal actions now: a seat token its own seat's, the recorder
    any seat's (default the prompted one), the public none."""
    if access.role == "seat":
        if seat is not None and seat != access.seat:
            raise Forbidden(f"This token sees seat {access.seat}'s choices only.", code="wrong_seat")
        seat = access.seat
    elif access.role == "public":
        raise Unauthorized("Legal actions are shown to a seat or the recorder.")
    return reading.legal_actions(game, seat)


def fold_game(events: Iterable[Any]) -> Game:
    """The game a stream's events, from its first, fold into (as `game` reads it)."""
    game = _fold(None, events)
    if not isinstance(game, Game):
        raise GameNotFound("These events are no game's.")
    return game


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
