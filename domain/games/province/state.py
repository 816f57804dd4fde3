"""Game state of Province (Kickstarter 2014): province.md sections 2.2-2.4.

Frozen msgspec Structs and tuples only. Seats are always ("A", "B"); per-seat values are pairs
indexed by `seat_index`. The static rules (data file plus resolved variants, 2.1) ride along in
`State.rules` so every pure function needs only the state.
"""

from __future__ import annotations

import msgspec

from domain.games.province.data import Building, Goal, RulesData
from domain.games.province.options import Variants

SEATS = ("A", "B")
SUPPLY = "supply"
PIECES = ("green", "camp", "village", "sailor")
WORKER_EFFECT_PREFIX = "worker:"
FACES = ("white", "black")


def seat_index(seat: str) -> int:
    return 0 if seat == "A" else 1


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


class Rules(msgspec.Struct, frozen=True):
    """The rules data snapshot, the resolved variants and lookups derived from them."""

    data: RulesData
    variants: Variants
    goals: tuple[Goal, ...]
    by_id: dict[str, Building]
    space_ids: tuple[str, ...]
    space_index: dict[str, int]
    next_index: tuple[int, ...]
    coin_space: tuple[bool, ...]
    placement: int
    holders: dict[str, tuple[str, ...]]
    goal_by_id: dict[str, Goal]

    def holders_of(self, effect: str) -> tuple[str, ...]:
        return self.holders.get(effect, ())


def make_rules(data: RulesData, variants: Variants) -> Rules:
    space_ids = tuple(s.id for s in data.spaces)
    index = {sid: i for i, sid in enumerate(space_ids)}
    holders: dict[str, tuple[str, ...]] = {}
    for b in data.buildings:
        holders[b.effect] = (*holders.get(b.effect, ()), b.id)
    goals = data.pool(variants.goal_pool)
    return Rules(
        data=data,
        variants=variants,
        goals=goals,
        by_id={b.id: b for b in data.buildings},
        space_ids=space_ids,
        space_index=index,
        next_index=tuple(index[s.next] for s in data.spaces),
        coin_space=tuple(s.resource == "coin" for s in data.spaces),
        placement=index[data.placement_space],
        holders=holders,
        goal_by_id={g.id: g for g in goals},
    )


class Space(msgspec.Struct, frozen=True):
    """Pieces on one work-cycle space (also used for the unmoved pieces of the turn)."""

    green: int = 0
    camp: bool = False
    village: bool = False
    sailors: tuple[int, int] = (0, 0)

    def count(self, piece: str, seat: int) -> int:
        if piece == "green":
            return self.green
        if piece == "camp":
            return int(self.camp)
        if piece == "village":
            return int(self.village)
        return self.sailors[seat]

    def add(self, piece: str, seat: int, delta: int) -> Space:
        if piece == "green":
            return msgspec.structs.replace(self, green=self.green + delta)
        if piece == "camp":
            return msgspec.structs.replace(self, camp=delta > 0)
        if piece == "village":
            return msgspec.structs.replace(self, village=delta > 0)
        sailors = list(self.sailors)
        sailors[seat] += delta
        return msgspec.structs.replace(self, sailors=(sailors[0], sailors[1]))


class Player(msgspec.Struct, frozen=True):
    coins: int = 0
    labor: int = 0
    built: tuple[str, ...] = ()
    first: tuple[str, ...] = ()
    goals: tuple[str, ...] = ()
    sailors: int = 0


class Ships(msgspec.Struct, frozen=True):
    faces: tuple[str, ...]
    result: str


class Goals(msgspec.Struct, frozen=True):
    """`hidden` is the face-down stack in digital mode (top first); physical games know only
    `hidden_count`. `seen` lists every goal turned face up so far (for `goal_already_seen`)."""

    revealed: str | None = None
    hidden: tuple[str, ...] = ()
    hidden_count: int = 0
    removed: tuple[str, ...] = ()
    seen: tuple[str, ...] = ()


class TurnState(msgspec.Struct, frozen=True):
    """Reset at every turn start (3.1). `toss_due` is the spec's `harbor_first_built`."""

    moves: int = 0
    unmoved: tuple[Space, ...] = ()
    labor_gained: int = 0
    builds: int = 0
    hired_sailor: bool = False
    union_uses: int = 0
    lender_used: tuple[str, ...] = ()
    nongreen_moved: int = 0
    toss_due: bool = False
    toss_reason: str | None = None


class Score(msgspec.Struct, frozen=True):
    building_vp: int
    goal_vp: int
    coin_vp: int
    lender_vp: int
    total: int
    buildings: int


class End(msgspec.Struct, frozen=True):
    reasons: tuple[str, ...]
    scores: dict[str, Score]
    winner: str | None
    tie_break: bool


class Draws(msgspec.Struct, frozen=True):
    """The next counter `n` of each hmac-sha256-v1 stream (design.md 4, spec 7.5)."""

    first_player: int = 0
    goals: int = 0
    ships: int = 0


class State(msgspec.Struct, frozen=True):
    rules: Rules
    mode: str
    status: str = "setup"
    awaiting: str | None = None
    final_turn: bool = False
    first_player: str | None = None
    turn: int = 0
    active: str | None = None
    phase: str | None = None
    players: tuple[Player, Player] = (Player(), Player())
    board: tuple[Space, ...] = ()
    lender_coin: str = SUPPLY
    ships: Ships | None = None
    harbor_master: str | None = None
    goals: Goals = Goals()
    turn_state: TurnState = TurnState()
    draws: Draws = Draws()
    end: End | None = None

    @property
    def turn_seat(self) -> str:
        """The active seat, while a turn is under way (there is always one then)."""
        assert self.active is not None
        return self.active

    def player(self, seat: str) -> Player:
        return self.players[seat_index(seat)]

    def supply(self) -> int:
        return self.rules.variants.coin_supply_total - self.players[0].coins - self.players[1].coins

    def owns(self, seat: str, building: str) -> bool:
        return building in self.players[seat_index(seat)].built

    def owns_effect(self, seat: str, effect: str) -> bool:
        built = self.players[0 if seat == "A" else 1].built
        return any(building in built for building in self.rules.holders.get(effect, ()))

    def uses_effect(self, seat: str, effect: str) -> bool:
        """`uses(p, b)` of 2.3 for the building(s) with this effect: owned, or borrowed this turn."""
        if self.owns_effect(seat, effect):
            return True
        borrowed = self.turn_state.lender_used
        if seat != self.active or not borrowed:
            return False
        return any(b in borrowed for b in self.rules.holders.get(effect, ()))

    def built_by_anyone(self, building: str) -> bool:
        return building in self.players[0].built or building in self.players[1].built

    def access(self, seat: str) -> int:
        """Non-green pieces a seat may move by its own buildings and sailors (goal workers2)."""
        player = self.players[seat_index(seat)]
        workers = sum(1 for b in player.built if self.rules.by_id[b].effect.startswith(WORKER_EFFECT_PREFIX))
        return workers + player.sailors

    def sailors_available(self, seat: str) -> int:
        tokens = self.rules.data.sailor_tokens
        if self.rules.variants.sailor_pool == "per_player_3":
            return tokens - self.player(seat).sailors
        return tokens - self.players[0].sailors - self.players[1].sailors


def piece_effect(piece: str) -> str:
    """The effect key that lets a player move a Camp or Village piece."""
    return WORKER_EFFECT_PREFIX + piece


def with_player(state: State, seat: str, player: Player) -> tuple[Player, Player]:
    return (player, state.players[1]) if seat_index(seat) == 0 else (state.players[0], player)
