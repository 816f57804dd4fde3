"""Statistics of Province: the figures followed turn by turn, the dice, and the game's own
tables (opening orders). Pure functions over states and facts.

- `metrics(state)`: per seat, the score if the game ended now (`vp`, province.md 8.2), coins,
  labor, buildings and goals claimed;
- `dice(fact)`: the first-player toss (one two-faced die, stream `first-player`) and each ship
  toss (two two-faced dice, stream `ships`); a physical toss counts its observed faces (white
  1, black 2) under the same stream names. A chosen first player rolls nothing;
- `per_game` / `tables`: the opening order of each seat (its first `OPENING_LENGTH` buildings,
  in the order built) and, over many games, how each opening fared.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.games.province.events import BuildingBuilt, Fact, FirstPlayerDetermined, ShipsTossed
from domain.games.province.scoring import totals
from domain.games.province.state import FACES, State
from domain.ruleset import Die, GameConfig, Outcome
from domain.standings import seat_result

OPENING_LENGTH = 2


def metrics(state: State) -> dict[str, dict[str, float]]:
    # Sampled at every turn of every game a rebuild folds: the two seats spelled out.
    a, b = state.players
    vp_a, vp_b = totals(state)
    return {
        "vp": {"A": float(vp_a), "B": float(vp_b)},
        "coins": {"A": float(a.coins), "B": float(b.coins)},
        "labor": {"A": float(a.labor), "B": float(b.labor)},
        "buildings": {"A": float(len(a.built)), "B": float(len(b.built))},
        "goals": {"A": float(len(a.goals)), "B": float(len(b.goals))},
    }


def _values(outcome: tuple[int, ...] | None, faces: Sequence[str | None]) -> tuple[int, ...]:
    if outcome is not None:
        return tuple(outcome)
    return tuple(FACES.index(f) + 1 for f in faces if f in FACES)


def _first_player_dice(fact: FirstPlayerDetermined) -> tuple[Die, ...]:
    if fact.chosen:
        return ()
    values = _values(fact.outcome, (fact.face,))
    return ((fact.stream or "first-player", 2, values),) if values else ()


def _ship_dice(fact: ShipsTossed) -> tuple[Die, ...]:
    values = _values(fact.outcome, fact.faces)
    return ((fact.stream or "ships", 2, values),) if values else ()


_DICE: dict[type[Any], Callable[[Any], tuple[Die, ...]]] = {
    FirstPlayerDetermined: _first_player_dice,
    ShipsTossed: _ship_dice,
}


def dice(fact: Fact) -> tuple[Die, ...]:
    # Asked of every fact a rebuild folds, and only two kinds roll.
    roll = _DICE.get(type(fact))
    return () if roll is None else roll(fact)


def per_game(config: GameConfig, facts: Sequence[Fact], outcome: Outcome | None) -> dict[str, Any]:
    """The opening order of each seat: its first buildings, in the order built."""
    openings: dict[str, list[str]] = {seat: [] for seat in config.seat_ids()}
    for fact in facts:
        if isinstance(fact, BuildingBuilt):
            built = openings.setdefault(fact.player, [])
            if len(built) < OPENING_LENGTH:
                built.append(fact.building)
    return {"openings": openings}


def tables(games: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`province_opening_orders`: for each opening, how many seats played it, won with it,
    drew with it (a tie for first is a draw, domain/standings.py). `games` are finished
    games: `{"winners": [...], "extra": per_game(...)}`."""
    counts: dict[str, list[int]] = {}
    for game in games:
        winners = tuple(game.get("winners", ()))
        openings: Mapping[str, Sequence[str]] = game.get("extra", {}).get("openings", {})
        for seat, built in openings.items():
            key = " > ".join(built) if built else "(nothing built)"
            row = counts.setdefault(key, [0, 0, 0])
            row[0] += 1
            result = seat_result(winners, seat)
            if result == "win":
                row[1] += 1
            elif result == "draw":
                row[2] += 1
    rows = [
        {"opening": key, "seats": n, "wins": wins, "draws": draws, "win_rate": wins / n}
        for key, (n, wins, draws) in sorted(counts.items(), key=lambda item: (-item[1][0], item[0]))
    ]
    return [
        {
            "id": "province_opening_orders",
            "title": f"Province opening orders (first {OPENING_LENGTH} buildings)",
            "key": "opening",
            "description": "One row per opening (the buildings a seat built first, in order), "
            "over the finished games.",
            "columns": [
                {
                    "id": "opening",
                    "label": "Opening",
                    "kind": "text",
                    "description": "the buildings, in order",
                },
                {"id": "seats", "label": "Played", "kind": "count", "description": "seats that opened so"},
                {
                    "id": "wins",
                    "label": "Wins",
                    "kind": "count",
                    "description": "of those, seats that won alone",
                },
                {
                    "id": "draws",
                    "label": "Draws",
                    "kind": "count",
                    "description": "of those, seats that shared first place or whose game nobody won",
                },
                {"id": "win_rate", "label": "Win rate", "kind": "ratio", "description": "wins / played"},
            ],
            "rows": rows,
        }
    ]
