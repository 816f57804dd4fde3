"""A game or a variation read as one line of events (domain/variations.py): a variation's
base's events up to the branching version, then its own, turned into the game's own event
classes and numbered on from there, folded through the game aggregate's own handlers. Every
read of a line therefore goes through the one redaction (domain/reading.py) exactly as a
game's does. Branching and recording into a variation are store/variations.py's.

A game's line is its stream read once and folded once, by the store's own fold (store/reads.py):
the library's fold checked a runtime protocol per event, and the annotations read and folded
the stream again. The figure (`bench.state_at`): a 15,000-event game opened by `chronicle log`
in 410 ms against 926 ms, by the terminal replay in 307 ms against 1,886 ms.
"""

from __future__ import annotations

import copy
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.application import AggregateNotFoundError

from domain.events import ActionRecorded, FactRecorded, GameCreated, GameFinished
from domain.game import Game
from domain.ruleset import OMNISCIENT, Seat, Viewer
from domain.variations import Variation
from store.core import Core
from store.errors import GameNotFound
from store.reads import fold_game
from store.requests import Access


@dataclass
class Line:
    """A game or a variation as one line of events: `game` is the aggregate folded over all
    of `events` (the base's up to `at`, then the variation's own)."""

    line_id: UUID
    game: Game
    events: list[Any]
    variation: Variation | None = None

    @property
    def at(self) -> int:
        return self.variation.at if self.variation is not None else 0

    @property
    def open_to_all(self) -> bool:
        """Whether everything in the line may be shown to everyone: a closed game, or a study."""
        return self.game.closed or (self.variation is not None and self.variation.purpose == "study")

    def viewer(self, access: Access) -> Viewer:
        return OMNISCIENT if self.open_to_all else access.viewer(False)


def is_variation(app: Core, line_id: UUID) -> bool:
    """Whether `line_id` names a variation, from its first stored event alone: a game too
    damaged to fold must still reach its audit."""
    first = app.recorder.select_events(line_id, limit=1)
    return bool(first) and first[0].topic == Variation.Created.TOPIC


def line(app: Core, line_id: UUID) -> Line:
    """The game or variation `line_id` as one line (404 `game_not_found` for neither)."""
    stream = app.stored_events(line_id)  # a game's whole stream, read once and folded once
    if stream and isinstance(stream[0], GameCreated):
        return Line(line_id, fold_game(stream), stream)
    try:
        found: object = app.repository.get(line_id)
    except AggregateNotFoundError:
        raise GameNotFound(f"There is no game or variation {line_id}.") from None
    if not isinstance(found, Variation):
        raise GameNotFound(f"There is no game or variation {line_id}.")
    prefix, position = _position(app, UUID(found.base_id), found.at)
    events = list(prefix)
    origin = position.id
    for stored in list(app.events.get(line_id))[1:]:
        events.append(as_game_event(stored, origin, found.at + stored.originator_version - 1))
    game: Any = copy.deepcopy(position)
    config = game.config
    if [s.name for s in config.seats] != found.players:  # a game played on by other players
        seats = tuple(Seat(s.id, name) for s, name in zip(config.seats, found.players, strict=True))
        game.config = msgspec.structs.replace(config, seats=seats)
    for event in events[len(prefix) :]:
        game = event.mutate(game)
    assert isinstance(game, Game)
    return Line(line_id, game, events, found)


# A line's events up to a version never change (streams are append-only), so the folded
# position a variation branches from is kept per application, for the few lines in use.
_POSITIONS: weakref.WeakKeyDictionary[Core, OrderedDict[tuple[UUID, int], tuple[list[Any], Game]]] = (
    weakref.WeakKeyDictionary()
)
_POSITIONS_LOCK = threading.Lock()
KEPT_POSITIONS = 32


def _position(app: Core, base_id: UUID, at: int) -> tuple[list[Any], Game]:
    """The base's events up to `at`, and the game folded over them (never to be mutated)."""
    with _POSITIONS_LOCK:
        kept = _POSITIONS.setdefault(app, OrderedDict())
        found = kept.get((base_id, at))
        if found is not None:
            kept.move_to_end((base_id, at))
            return found
    first = app.stored_events(base_id, lte=1)
    if first and isinstance(first[0], GameCreated):  # a game: read only what comes before the branch
        prefix = app.stored_events(base_id, lte=at)
    else:
        prefix = [e for e in line(app, base_id).events if e.originator_version <= at]
    found = (prefix, fold(prefix, at))
    with _POSITIONS_LOCK:
        kept[(base_id, at)] = found
        while len(kept) > KEPT_POSITIONS:
            kept.popitem(last=False)
    return found


def as_game_event(stored: Any, origin: UUID, version: int) -> Any:
    """A variation's event as the game event it stands for, at its place in the line."""
    # the game's own event classes, built by hand (their fields are declared on the library's
    # dataclass events, which mypy does not see through)
    action_class: Any = ActionRecorded
    fact_class: Any = FactRecorded
    finished_class: Any = GameFinished
    common = {"originator_id": origin, "originator_version": version, "timestamp": stored.timestamp}
    if isinstance(stored, Variation.ActionRecorded):
        return action_class(
            **common, seq=stored.seq, action=stored.action, seat=stored.seat, by=stored.by, action_id=None
        )
    if isinstance(stored, Variation.FactRecorded):
        return fact_class(**common, fact=stored.fact)
    assert isinstance(stored, Variation.Finished)
    return finished_class(**common, outcome=stored.outcome, server_seed=stored.server_seed)


def at_rest(base: Line, at: int) -> bool:
    """Whether version `at` of `base` is a position: no action there waits for its facts."""
    after = next((e for e in base.events if e.originator_version == at + 1), None)
    return not isinstance(after, FactRecorded)


def fold(events: list[Any], version: int) -> Game:
    game: Any = None
    for event in events:
        if event.originator_version > version:
            break
        game = event.mutate(game)
    assert isinstance(game, Game)
    return game
