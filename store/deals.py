"""Same-deal games: another table plays the deal of a finished digital game (the duplicate
format), and the statistics compare the tables that played one deal.

A same-deal game is created with the ruleset, the variant options, the client seed and the
number of seats of the finished game it names, and that game's revealed server seed; its
randomness is keyed by the id of the deal's first game (`GameConfig.deal`, records 4.3), so
its setup and every draw that comes from the same stream and counter are the ones the first
table saw. Its first event stores `deal` (the first game's id) and the commitment to the seed,
which is the first game's commitment: anyone checks the deal against the first game.

The games of one deal are listed in a `Deal` aggregate of their own (id derived from the first
game's id), so finding the tables of a deal reads one stream, and the statistics find every
deal by its topic.

Who may read what while a deal is in play. A game's events give its deal away (every card
dealt, every roll), so while one game of a deal runs, the other games of that deal are
withheld (403 `same_deal_in_play`) from every reader who holds none of their own tokens:
anonymous readers, and a running table's own tokens presented on another game of its deal.
An anonymous reader cannot be tied to a table, so the rule cannot be narrower than "nobody
without a token of that game": each game's own table (its recorder and seats) and an
administrator still read it. Two tables playing one deal at once are withheld from each other.

One rule for everything derived from a game. A variation (a study or a play-on game, or a
variation of a variation) starts from its game's position and its annotations, review tokens,
disputes, exports and statistics comment on or carry the game's events, so each is judged as
the game it derives from: `withhold` resolves a variation to its family's game and refuses
whoever may not read that game, with the game's own answer. A token of the variation is no
token of the game (anyone may branch a finished game and hold one), so it opens nothing while
the game is withheld. Writes that derive from a withheld game are refused alike: branching it,
annotating it, handing out its review tokens, recording into its variations, and creating
another same-deal game from it (a new table's recorder sees every card its deal brings), which
is left to the game's own table and the administrator while the deal is in play. Every path
that asks `Chronicle.access` or `Chronicle.withhold` follows it (events, state, prompts,
audit, export, statistics of one game, pictures, disputes and their evidence, live streams,
annotations, variations); listings and the statistics over finished games show outcomes
only, never a deal.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

import msgspec
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from domain.events import GameCreated
from domain.variations import Variation
from store.aggregates import existing
from store.errors import Forbidden, InvalidRequest, VersionConflict

_NAMESPACE = UUID("3f0a6a0e-54a4-4a55-9a3b-1a2f4f8c2b7d")


def deal_id(first_game: UUID) -> UUID:
    return uuid5(_NAMESPACE, f"deal:{first_game}")


class Deal(Aggregate):
    """The games that played one deal, the first one first."""

    TOPIC = "chronicle:Deal"

    class Created(Aggregate.Created):
        TOPIC = "chronicle:Deal.Created"
        first_game: str

    class Joined(Aggregate.Event):
        TOPIC = "chronicle:Deal.Joined"
        game_id: str

        def apply(self, aggregate: Deal) -> None:
            aggregate.games.append(self.game_id)

    def __init__(self, first_game: str) -> None:
        self.first_game = first_game
        self.games: list[str] = [first_game]

    @classmethod
    def start(cls, first_game: UUID) -> Deal:
        return cls._create(cls.Created, id=deal_id(first_game), first_game=str(first_game))

    def join(self, game_id: UUID) -> None:
        self.trigger_event(self.Joined, game_id=str(game_id))


class DealOf(msgspec.Struct, frozen=True):
    """What a same-deal game takes from the game it replays."""

    first_game: str
    server_seed: bytes
    options: dict[str, Any]
    client_seed: str


def deal_of(app: Any, game_id: UUID, ruleset: str, players: int) -> DealOf:
    """The deal of the finished game `game_id`, for a new game of `ruleset` with `players`
    seats; refused with a stable code when that game cannot lend its deal."""
    game = app.game(game_id)
    config = game.config
    if config.mode != "digital":
        raise InvalidRequest(
            "Only a digital game has a deal to replay: a physical table made its own luck.",
            code="deal_not_digital",
        )
    if game.status != "finished" or not game.revealed_seed:
        raise InvalidRequest(
            "A game lends its deal once it has finished: its seed is sealed until then.",
            code="deal_not_finished",
        )
    if config.ruleset != ruleset:
        raise InvalidRequest(
            f"That game was played under {config.ruleset}, not {ruleset}.", code="deal_ruleset_differs"
        )
    if len(config.seats) != players:
        raise InvalidRequest(
            f"That deal was dealt for {len(config.seats)} players, not {players}.",
            code="deal_players_differ",
        )
    return DealOf(
        config.deal or config.game_id,
        bytes.fromhex(game.revealed_seed),
        dict(config.options),
        config.client_seed,
    )


def lend(app: Any, new: Any, token: str | None = None, *, admin: bool = False) -> DealOf:
    """The deal a `NewGame` with `same_deal_as` replays, for a creator holding `token` (or
    the administrator). The new game takes that game's options and client seed (it may
    repeat them, not change them) and its seed (so it may not fix one of its own). While
    another table plays the deal, only who may read the game lends it (`withhold`)."""
    try:
        source = UUID(new.same_deal_as)
    except ValueError:
        raise InvalidRequest(f"{new.same_deal_as!r} is not a game id.", code="invalid_game_id") from None
    if new.mode != "digital":
        raise InvalidRequest("A same-deal game is a digital game.", code="deal_not_digital")
    if new.server_seed is not None:
        raise InvalidRequest(
            "A same-deal game takes the deal's seed, not one of its own.", code="invalid_seed"
        )
    if not admin:
        withhold(app, source, token)
    dealt = deal_of(app, source, new.ruleset, len(new.players))
    if new.options and new.options != dealt.options:
        raise InvalidRequest(
            "A same-deal game plays with the options of its deal; leave them out.", code="deal_options_differ"
        )
    if new.client_seed and new.client_seed != dealt.client_seed:
        raise InvalidRequest(
            "A same-deal game takes the client seed of its deal; leave it out.", code="deal_options_differ"
        )
    return dealt


def joined(app: Any, first_game: UUID, game_id: UUID) -> Deal:
    """The deal's list with `game_id` added (to be saved with the new game)."""
    deal = existing(app, deal_id(first_game), Deal)
    if deal is None:
        deal = Deal.start(first_game)
    deal.join(game_id)
    return deal


