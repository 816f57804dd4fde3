"""Scenario helpers for the worked examples of dominations-provinces.md section 8.

`make(...)` builds a state in the spec's example conventions (three players, default options,
the default catalog holding Moche, Recuay and the fixtures FX1-FX5, compositions of 1.3) with
only the listed facts changed; piles written "starts X, Y" get every other card of their deck
below, so card conservation (2.5) holds. `Play` feeds actions through `decide`, checks
acceptance or the error code, and folds the facts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from domain.games.dominations import RULESET
from domain.games.dominations.board import cell_name, parse_cell
from domain.games.dominations.state import DI, START, Attack, Available, Deck, Owned, Placed, State, TurnState
from domain.rng import Rng, ScriptedRng
from domain.ruleset import Command, GameConfig, Rejection, Seat, resolve_options

MASTERY_CODES = {
    "Arcs de Triomphe": "ARC",
    "Engins de Siege": "SIE",
    "Conscription": "CON",
    "Missionaires": "MIS",
    "Espionnage": "ESP",
    "Corsaires": "COR",
}


def config(mode: str = "digital", options: Mapping[str, Any] | None = None, seats: int = 3) -> GameConfig:
    resolved = resolve_options(RULESET.meta, dict(options or {}))
    assert not isinstance(resolved, Rejection), resolved
    return GameConfig(
        game_id="test-game",
        ruleset="dominations",
        mode="physical" if mode == "physical" else "digital",
        seats=tuple(Seat(f"p{i}", f"P{i}") for i in range(1, seats + 1)),
        options=resolved,
    )


def _pile(canonical: Iterable[str], top: Sequence[str], used: set[str]) -> tuple[str, ...]:
    rest = [c for c in canonical if c not in used and c not in top]
    return (*top, *rest)


def make(
    *,
    mode: str = "digital",
    options: Mapping[str, Any] | None = None,
    seats: int = 3,
    age: int = 1,
    round: int = 1,
    active: str = "p1",
    step: str = START,
    players: Mapping[str, Mapping[str, Any]] | None = None,
    available: Sequence[str | Available] = (),
    rebellion_top: Sequence[str] = (),
    rebellion_draw: Sequence[str] | None = None,
    rebellion_discard: Sequence[str] = (),
    conquest_top: Sequence[str] = (),
    conquest_discard: Sequence[str] = (),
    board: Sequence[tuple[str, str, int, str | None]] | None = None,
    extra_board: Sequence[tuple[str, str, int, str | None]] = (),
    dominance: Mapping[str, str] | None = None,
    province_decks: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None = None,
    attack: Attack | None = None,
    turn: TurnState | None = None,
) -> State:
    state = RULESET.initial(config(mode, options, seats))
    tables = state.tables
    plist = list(state.players)
    for seat, fields in (players or {}).items():
        i = state.seats.index(seat)
        knowledge = [0] * 6
        for d, v in fields.get("knowledge", {}).items():
            knowledge[DI[d]] = v
        masteries = tuple(
            Owned(f"{MASTERY_CODES[name]}-1", (k + 1, 0))
            for k, name in enumerate(fields.get("masteries", ()))
        )
        plist[i] = replace(
            plist[i],
            knowledge=tuple(knowledge),
            influence=fields.get("influence", 0),
            vp=fields.get("vp", 0),
            land_hand=tuple(fields.get("land_hand", ())),
            conquest_hand=tuple(fields.get("conquest_hand", ())),
            masteries=masteries,
        )
    supply = tuple(
        m for m in state.mastery_supply if m not in {o.card_id for p in plist for o in p.masteries}
    )
    avail = tuple(a if isinstance(a, Available) else Available(a, age) for a in available)
    placed: dict[str, Placed] = dict(state.board) if board is None else {}
    for cell, tile, rotation, owner in (*(board or ()), *extra_board):
        c = parse_cell(cell)
        assert c is not None
        placed[cell_name(c)] = Placed(
            tile, rotation, "start", None, tables.faces.get(tile), owner, 1 if owner else 0
        )
    used_tiles = {p.tile_id for p in placed.values()} | {t for p in plist for t in p.land_hand}
    land = Deck(tuple(t for t in state.land.draw if t not in used_tiles))
    kept = {c for a in avail for c in a.kept}
    in_attack = set(attack.kept_taken + attack.drawn) if attack else set()
    r_used = set(rebellion_discard) | kept | in_attack
    reb_draw = (
        tuple(rebellion_draw)
        if rebellion_draw is not None
        else _pile(tables.rebellion_ids, rebellion_top, r_used)
    )
    hands = {c for p in plist for c in p.conquest_hand}
    c_draw = _pile(tables.conquest_ids, conquest_top, hands | set(conquest_discard))
    if mode == "physical":  # piles are multisets of strengths (5.4)
        reb_draw = tuple(rebellion_draw) if rebellion_draw is not None else state.rebellion.draw
        remaining = list(state.conquest.draw)
        for card in [x for p in plist for x in p.conquest_hand]:
            remaining.remove(card)
        c_draw = tuple(remaining)
    decks = province_decks or tuple(
        tuple(
            p.province_id
            for p in tables.catalog.provinces
            if p.age == a and p.province_id not in {x.province_id for x in avail}
        )
        for a in (1, 2, 3)
    )
    dom = dict(state.dominance)
    dom.update(dominance or {})
    return replace(
        state,
        players=tuple(plist),
        mastery_supply=supply,
        age=age,
        round=round,
        active=active,
        step=step,
        available=avail,
        board=placed,
        land=land,
        rebellion=Deck(reb_draw, tuple(rebellion_discard)),
        conquest=Deck(c_draw, tuple(conquest_discard)),
        province_decks=decks,
        dominance=dom,
        attack=attack,
        turn=turn or TurnState(),
        shuffles={"conquest": 1, "rebellion": 1},
    )


class Play:
    """Runs actions against a state, checking each result."""

    def __init__(self, state: State, rng: Rng | None = None) -> None:
        self.state = state
        self.rng: Rng = rng or ScriptedRng()
        self.facts: list[Any] = []
        self.last: list[Any] = []

    def __call__(self, seat: str | None, action: Any, expect: str = "ok", by: str = "seat") -> list[Any]:
        command = Command(action, seat, "seat" if by == "seat" else "recorder")
        result = RULESET.decide(self.state, command, self.rng)
        if expect == "ok":
            assert not isinstance(result, Rejection), f"{action} refused: {result}"
            for fact in result:
                self.state = RULESET.evolve(self.state, fact)
            self.facts.extend(result)
            self.last = list(result)
            return list(result)
        assert isinstance(result, Rejection), f"{action} accepted, expected {expect}"
        assert result.code == expect, f"{action}: {result.code} ({result.message}), expected {expect}"
        assert result.rule.startswith("dominations ")
        return []

    def p(self, seat: str) -> Any:
        return self.state.player(seat)

    def k(self, seat: str, domain: str) -> int:
        return int(self.state.player(seat).k(domain))
