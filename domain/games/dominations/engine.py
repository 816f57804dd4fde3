"""Shared machinery of Dominations + Provinces' `decide` (dominations-provinces.md): the fact
collector, the rejection helper, drawing from a deck (5.2, 5.3) and small checks every action
uses."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping
from typing import Any

from domain.decision import Decision
from domain.games.dominations import events as ev
from domain.games.dominations.data import (
    DOMAINS,
)
from domain.games.dominations.fold import evolve
from domain.games.dominations.state import (
    ATTACK,
    BUILD,
    DEVELOP,
    GROW_AFTER_FAIL,
    PLACE_PROVINCE,
    START,
    Deck,
    Player,
    State,
)
from domain.rng import Rng
from domain.ruleset import Command, Rejection

SPEC = "dominations"

OWN_TURN = (START, ATTACK, PLACE_PROVINCE, GROW_AFTER_FAIL, BUILD, DEVELOP)

AGE_DECKS = ("province-I", "province-II", "province-III")


def rej(code: str, message: str, section: str) -> Rejection:
    return Rejection(code, message, f"{SPEC} {section}")


class Ctx(Decision[State, Any]):
    """Facts emitted so far and the state they lead to."""

    __slots__ = ()

    def __init__(self, state: State, rng: Rng) -> None:
        super().__init__(state, rng, evolve)


def digest(order: tuple[str, ...]) -> str:
    """5.2 step 7: lowercase hex SHA-256 of the ids joined by commas, top first."""
    return hashlib.sha256(",".join(order).encode()).hexdigest()


def draw_cards(deck: Deck, name: str, k: int, rng: Rng) -> tuple[tuple[str, ...], tuple[ev.Reshuffled, ...]]:
    """5.3 in digital mode: k cards one at a time, reshuffling the discard pile (canonical id
    order, counter n = reshuffles + 1) when the draw pile is empty; short if both are empty."""
    draw = list(deck.draw)
    discard = sorted(deck.discard)
    n = deck.reshuffles
    out: list[str] = []
    reshuffles: list[ev.Reshuffled] = []
    for index in range(k):
        if not draw:
            if not discard:
                break
            n += 1
            order = tuple(rng.shuffle(name, n, tuple(discard)))
            reshuffles.append(ev.Reshuffled(name, n, index, order, len(order), digest(order)))
            draw, discard = list(order), []
        out.append(draw.pop(0))
    return tuple(out), tuple(reshuffles)


def available_cards(deck: Deck) -> int:
    return len(deck.draw) + len(deck.discard)


def acting_seat(state: State, command: Command) -> str | None:
    if command.by == "seat":
        return command.seat
    return command.seat if command.seat is not None else state.active


def bad_map(m: Mapping[str, int] | None) -> bool:
    return m is not None and any(d not in DOMAINS or not isinstance(v, int) or v < 0 for d, v in m.items())


def can_pay(p: Player, cost: Mapping[str, int]) -> bool:
    return all(p.k(d) >= v for d, v in cost.items())


def bad_knowledge(m: Mapping[str, int]) -> bool:
    return any(d not in DOMAINS for d in m)


def clean(m: Mapping[str, int]) -> dict[str, int]:
    return {d: m[d] for d in DOMAINS if m.get(d)}


def contains(big: tuple[str, ...], small: tuple[str, ...]) -> bool:
    need = Counter(small)
    have = Counter(big)
    return all(have[c] >= n for c, n in need.items())


def clean_signed(m: Mapping[str, int]) -> dict[str, int]:
    return {d: m[d] for d in DOMAINS if m.get(d)}
