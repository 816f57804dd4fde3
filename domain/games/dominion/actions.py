"""Recordable actions of Dominion (1st-edition base game and Empires): dominion.md 4.2 and 4.4.

Turn actions of the current player (`play_card`, `play_treasure`, `play_treasures`, `buy_card`,
`buy_event`, `pay_debt`, `end_phase`), answers to open decisions (`select_cards`, `choose`,
`select_pile`, `react`, `bid`, and `pay_debt` for Capital's repayment in Clean-up), and
the recorder's inputs of a physical game (`observe_cards`, 6.4; `choose_kingdom` and
`choose_first_player`, 6.4 "random setup choices are recorded as observed values").
Card and pile names are plain strings so that `decide` answers an unknown name with a rule.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.games.dominion.state import UNSEEN


class _Action(msgspec.Struct, frozen=True, tag_field="kind", forbid_unknown_fields=True):
    pass


class PlayCard(_Action, frozen=True, tag="play_card"):
    card: str


class PlayTreasure(_Action, frozen=True, tag="play_treasure"):
    card: str


class PlayTreasures(_Action, frozen=True, tag="play_treasures"):
    cards: tuple[str, ...]


class BuyCard(_Action, frozen=True, tag="buy_card"):
    pile: str


class BuyEvent(_Action, frozen=True, tag="buy_event"):
    event: str


class PayDebt(_Action, frozen=True, tag="pay_debt"):
    amount: int


class EndPhase(_Action, frozen=True, tag="end_phase"):
    pass


class SelectCards(_Action, frozen=True, tag="select_cards"):
    """`cards` may hold `?` (JSON null) for a card the recorder did not see, where the
    selection stays hidden (a discard from the hand, 6.4-6.5)."""

    verb: str
    cards: tuple[str | None, ...] = ()


class Choose(_Action, frozen=True, tag="choose"):
    option: str


class SelectPile(_Action, frozen=True, tag="select_pile"):
    pile: str | None = None


class React(_Action, frozen=True, tag="react"):
    card: str | None = None


class Bid(_Action, frozen=True, tag="bid"):
    """Mountain Pass: a bid in debt, or None to pass."""

    amount: int | None = None


class ObserveCards(_Action, frozen=True, tag="observe_cards"):
    """The cards the table saw, in order; `?` (JSON null) for a card it did not see (6.4)."""

    cards: tuple[str | None, ...]


class ChooseKingdom(_Action, frozen=True, tag="choose_kingdom", omit_defaults=True):
    """The table's kingdom piles, with its Events and Landmarks, and Obelisk's pile when the
    table drew one."""

    piles: tuple[str, ...]
    landscapes: tuple[str, ...] = ()
    obelisk: str | None = None


class ChooseFirstPlayer(_Action, frozen=True, tag="choose_first_player"):
    seat: str


class AnnounceShuffle(_Action, frozen=True, tag="announce_shuffle"):
    """The table says a seat shuffled its deck now: checked against the engine's shuffle."""

    seat: str


Action = (
    PlayCard
    | PlayTreasure
    | PlayTreasures
    | BuyCard
    | BuyEvent
    | PayDebt
    | EndPhase
    | SelectCards
    | Choose
    | SelectPile
    | React
    | Bid
    | ObserveCards
    | ChooseKingdom
    | ChooseFirstPlayer
    | AnnounceShuffle
)

TURN_ACTIONS = (PlayCard, PlayTreasure, PlayTreasures, BuyCard, BuyEvent, PayDebt, EndPhase)
ANSWER_KIND = {
    SelectCards: "select",
    Choose: "choose",
    SelectPile: "pile",
    React: "react",
    Bid: "bid",
    PayDebt: "debt",
    ObserveCards: "observe",
    ChooseKingdom: "kingdom",
    ChooseFirstPlayer: "first_player",
}
KIND_TAG = {
    "select": "select_cards",
    "choose": "choose",
    "pile": "select_pile",
    "react": "react",
    "bid": "bid",
    "debt": "pay_debt",
    "observe": "observe_cards",
    "kingdom": "choose_kingdom",
    "first_player": "choose_first_player",
}


# The actions that may name a card not seen; action types have no subclasses, so a set of
# types is tested with one lookup, not `isinstance` against each.
WITH_UNSEEN: frozenset[type[Any]] = frozenset({SelectCards, ObserveCards})


def normalized(action: Action) -> Action:
    """The action with every unseen card as `?` (JSON sends null)."""
    if type(action) not in WITH_UNSEEN:
        return action
    cards: tuple[str | None, ...] = action.cards  # type: ignore[union-attr]
    if None in cards:
        return replace(action, cards=tuple(UNSEEN if c is None else c for c in cards))
    return action


def card_names(cards: tuple[str | None, ...]) -> tuple[str, ...]:
    return tuple(UNSEEN if c is None else c for c in cards)
