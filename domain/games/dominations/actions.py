"""Actions of Dominations + Provinces (dominations-provinces.md section 4.2, the S7 / S13a
recorder entries of section 6 and the physical-mode draw entry of 5.4): a msgspec tagged union
on `kind`, named as in the spec.

`buy_conquest_card` takes `domain`; the optional `payment` map exists so that a table can write
down what a player tried to pay, and a payment naming two domains is refused (4.2.2).
`record_draw` is the recorder's entry of one observed card (physical mode, 5.4); draws are
entered one card at a time in the order they were drawn.
"""

from __future__ import annotations

import msgspec

from domain.games.dominations.data import Face


class _Action(msgspec.Struct, frozen=True, tag_field="kind", forbid_unknown_fields=True):
    pass


class CityActivation(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cell: str
    owner: str
    produced: dict[str, int] = {}


class ExtraProduction(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    produced: dict[str, int] = {}


class ScoreEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    player: str
    source: str
    knowledge: dict[str, int] = {}
    influence: int = 0
    vp: int = 0


class PlaceTile(_Action, frozen=True, tag="place_tile"):
    source: str
    tile: str
    cell: str
    rotation: int
    produced: dict[str, int] | None = None
    produced_extra: tuple[ExtraProduction, ...] = ()
    city_activations: tuple[CityActivation, ...] = ()
    face: Face | None = None


class BuyConquestCard(_Action, frozen=True, tag="buy_conquest_card"):
    domain: str | None = None
    payment: dict[str, int] | None = None


class AttemptConquest(_Action, frozen=True, tag="attempt_conquest"):
    """`drawn`: physical mode only, the recorder's entry of the rebellion cards the attempt
    draws, in order (5.4). The attempt and its cards are then one action: a card that cannot
    have been drawn refuses the attempt. Without it the cards follow as `record_draw`s."""

    province: str
    use_spy: bool = False
    use_siege: bool = False
    spy_peek: tuple[str, ...] | None = None
    drawn: tuple[str, ...] | None = None


class UseSiegeEngines(_Action, frozen=True, tag="use_siege_engines"):
    pass


class SpendInfluence(_Action, frozen=True, tag="spend_influence"):
    amount: int


class ResolveConquest(_Action, frozen=True, tag="resolve_conquest"):
    discard: tuple[str, ...]
    reward_domain: str | None = None


class AbandonConquest(_Action, frozen=True, tag="abandon_conquest"):
    pass


class ConquerWithKnowledge(_Action, frozen=True, tag="conquer_with_knowledge"):
    province: str
    payment: dict[str, int]
    reward_domain: str | None = None


class CorsairesExchange(_Action, frozen=True, tag="corsaires_exchange"):
    """`from` / `to` only with `corsaires_exchange = any_knowledge_swap` (4.2.10)."""

    from_: str | None = msgspec.field(default=None, name="from")
    to: str | None = None


class SpyPeek(_Action, frozen=True, tag="spy_peek"):
    """Only with `spy_peek_allows_abort` (4.2.3)."""


class ContributeMonument(_Action, frozen=True, tag="contribute_monument"):
    monument_id: str
    level_card_id: str
    cost: dict[str, int] = {}
    vp: int = 0


class BuildCity(_Action, frozen=True, tag="build_city"):
    cell: str
    new_level: int
    cost: dict[str, int] = {}


class AcquireMastery(_Action, frozen=True, tag="acquire_mastery"):
    card: str
    pos: tuple[int, int]
    cost: dict[str, int] = {}


class BaseEffect(_Action, frozen=True, tag="base_effect"):
    player: str
    source_kind: str
    source: str
    knowledge: dict[str, int] = {}
    influence: int = 0
    vp: int = 0
    clamp: bool = False
    cap_changes: dict[str, int] = {}


class EndTurn(_Action, frozen=True, tag="end_turn"):
    pass


class AgeEndBaseScoring(_Action, frozen=True, tag="age_end_base_scoring"):
    """S7. With the Hegemon module, `hegemon_token_active` declares whether the token was among
    the Age's active Hegemon objectives, and `hegemon_token_vp` its VP when not configured."""

    entries: tuple[ScoreEntry, ...] = ()
    dominance_vp: dict[str, int] = {}
    hegemon_token_active: bool = False
    hegemon_token_vp: int | None = None


class FinalScoring(_Action, frozen=True, tag="final_scoring"):
    entries: tuple[ScoreEntry, ...] = ()


class RecordDraw(_Action, frozen=True, tag="record_draw"):
    card: str


Action = (
    PlaceTile
    | BuyConquestCard
    | AttemptConquest
    | UseSiegeEngines
    | SpendInfluence
    | ResolveConquest
    | AbandonConquest
    | ConquerWithKnowledge
    | CorsairesExchange
    | SpyPeek
    | ContributeMonument
    | BuildCity
    | AcquireMastery
    | BaseEffect
    | EndTurn
    | AgeEndBaseScoring
    | FinalScoring
    | RecordDraw
)

TURN_ACTIONS = (
    PlaceTile,
    BuyConquestCard,
    AttemptConquest,
    UseSiegeEngines,
    SpendInfluence,
    ResolveConquest,
    AbandonConquest,
    ConquerWithKnowledge,
    CorsairesExchange,
    SpyPeek,
    ContributeMonument,
    BuildCity,
    AcquireMastery,
    EndTurn,
)
