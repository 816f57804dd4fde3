"""Facts of Dominations + Provinces (dominations-provinces.md sections 4-6): a msgspec tagged
union on `type`, past-tense names. Every state change is one of these, so `evolve` rebuilds the
game from facts alone; derived values (R, rewards, losses, Loci) are computed by `decide` and
recorded in the facts.

Random facts (`DeckShuffled`, the draws inside `ConquestCardBought`, `ConquestAttempted`,
`ProvincesRevealed`, `LandDealt`, and each `Reshuffled` inside them) record their stream (the
deck name) and counter `n` (records 4). In physical mode the engine records
`DrawsRequested` and the recorder's `CardRecorded` entries instead (5.4).
Hidden parts (pile orders, a hand card's identity, the Spy peek) are blanked by `view.redact`,
which sets `redacted`.
"""

from __future__ import annotations

import msgspec

from domain.games.dominations.actions import CityActivation, ScoreEntry
from domain.games.dominations.data import Face
from domain.games.dominations.state import DrawRequest


class _Fact(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    pass


class Reshuffled(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A discard pile shuffled into a new draw pile before draw number `before_index`."""

    deck: str
    n: int
    before_index: int
    order: tuple[str, ...]
    count: int
    order_digest: str = ""
    redacted: bool = False


class Loss(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seat: str
    vp: int = 0
    influence: int = 0
    knowledge: dict[str, int] = {}


class ProvinceEffect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    province_id: str
    kind: str
    losses: tuple[Loss, ...]


class GameSetUp(_Fact, frozen=True, tag="game_set_up"):
    catalog_version: str
    initial_board: tuple[tuple[str, str, int], ...]


class DeckShuffled(_Fact, frozen=True, tag="deck_shuffled"):
    """`order_digest` = SHA-256 of the ids joined by commas, top first (5.2 step 7); public."""

    deck: str
    n: int
    order: tuple[str, ...]
    count: int
    order_digest: str = ""
    observed: bool = False
    redacted: bool = False


class DrawsRequested(_Fact, frozen=True, tag="draws_requested"):
    requests: tuple[DrawRequest, ...]
    after: str | None = None


class CardRecorded(_Fact, frozen=True, tag="card_recorded"):
    deck: str
    target: str
    card: str
    reshuffled: bool = False
    redacted: bool = False


class ProvincesRevealed(_Fact, frozen=True, tag="provinces_revealed"):
    age: int
    provinces: tuple[str, ...]


class LandDealt(_Fact, frozen=True, tag="land_dealt"):
    seat: str
    tiles: tuple[str, ...]
    count: int
    redacted: bool = False


class LandHandsBoxed(_Fact, frozen=True, tag="land_hands_boxed"):
    pass


class AgeBegan(_Fact, frozen=True, tag="age_began"):
    age: int
    first_player: str


class TilePlaced(_Fact, frozen=True, tag="tile_placed"):
    seat: str
    source: str
    tile: str
    cell: str
    rotation: int
    face: Face | None
    produced: dict[str, int]
    production_verified: bool
    extra: dict[str, int]
    city_activations: tuple[CityActivation, ...]
    loci_completed: tuple[tuple[int, int], ...]
    missionaires_gain: int
    permanent_ended: bool = False


class ConquestCardBought(_Fact, frozen=True, tag="conquest_card_bought"):
    seat: str
    domain: str
    card: str | None
    must_use: bool
    reshuffles: tuple[Reshuffled, ...] = ()
    redacted: bool = False


class ConquestAttempted(_Fact, frozen=True, tag="conquest_attempted"):
    seat: str
    province_id: str
    use_spy: bool
    spy_peek: tuple[str, ...] | None
    kept_taken: tuple[str, ...]
    drawn: tuple[str, ...]
    reshuffles: tuple[Reshuffled, ...]
    rebellion_value: int
    conscription_bonus: int
    discarded_kept: tuple[str, ...] = ()
    redacted: bool = False


class SiegeEnginesUsed(_Fact, frozen=True, tag="siege_engines_used"):
    seat: str
    paid: str


class InfluenceSpent(_Fact, frozen=True, tag="influence_spent"):
    seat: str
    amount: int


class ProvinceConquered(_Fact, frozen=True, tag="province_conquered"):
    seat: str
    province_id: str
    method: str
    discard: tuple[str, ...]
    payment: dict[str, int]
    reward_domain: str | None
    vp: int
    knowledge: dict[str, int]
    influence: int
    kept_removed: tuple[str, ...] = ()
    counts_as_attack: bool = False


class ConquestAbandoned(_Fact, frozen=True, tag="conquest_abandoned"):
    seat: str
    province_id: str
    discarded: tuple[str, ...]
    influence_lost: int


class CorsairesExchanged(_Fact, frozen=True, tag="corsaires_exchanged"):
    seat: str
    from_: str = msgspec.field(default="TRA", name="from")
    to: str = "influence"


class SpyPeeked(_Fact, frozen=True, tag="spy_peeked"):
    seat: str
    cards: tuple[str, ...]
    redacted: bool = False


class MonumentContributed(_Fact, frozen=True, tag="monument_contributed"):
    seat: str
    monument_id: str
    level_card_id: str
    cost: dict[str, int]
    vp: int


class CityBuilt(_Fact, frozen=True, tag="city_built"):
    seat: str
    cell: str
    level: int
    cost: dict[str, int]


class MasteryAcquired(_Fact, frozen=True, tag="mastery_acquired"):
    seat: str
    card: str
    pos: tuple[int, int]
    cost: dict[str, int]


class BaseEffectApplied(_Fact, frozen=True, tag="base_effect_applied"):
    seat: str
    source_kind: str
    source: str
    knowledge: dict[str, int]
    influence: int
    vp: int
    clamp: bool
    cap_changes: dict[str, int] = {}


class TurnEnded(_Fact, frozen=True, tag="turn_ended"):
    seat: str
    next_seat: str | None
    round: int
    end_of_age: bool


class ProvinceAgeEffects(_Fact, frozen=True, tag="province_age_effects"):
    age: int
    effects: tuple[ProvinceEffect, ...]


class BaseScoringDeclared(_Fact, frozen=True, tag="age_end_base_scoring"):
    age: int
    entries: tuple[ScoreEntry, ...]
    dominance_vp: dict[str, int]


class DominanceAwarded(_Fact, frozen=True, tag="dominance_awarded"):
    age: int
    holders: dict[str, str | None]
    vp: dict[str, int]


class HegemonScored(_Fact, frozen=True, tag="hegemon_scoring"):
    age: int
    active: bool
    counts: dict[str, int]
    scorer: str | None
    vp: int


class KnowledgeReset(_Fact, frozen=True, tag="knowledge_reset"):
    age: int
    influence_too: bool = False


class KeptCardsReset(_Fact, frozen=True, tag="kept_cards_reset"):
    cards: tuple[str, ...]


class FinalScoringDeclared(_Fact, frozen=True, tag="final_scoring_declared"):
    entries: tuple[ScoreEntry, ...]


class GameEnded(_Fact, frozen=True, tag="game_ended"):
    scores: dict[str, int]
    winners: tuple[str, ...]


Fact = (
    GameSetUp
    | DeckShuffled
    | DrawsRequested
    | CardRecorded
    | ProvincesRevealed
    | LandDealt
    | LandHandsBoxed
    | AgeBegan
    | TilePlaced
    | ConquestCardBought
    | ConquestAttempted
    | SiegeEnginesUsed
    | InfluenceSpent
    | ProvinceConquered
    | ConquestAbandoned
    | CorsairesExchanged
    | SpyPeeked
    | MonumentContributed
    | CityBuilt
    | MasteryAcquired
    | BaseEffectApplied
    | TurnEnded
    | ProvinceAgeEffects
    | BaseScoringDeclared
    | DominanceAwarded
    | HegemonScored
    | KnowledgeReset
    | KeptCardsReset
    | FinalScoringDeclared
    | GameEnded
)
