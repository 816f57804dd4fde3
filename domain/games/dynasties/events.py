"""Facts of Dynasties & Kingdoms (rules version dk-1): the engine-derived events of
dynasties-kingdoms.md 5.6 and the random facts of 5.4.

Every state change is one of these, so `evolve` rebuilds the state from facts alone. Every
random fact records its stream and counter `n` (records 4) in digital mode, or
`observed: true` in physical mode, with every face rolled (`value`, `first`/`second`), so a
dice-fairness check can read the faces per stream. Hidden cards in redacted copies read "??".
"""

from __future__ import annotations

import msgspec

from domain.games.dynasties.cards import HandValue
from domain.games.dynasties.state import Source

HIDDEN = "??"


class _Fact(msgspec.Struct, frozen=True, tag_field="type", tag=True, forbid_unknown_fields=True):
    pass


class GameVoided(_Fact, frozen=True):
    """The game's configuration failed a check of 1.2 / 8.2 (e.g. MAP_INVALID M7)."""

    code: str
    message: str


class MapWarned(_Fact, frozen=True):
    """The map was accepted with warnings W1-W3 (8.2)."""

    warnings: tuple[str, ...]


class TurnOrderRolled(_Fact, frozen=True):
    player: str
    value: int
    stream: str | None = None
    n: int | None = None
    observed: bool = False


class RollOffRegrouped(_Fact, frozen=True):
    groups: tuple[tuple[str, ...], ...]


class TurnOrderDecided(_Fact, frozen=True):
    order: tuple[str, ...]
    next_picker: str


class HomelandPicked(_Fact, frozen=True):
    player: str
    province: str
    next_picker: str | None


class DeckShuffled(_Fact, frozen=True):
    order: tuple[str, ...]
    count: int = 52
    stream: str | None = None
    n: int | None = None
    observed: bool = False


class BlocksLifted(_Fact, frozen=True):
    player: str
    provinces: tuple[str, ...]


class TurnSkipped(_Fact, frozen=True):
    player: str


class TurnStarted(_Fact, frozen=True):
    player: str
    round: int
    to_roll: tuple[str, ...]


class PhaseStarted(_Fact, frozen=True):
    player: str
    phase: str
    to_roll: tuple[str, ...] = ()


class CityRolled(_Fact, frozen=True):
    player: str
    province: str
    value: int
    build: bool = False
    stream: str | None = None
    n: int | None = None
    observed: bool = False


class ProvinceRolled(_Fact, frozen=True):
    player: str
    province: str
    first: int
    second: int
    name: str
    effect: str
    stream: str | None = None
    n: int | None = None
    observed: bool = False


class VtGained(_Fact, frozen=True):
    player: str
    amount: int
    source: str


class ArmiesPlaced(_Fact, frozen=True):
    player: str
    province: str
    count: int
    lost: int = 0


class ArmiesDied(_Fact, frozen=True):
    province: str
    count: int


class ProvinceBlocked(_Fact, frozen=True):
    province: str
    player: str


class CityBuilt(_Fact, frozen=True):
    province: str


class CityRemoved(_Fact, frozen=True):
    province: str
    reason: str


class CityRollPending(_Fact, frozen=True):
    province: str


class ArmiesMoved(_Fact, frozen=True):
    player: str
    to: str
    sources: tuple[Source, ...]
    result: str  # "reinforced" | "occupied" | "attacking"


class BattleStarted(_Fact, frozen=True):
    context: str
    province: str
    attacker_kind: str
    attacker_player: str | None
    attacker_strength: int
    defender_kind: str
    defender_player: str | None
    defender_strength: int
    step: str
    sources: tuple[Source, ...] = ()


class RebelControllerChosen(_Fact, frozen=True):
    controller: str


class Reshuffle(msgspec.Struct, frozen=True):
    """A reshuffle of the discards beneath the draw pile (`kind` "discards", 4.3) or a fresh
    52-card deck (`kind` "fresh", D22). `order` is empty in physical mode and when redacted."""

    kind: str
    count: int
    order: tuple[str, ...] = ()
    stream: str | None = None
    n: int | None = None
    observed: bool = False


class BattleDealt(_Fact, frozen=True):
    attacker_cards: tuple[str, ...]
    defender_cards: tuple[str, ...]
    attacker_player: str | None
    defender_player: str | None
    reshuffle: Reshuffle | None = None
    observed: bool = False


class CardsReplaced(_Fact, frozen=True):
    side: str
    player: str | None
    discard: tuple[str, ...]
    draw: tuple[str, ...]
    reshuffle: Reshuffle | None = None
    observed: bool = False


class BattleResolved(_Fact, frozen=True):
    winner: str  # "attacker" | "defender" | "tie" (redeal)
    tie: bool
    attacker_cards: tuple[str, ...]
    defender_cards: tuple[str, ...]
    attacker_hand: HandValue
    defender_hand: HandValue
    next_step: str  # "city_destruction" | "over" | "deal"


class CityDestructionRolled(_Fact, frozen=True):
    province: str
    value: int
    destroyed: bool
    stream: str | None = None
    n: int | None = None
    observed: bool = False


class ArmiesTrimmed(_Fact, frozen=True):
    player: str
    trimmed: tuple[Source, ...]


class PlayerEliminated(_Fact, frozen=True):
    player: str


class GameEnded(_Fact, frozen=True):
    winners: tuple[str, ...]
    reason: str


Fact = (
    GameVoided
    | MapWarned
    | TurnOrderRolled
    | RollOffRegrouped
    | TurnOrderDecided
    | HomelandPicked
    | DeckShuffled
    | BlocksLifted
    | TurnSkipped
    | TurnStarted
    | PhaseStarted
    | CityRolled
    | ProvinceRolled
    | VtGained
    | ArmiesPlaced
    | ArmiesDied
    | ProvinceBlocked
    | CityBuilt
    | CityRemoved
    | CityRollPending
    | ArmiesMoved
    | BattleStarted
    | RebelControllerChosen
    | BattleDealt
    | CardsReplaced
    | BattleResolved
    | CityDestructionRolled
    | ArmiesTrimmed
    | PlayerEliminated
    | GameEnded
)

RANDOM_FACTS = (
    TurnOrderRolled,
    DeckShuffled,
    CityRolled,
    ProvinceRolled,
    BattleDealt,
    CardsReplaced,
    CityDestructionRolled,
)