def save_game_of_deal(app: Any, first_game: UUID, game_id: UUID, *aggregates: Any) -> bool:
    """Save a new game (its `aggregates`) with its place in the deal, in one transaction.
    False when another table joined the deal meanwhile: nothing was saved, and the new game's
    events were taken by the failed save, so the caller builds it again."""
    deal = joined(app, first_game, game_id)
    try:
        app.save(*aggregates, deal)
    except IntegrityError:
        if app.recorder.select_events(game_id, limit=1):
            raise  # the game itself clashed, not the deal
        return False
    return True


def join(app: Any, first_game: UUID, game_id: UUID) -> None:
    """Add a game already stored (an import) to its deal, reading the deal again on a clash."""
    for _attempt in range(5):
        try:
            app.save(joined(app, first_game, game_id))
            return
        except IntegrityError:
            continue  # a cached deal is brought up to date from the store on the next read
    raise VersionConflict("Other tables keep joining this deal; try again.")


def games_of(app: Any, first_game: UUID) -> list[str]:
    deal = existing(app, deal_id(first_game), Deal)
    return [] if deal is None else list(deal.games)


def origin_of(app: Any, subject_id: UUID) -> tuple[UUID, UUID] | None:
    """The game `subject_id` derives from (a game is its own; a variation, whatever it
    branched from, its family's game) and that game's deal (its first game, the game's own id
    when it started no deal yet); None when the id names neither a game nor a variation."""
    # A stream's first event never changes, so the answer is remembered (per application,
    # bounded): every anonymous read asks, and only the deal's list must be read fresh.
    known: dict[UUID, tuple[UUID, UUID]] = vars(app).setdefault("_origins", {})
    found = known.get(subject_id)
    if found is not None:
        return found
    created = list(app.events.get(subject_id, lte=1))
    if not created:
        return None
    if isinstance(created[0], Variation.Created):
        found = origin_of(app, UUID(created[0].game_id))
    elif isinstance(created[0], GameCreated):
        deal = vars(created[0]).get("deal")
        found = (subject_id, UUID(deal) if isinstance(deal, str) and deal else subject_id)
    if found is None:
        return None
    if len(known) >= 100_000:
        known.clear()
    known[subject_id] = found
    return found


