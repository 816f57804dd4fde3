"""State of Dominations + Provinces (dominations-provinces.md section 2): frozen Structs and
tuples, rebuilt by folding facts.

Card refs: in digital mode conquest and rebellion cards are ids (`C07`, `R19`); in physical
mode they are strengths written as strings (`"1"`), so one tuple type serves both modes.
Piles are tuples: top first in digital mode; sorted multisets in physical mode (2.5).
Knowledge is a 6-tuple in the order of `DOMAINS`; so are the caps (-1 = no cap, 1.6).
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.games.dominations.data import DOMAINS, Face, Tables

SEATS = ("p1", "p2", "p3", "p4")
ZERO = (0, 0, 0, 0, 0, 0)
DI = {d: i for i, d in enumerate(DOMAINS)}

START = "START"
ATTACK = "ATTACK"
PLACE_PROVINCE = "PLACE_PROVINCE"
GROW_AFTER_FAIL = "GROW_AFTER_FAIL"
BUILD = "BUILD"
DEVELOP = "DEVELOP"
END_OF_AGE = "END_OF_AGE"
FINAL_SCORING = "FINAL_SCORING"
DRAWING = "DRAWING"
GAME_OVER = "GAME_OVER"
SETUP = "SETUP"


class Owned(msgspec.Struct, frozen=True):
    card_id: str
    pos: tuple[int, int]


class Conquered(msgspec.Struct, frozen=True):
    province_id: str
    age: int
    round: int
    method: str


class Player(msgspec.Struct, frozen=True):
    seat: str
    knowledge: tuple[int, ...] = ZERO
    influence: int = 0
    vp: int = 0
    land_hand: tuple[str, ...] = ()
    conquest_hand: tuple[str, ...] = ()
    masteries: tuple[Owned, ...] = ()
    cities: tuple[str, ...] = ()
    conquered: tuple[Conquered, ...] = ()
    province_cards_held: tuple[str, ...] = ()
    cap: tuple[int, ...] = (-1, -1, -1, -1, -1, -1)

    def k(self, domain: str) -> int:
        return self.knowledge[DI[domain]]


class Placed(msgspec.Struct, frozen=True):
    tile_id: str
    rotation: int
    source: str
    placed_by: str | None
    face: Face | None = None
    city_owner: str | None = None
    city_level: int = 0


class Deck(msgspec.Struct, frozen=True):
    draw: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    reshuffles: int = 0


class Available(msgspec.Struct, frozen=True):
    province_id: str
    revealed_age: int
    kept: tuple[str, ...] = ()
    failed_attempts: int = 0
    last_failed_by: str | None = None


class Attack(msgspec.Struct, frozen=True):
    attacker: str
    province_id: str
    kept_taken: tuple[str, ...] = ()
    drawn: tuple[str, ...] = ()
    rebellion_value: int = 0
    spy_peek: tuple[str, ...] | None = None
    must_use: tuple[str, ...] = ()
    influence_spent: int = 0
    conscription_bonus: int = 0
    siege_uses: int = 0
    siege_bonus: int = 0


class TurnState(msgspec.Struct, frozen=True):
    grow_choice: str = "none"
    grow_done: bool = False
    pending_province_tile: str | None = None
    build_actions: int = 0
    mastery_actions: int = 0
    corsaires_used: int = 0


class DrawRequest(msgspec.Struct, frozen=True):
    """A physical-mode draw the recorder must enter: deck and where the card goes
    (`avail`, `land:<seat>`, `hand:<seat>`, `must:<seat>`, `attack`)."""

    deck: str
    target: str


class State(msgspec.Struct, frozen=True):
    tables: Tables
    options: dict[str, Any]
    mode: str
    seats: tuple[str, ...]
    players: tuple[Player, ...]
    step: str = SETUP
    age: int = 1
    round: int = 1
    first_player: str = "p1"
    active: str | None = None
    turn: TurnState = TurnState()
    turn_no: int = 0
    attack: Attack | None = None
    board: dict[str, Placed] = {}
    available: tuple[Available, ...] = ()
    boxed: tuple[str, ...] = ()
    rebellion_boxed: tuple[str, ...] = ()
    province_decks: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] = ((), (), ())
    land: Deck = Deck()
    conquest: Deck = Deck()
    rebellion: Deck = Deck()
    shuffles: dict[str, int] = {}
    mastery_supply: tuple[str, ...] = ()
    dominance: dict[str, str | None] = {}
    monuments: dict[str, tuple[tuple[str, str], ...]] = {}
    awaiting: tuple[DrawRequest, ...] = ()
    after_draws: str | None = None
    winners: tuple[str, ...] | None = None

    def player(self, seat: str) -> Player:
        return self.players[self.seats.index(seat)]

    def opt(self, name: str) -> Any:
        return self.options[name]

    def strength(self, card: str) -> int:
        return self.tables.strength[card]

    def avail(self, province_id: str) -> Available | None:
        return next((a for a in self.available if a.province_id == province_id), None)

    def production_model(self) -> str:
        model = str(self.options["production_model"])
        if model == "by_mode":
            return "reference" if self.mode == "digital" else "declared"
        return model

    def owns(self, seat: str, effect: str) -> int:
        """Copies of a mastery effect the seat owns that count (1.5: no stacking by default)."""
        masteries = self.tables.masteries
        n = sum(1 for m in self.player(seat).masteries if masteries[m.card_id].effect == effect)
        return n if self.options["mastery_effects_stack"] else min(n, 1)

    def spy_card(self) -> str:
        return "SPY"

    def dominance_cards(self) -> tuple[tuple[str, str], ...]:
        spy = self.options["spy_domain"]
        return tuple(("SPY" if d == spy else f"DOM-{d}", d) for d in DOMAINS)


def conquest_value(state: State) -> int:
    """2.8: C = cards in hand + Influence spent + Conscription + Engins de Siege."""
    a = state.attack
    if a is None:
        return 0
    hand = state.player(a.attacker).conquest_hand
    return sum(state.strength(c) for c in hand) + a.influence_spent + a.conscription_bonus + a.siege_bonus


def bonus(attack: Attack) -> int:
    return attack.influence_spent + attack.conscription_bonus + attack.siege_bonus
