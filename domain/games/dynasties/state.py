"""State of Dynasties & Kingdoms (rules version dk-1): dynasties-kingdoms.md section 2.

Frozen msgspec Structs and tuples. Provinces are kept in map order (`State.provs[i]` is the
province of index i of the game's map, see `maps.get_map`). Seats are the players, in seating
order. The counters `n_turn_order`, `n_dice` and `n_deck` are the operation counters of the
three random streams (records 4): `turn-order`, `dice` and `deck`.

The draw pile is an ordered tuple (top first) in digital mode, and a tuple in canonical order
(a set whose order is unknown) in physical mode (section 2, "Draw pile representation").
Discards of the draw round go to the discard pile within the same action, so `Side` has no
set-aside list.
"""

from __future__ import annotations

import msgspec

from domain.games.dynasties.cards import HandValue
from domain.games.dynasties.maps import MapData, get_map
from domain.games.dynasties.options import Opts

# Seat ids for as many players as a map may take (the store allows 16): the default map takes
# 2-7 (8.3), a custom map up to its homeland capacity (1.2, 8.2).
SEATS = tuple(f"p{i}" for i in range(1, 17))
SPEC = "dynasties"


class Prov(msgspec.Struct, frozen=True):
    armies: int = 0
    owner: str | None = None
    rebels: int = 0
    city: bool = False
    blocked_by: str | None = None
    moved: int = 0
    sent_out: int = 0
    start_armies: int = 0


class Player(msgspec.Struct, frozen=True):
    id: str
    vt: int = 0
    homeland: str | None = None
    eliminated: bool = False


class Source(msgspec.Struct, frozen=True):
    province: str
    count: int


class Side(msgspec.Struct, frozen=True):
    kind: str  # "player" | "rebels"
    player: str | None
    strength: int
    hand_size: int
    cards: tuple[str, ...] = ()
    face_up: str | None = None
    sources: tuple[Source, ...] = ()


class BattleResult(msgspec.Struct, frozen=True):
    winner: str
    tie: bool
    attacker_hand: HandValue
    defender_hand: HandValue


class Battle(msgspec.Struct, frozen=True):
    context: str  # "expansion" | "uprising"
    province: str
    attacker: Side
    defender: Side
    step: str
    result: BattleResult | None = None


class State(msgspec.Struct, frozen=True):
    mode: str
    opts: Opts
    seats: tuple[str, ...]
    provs: tuple[Prov, ...]
    players: tuple[Player, ...]
    status: str = "setup_turn_order"
    groups: tuple[tuple[str, ...], ...] = ()
    rolls: tuple[tuple[str, int], ...] = ()
    turn_order: tuple[str, ...] = ()
    next_picker: str | None = None
    round: int = 0
    turns: int = 0  # turns started, every player's counted (a skipped one is not)
    active: str | None = None
    phase: str | None = None
    to_roll: tuple[str, ...] = ()
    rolled: tuple[str, ...] = ()
    city_roll: str | None = None
    battle: Battle | None = None
    attacked: tuple[str, ...] = ()
    draw: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()
    end_reason: str = ""
    n_turn_order: int = 0
    n_dice: int = 0
    n_deck: int = 0

    @property
    def map(self) -> MapData:
        return get_map(self.opts.map)

    @property
    def current_battle(self) -> Battle:
        """The battle under way, where the step at hand needs one."""
        assert self.battle is not None
        return self.battle

    @property
    def turn_player(self) -> str:
        """The active player, where the step at hand is someone's turn."""
        assert self.active is not None
        return self.active

    def prov(self, pid: str) -> Prov:
        return self.provs[self.map.index[pid]]

    def player(self, pid: str) -> Player:
        return self.players[self.seats.index(pid)]

    def controlled(self, player: str) -> tuple[str, ...]:
        ids = self.map.ids
        return tuple(ids[i] for i, p in enumerate(self.provs) if p.owner == player)


def hand_size(strength: int) -> int:
    return min(1 + strength, 7)