def withhold(app: Any, subject_id: UUID, token: str | None) -> None:
    """Refuse a reader (or writer) of a game, or of anything derived from it, who holds no
    token of that game while another game of its deal runs (a token of another game is told
    why, not only refused). `subject_id` names the game or one of its variations."""
    if app.is_admin(token):
        return
    found = origin_of(app, subject_id)
    if found is None:
        return
    game_id, first = found
    if token and app.secrets(game_id).role_of(token) is not None:
        return  # the game's own table
    other = _running(app, [g for g in games_of(app, first) if g != str(game_id)])
    if other is not None:
        raise Forbidden(
            f"Game {other} plays this game's deal and is still running; this game's events "
            "would give the deal away, so they and everything made from them (its "
            "variations, annotations, disputes, exports, statistics) are shown to its own "
            "table only until then.",
            code="same_deal_in_play",
        )


def _held(app: Any, game_id: str) -> bool:
    """False for a game of a deal this store does not hold (imported without it)."""
    return bool(app.recorder.select_events(UUID(game_id), limit=1))


def _running(app: Any, games: list[str]) -> str | None:
    """The first of `games` this store holds that is still running, if any."""
    return next((g for g in games if not _settled(app, g)), None)


def _settled(app: Any, game_id: str) -> bool:
    """Whether the game runs no more here: closed, or not held by this store. A closed game
    never runs again, so that answer is remembered (per application, bounded, as
    `origin_of`'s): a read of a deal's game, or of `/stats`, folds none of its finished games
    again."""
    known: set[str] = vars(app).setdefault("_closed", set())
    if game_id in known or not _held(app, game_id):
        return True
    if not app.game(UUID(game_id)).closed:
        return False
    if len(known) >= 100_000:
        known.clear()
    known.add(game_id)
    return True


def withheld_games(app: Any) -> frozenset[str]:
    """The games of every deal that a game still plays: what the public statistics leave out
    until it ends (a finished game's figures, its dice by face among them, would give the
    deal away)."""
    return frozenset(g for games in all_deals(app) if _running(app, games) is not None for g in games)


def all_deals(app: Any) -> list[list[str]]:
    """Every deal that more than one game played: its games, the first one first."""
    found: list[list[str]] = []
    start = 1
    while True:
        batch = app.recorder.select_notifications(start, 500, topics=[Deal.Created.TOPIC])
        for notification in batch:
            deal: Deal = app.repository.get(notification.originator_id)
            if len(deal.games) > 1:
                found.append(list(deal.games))
        if len(batch) < 500:
            return found
        start = batch[-1].id + 1


def comparison(app: Any) -> list[dict[str, Any]]:
    """One row per game of every deal more than one table played and none plays still: the
    deal (its first game), the game, its players with their scores in seat order, its winners,
    and its status."""
    rows: list[dict[str, Any]] = []
    for games in all_deals(app):
        held = [g for g in games if _held(app, g)]
        if len(held) < 2 or _running(app, held) is not None:
            continue  # a deal still in play is compared once its last table ends
        for number, game_id in enumerate(held):
            game = app.game(UUID(game_id))
            config = game.config
            outcome = game.outcome
            scores = outcome.scores if outcome is not None else {}
            rows.append(
                {
                    "deal": games[0],
                    "ruleset": config.ruleset,
                    "table": number + 1,
                    "game": game_id,
                    "players": ", ".join(
                        f"{seat.name} {scores[seat.id]}" if seat.id in scores else seat.name
                        for seat in config.seats
                    ),
                    "winners": ", ".join(config.seat_name(s) for s in outcome.winners) if outcome else "",
                    "status": game.status,
                }
            )
    return rows
