"""Games to dispute: a finished Dynasties game with an early battle, and the versions of that
battle (from the action that started it to its resolution); and a same-deal table that plays
the moves of the first."""

from __future__ import annotations

from uuid import UUID

from domain.events import ActionRecorded, FactRecorded
from store.app import RECORDER, Chronicle
from store.simulation import play
from tests.short_games import players, ruleset_named

# A seeded bot game of Dynasties (about 420 events) whose first battle comes early: a rebel
# uprising in its province phase, dealt, redrawn and resolved.
BATTLE_SEED = "battle-17"


def dynasties_with_battle(app: Chronicle) -> UUID:
    played = play(app, ruleset_named("dynasties"), BATTLE_SEED, 0, players("dynasties"), {}, 5_000)
    assert played.outcome is not None, played.problem
    return played.game_id


def battle_range(app: Chronicle, game_id: UUID) -> tuple[int, int]:
    """The first battle: from the action whose facts started it to the fact that resolved it."""
    events = app.stored_events(game_id)
    started = next(
        e.originator_version
        for e in events
        if isinstance(e, FactRecorded) and e.fact["type"] == "BattleStarted"
    )
    first = max(
        e.originator_version
        for e in events
        if isinstance(e, ActionRecorded) and e.originator_version < started
    )
    last = next(
        e.originator_version
        for e in events
        if isinstance(e, FactRecorded)
        and e.fact["type"] == "BattleResolved"
        and e.originator_version > started
    )
    return first, last


def play_as(app: Chronicle, game_id: UUID, source: UUID) -> None:
    """The second table plays the moves the first one played (a bot game of its own would be
    hundreds of actions longer): with the same deal, each is legal where it comes."""
    for event in app.stored_events(source):
        if isinstance(event, ActionRecorded):
            app.record(game_id, event.action, RECORDER, seat=event.seat)
    assert app.game(game_id).closed
