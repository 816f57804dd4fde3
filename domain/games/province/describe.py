"""One human line per fact of Province (Kickstarter 2014), for logs and the replay screen
(province.md 7.4). Seat names come from the game's configuration; building names from the
rules data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.games.province import events as ev
from domain.games.province.data import DATA
from domain.ruleset import GameConfig

_NAMES = {b.id: b.name for b in DATA.buildings}
_SOURCES = {
    "cycle": "cycle",
    "union": "Union",
    "grind": "Grind",
    "setup": "setup",
}


def _building(building_id: str) -> str:
    return _NAMES.get(building_id, building_id)


def _source(source: str) -> str:
    if source in _SOURCES:
        return _SOURCES[source]
    if source.startswith("lender_"):
        return f"borrowed {_building(source.removeprefix('lender_'))}"
    return _building(source)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _coins(n: int) -> str:
    return _plural(n, "coin")


def describe(fact: ev.Fact, config: GameConfig) -> str:
    render = _RENDER.get(type(fact))
    if render is None:
        return type(fact).__name__
    return render(fact, config.seat_name)


Name = Callable[[str], str]


def _first(f: ev.FirstPlayerDetermined, name: Name) -> str:
    if f.chosen:
        return f"{name(f.first)} goes first (chosen)."
    face = f" (ship shows {f.face})" if f.face else ""
    return f"{name(f.first)} goes first{face}."


def _goal_order(f: ev.GoalOrderDrawn, name: Name) -> str:
    if f.redacted or not f.order:
        return f"The {f.count} goal tokens are shuffled face down."
    return f"The goal tokens are shuffled: {', '.join(f.order)} (top first)."


def _ships(f: ev.ShipsTossed, name: Name) -> str:
    return f"Ships tossed: {', '.join(f.faces)} ({f.result})."


def _requested(f: ev.RandomInputRequested, name: Name) -> str:
    return {
        "first_player": "Waiting for the table: who goes first?",
        "goal_reveal": "Waiting for the table: turn the next goal token face up.",
        "ship_toss": "Waiting for the table: toss the ships.",
    }.get(f.awaiting, f"Waiting for the table: {f.awaiting}.")


def _setup(f: ev.SetupCompleted, name: Name) -> str:
    parts = " and ".join(f"{name(seat)} {_coins(n)}" for seat, n in f.coins.items())
    return f"Setup complete: {parts}."


def _turn(f: ev.TurnStarted, name: Name) -> str:
    return f"Turn {f.turn}: {name(f.player)} to play."


def _phase(f: ev.PhaseChanged, name: Name) -> str:
    return f"{name(f.player)} enters the {f.phase.replace('_', ' ')} phase."


def _labor(f: ev.LaborGained, name: Name) -> str:
    return f"{name(f.player)} gains {f.amount} labor ({_source(f.source)})."


def _labor_spent(f: ev.LaborSpent, name: Name) -> str:
    return f"{name(f.player)} spends {f.amount} labor ({f.reason})."


def _coins_gained(f: ev.CoinsGained, name: Name) -> str:
    short = f", {f.requested} owed but the supply ran short" if f.amount < f.requested else ""
    return f"{name(f.player)} gains {_coins(f.amount)} ({_source(f.source)}{short})."


def _coins_paid(f: ev.CoinsPaid, name: Name) -> str:
    return f"{name(f.player)} pays {_coins(f.amount)} ({f.reason.replace('_', ' ')})."


def _moved(f: ev.WorkerMoved, name: Name) -> str:
    piece = "sailor" if f.piece == "sailor" else f"{f.piece} worker"
    return f"{name(f.player)} moves a {piece} from {f.from_} to {f.to}."


def _placed(f: ev.WorkerPlaced, name: Name) -> str:
    owner = f"{name(f.owner)}'s " if f.owner else "The "
    return f"{owner}{f.piece} piece is placed on {f.space}."


def _built(f: ev.BuildingBuilt, name: Name) -> str:
    first = f"first, {f.vp_scored} VP" if f.first else "not first, no VP"
    return f"{name(f.player)} builds the {_building(f.building)} ({first})."


def _master(f: ev.HarborMasterSet, name: Name) -> str:
    return f"{name(f.player)} becomes Harbor Master."


def _sailor(f: ev.SailorHired, name: Name) -> str:
    return f"{name(f.player)} hires a sailor."


def _lender_used(f: ev.LenderUsed, name: Name) -> str:
    return f"{name(f.player)} borrows the {_building(f.target)} with the Lender."


def _lender_coin(f: ev.LenderCoinMoved, name: Name) -> str:
    def where(x: str) -> str:
        return "the supply" if x == "supply" else name(x)

    return f"The Lender coin moves from {where(f.from_)} to {where(f.to)}."


def _revealed(f: ev.GoalRevealed, name: Name) -> str:
    return f"Goal revealed: {f.goal}."


def _claimed(f: ev.GoalClaimed, name: Name) -> str:
    return f"{name(f.player)} claims the {f.goal} goal."


def _removed(f: ev.GoalRemoved, name: Name) -> str:
    return f"Both players achieve {f.goal}: the goal is removed."


def _discarded(f: ev.LaborDiscarded, name: Name) -> str:
    return f"{name(f.player)} loses {f.amount} unspent labor."


def _final(f: ev.FinalTurnSet, name: Name) -> str:
    return f"The game will end after {name(f.player)}'s final turn ({', '.join(f.reasons)})."


def _ended(f: ev.GameEnded, name: Name) -> str:
    a, b = f.scores["A"].total, f.scores["B"].total
    tie = " on buildings" if f.tie_break and f.winner else ""
    if f.winner is None:
        return f"Game over: a draw at {a} to {b}."
    loser = "B" if f.winner == "A" else "A"
    return f"Game over: {name(f.winner)} wins {f.scores[f.winner].total} to {f.scores[loser].total}{tie}."


_RENDER: dict[type[Any], Callable[[Any, Name], str]] = {
    ev.FirstPlayerDetermined: _first,
    ev.GoalOrderDrawn: _goal_order,
    ev.ShipsTossed: _ships,
    ev.RandomInputRequested: _requested,
    ev.SetupCompleted: _setup,
    ev.TurnStarted: _turn,
    ev.PhaseChanged: _phase,
    ev.LaborGained: _labor,
    ev.LaborSpent: _labor_spent,
    ev.CoinsGained: _coins_gained,
    ev.CoinsPaid: _coins_paid,
    ev.WorkerMoved: _moved,
    ev.WorkerPlaced: _placed,
    ev.BuildingBuilt: _built,
    ev.HarborMasterSet: _master,
    ev.SailorHired: _sailor,
    ev.LenderUsed: _lender_used,
    ev.LenderCoinMoved: _lender_coin,
    ev.GoalRevealed: _revealed,
    ev.GoalClaimed: _claimed,
    ev.GoalRemoved: _removed,
    ev.LaborDiscarded: _discarded,
    ev.FinalTurnSet: _final,
    ev.GameEnded: _ended,
}
