"""Facts of `any` (rules.md sections 3 to 6): every state change is one of these, so `evolve`
rebuilds the whole state from facts alone.

Random facts record the stream and counter of `hmac-sha256-v1` (records 4) in a digital game,
or `observed` in a physical one: dice roll on stream `dice`, a deck shuffles on stream
`deck:<name>`. Facts that hide something from some viewers carry `redacted`, set on the copy a
viewer who may not see it gets (view.py): the order of a shuffled deck, the cards of a secret
draw, the card of a pass.
"""

from __future__ import annotations

import msgspec


class _Fact(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True, omit_defaults=True):
    pass


class DiceRolled(_Fact, frozen=True, tag="dice_rolled"):
    """`dice` as rolled (`2d6` or a dice set's name); `values` each die's face, 1..`faces`;
    `shown` the faces' names for named faces."""

    dice: str
    faces: int
    values: tuple[int, ...]
    shown: tuple[str, ...] = ()
    seat: str | None = None
    stream: str | None = None
    n: int | None = None
    observed: bool = False


class DeckShuffled(_Fact, frozen=True, tag="deck_shuffled"):
    """The deck's draw pile after a shuffle, its discard pile gathered into it first: `order`
    top first (digital), empty when the order is unknown (physical) or hidden (redacted)."""

    deck: str
    count: int
    order: tuple[str, ...] = ()
    gathered: int = 0
    stream: str | None = None
    n: int | None = None
    observed: bool = False
    redacted: bool = False


class CardsDrawn(_Fact, frozen=True, tag="cards_drawn"):
    """`count` cards from the top of `deck` to a seat or the table: `cards` as drawn, empty when
    unknown to the record (`unknown`) or hidden from the viewer (`redacted`)."""

    deck: str
    to: str
    count: int
    cards: tuple[str, ...] = ()
    unknown: bool = False
    redacted: bool = False


class CardRevealed(_Fact, frozen=True, tag="card_revealed"):
    """A card of a seat's hand shown to all and laid face up on the table."""

    seat: str
    card: str
    deck: str


class CardDiscarded(_Fact, frozen=True, tag="card_discarded"):
    """A card of a hand or of the table (`source` "table") onto its deck's discard pile."""

    source: str
    card: str
    deck: str


class CardPassed(_Fact, frozen=True, tag="card_passed"):
    """A card from one seat's hand to another's: `card` and `deck` empty when redacted."""

    seat: str
    to: str
    card: str = ""
    deck: str = ""
    redacted: bool = False


class Scored(_Fact, frozen=True, tag="scored"):
    """`delta` on a track, which now stands at `total`: a seat's, or the table's (no seat)."""

    track: str
    delta: int
    total: int
    seat: str | None = None


class Noted(_Fact, frozen=True, tag="noted"):
    text: str
    seat: str | None = None


class TurnEnded(_Fact, frozen=True, tag="turn_ended"):
    """`seat`'s turn ended; turn `turn` begins."""

    seat: str
    turn: int


class RoundEnded(_Fact, frozen=True, tag="round_ended"):
    """A round ended; round `round` begins."""

    round: int


class GameEnded(_Fact, frozen=True, tag="game_ended"):
    """The result: scores, ranks (1 best, ties equal) and winners per seat; `won` for a
    cooperative game; `entered` when the table entered the result rather than the ending rule
    deciding it from the tracks."""

    scores: dict[str, int]
    ranks: dict[str, int]
    winners: tuple[str, ...]
    reason: str
    won: bool | None = None
    entered: bool = False


Fact = (
    DiceRolled
    | DeckShuffled
    | CardsDrawn
    | CardRevealed
    | CardDiscarded
    | CardPassed
    | Scored
    | Noted
    | TurnEnded
    | RoundEnded
    | GameEnded
)
RANDOM = (DiceRolled, DeckShuffled, CardsDrawn)
