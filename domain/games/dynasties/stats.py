"""Statistics hooks of Dynasties & Kingdoms (rules version dk-1, dynasties-kingdoms.md 5.6):
per-seat figures turn by turn, every die of a random fact for the fairness tests, and per game
the battles fought and won and the VT by source.

Observed (physical) rolls are reported under the stream a digital game would have used
(`turn-order` for the roll-off, `dice` for City, Province and city destruction rolls), so both
modes feed the same per-stream tables. Province rolls report both dice in order (first,
second)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.games.dynasties.events import (
    BattleResolved,
    BattleStarted,
    CityDestructionRolled,
    CityRolled,
    Fact,
    ProvinceRolled,
    TurnOrderRolled,
    VtGained,
)
from domain.games.dynasties.state import State
from domain.ruleset import GameConfig, Outcome

Die = tuple[str, int, tuple[int, ...]]


def metrics(state: State) -> dict[str, dict[str, float]]:
    seats = state.seats
    provinces = {s: 0.0 for s in seats}
    armies = {s: 0.0 for s in seats}
    cities = {s: 0.0 for s in seats}
    for p in state.provs:
        if p.owner is not None:
            provinces[p.owner] += 1
            armies[p.owner] += p.armies
            cities[p.owner] += 1 if p.city else 0
    return {
        "vp": {p.id: float(p.vt) for p in state.players},
        "provinces": provinces,
        "armies": armies,
        "cities": cities,
    }


def dice(fact: Fact) -> tuple[Die, ...]:
    if isinstance(fact, TurnOrderRolled):
        return ((fact.stream or "turn-order", 6, (fact.value,)),)
    if isinstance(fact, ProvinceRolled):
        return ((fact.stream or "dice", 6, (fact.first, fact.second)),)
    if isinstance(fact, CityRolled | CityDestructionRolled):
        return ((fact.stream or "dice", 6, (fact.value,)),)
    return ()


def per_game(config: GameConfig, facts: Sequence[Fact], outcome: Outcome | None) -> dict[str, Any]:
    seats = config.seat_ids()
    fought = dict.fromkeys(seats, 0)
    won = dict.fromkeys(seats, 0)
    vt: dict[str, dict[str, int]] = {s: {} for s in seats}
    sides: tuple[str | None, str | None] = (None, None)
    for fact in facts:
        if isinstance(fact, BattleStarted):
            a = fact.attacker_player if fact.attacker_kind == "player" else None
            d = fact.defender_player if fact.defender_kind == "player" else None
            sides = (a, d)
            for seat in sides:
                if seat is not None:
                    fought[seat] = fought.get(seat, 0) + 1
        elif isinstance(fact, BattleResolved) and fact.winner != "tie":
            seat = sides[0] if fact.winner == "attacker" else sides[1]
            if seat is not None:
                won[seat] = won.get(seat, 0) + 1
        elif isinstance(fact, VtGained):
            by_source = vt.setdefault(fact.player, {})
            by_source[fact.source] = by_source.get(fact.source, 0) + fact.amount
    return {"battles_fought": fought, "battles_won": won, "vt_by_source": vt}
