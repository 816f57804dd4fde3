"""Small fixed games for the statistics tests."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.ruleset import get_ruleset
from store.app import RECORDER, Chronicle, NewGame
from store.simulation import play

# Ann goes first (the table tossed white), the table turns up workers2, Ann moves every green
# worker and builds the Camp (province.md E3), Ben moves one worker and ends his turn.
OPENING = [
    {"kind": "DetermineFirstPlayer", "first": "A", "face": "white"},
    {"kind": "RevealGoal", "goal": "workers2"},
    {"kind": "MoveWorker", "piece": "green", "from": "top"},
    {"kind": "MoveWorker", "piece": "green", "from": "right"},
    {"kind": "MoveWorker", "piece": "green", "from": "left"},
    {"kind": "Build", "building": "camp"},
    {"kind": "EndTurn"},
    {"kind": "MoveWorker", "piece": "green", "from": "top"},
    {"kind": "EndTurn"},
]


def physical_game(
    app: Chronicle, actions: list[dict[str, Any]], players: tuple[str, str] = ("Ann", "Ben")
) -> UUID:
    created = app.create_game(NewGame("province", list(players), mode="physical"))
    game_id = UUID(created.game_id)
    for action in actions:
        app.record(game_id, action, RECORDER)
    return game_id


def simulate(
    app: Chronicle, games: int, seed: str = "t", names: tuple[str, str] = ("Ann", "Ben")
) -> list[UUID]:
    """Seeded bot games of Province played to the end."""
    ruleset = get_ruleset("province")
    assert ruleset is not None
    played = [play(app, ruleset, seed, i, list(names), {}, 20_000) for i in range(games)]
    assert all(p.outcome is not None for p in played)
    return [p.game_id for p in played]


def resigned_games(app: Chronicle, games: int, names: tuple[str, str] = ("Ann", "Ben")) -> list[UUID]:
    """Province games that end at once, seat A resigning: finished games for the view in a
    fraction of the time a played one takes."""
    ended = []
    for _ in range(games):
        game_id = UUID(app.create_game(NewGame("province", list(names))).game_id)
        app.resign(game_id, RECORDER, seat="A")
        ended.append(game_id)
    return ended
