"""Game state of Dominion (1st-edition base game): dominion.md section 2.

Frozen msgspec Structs and tuples of card names (plain strings). Players are indexed by seat
(0 = "p1"); turn order starts at `first` and goes up the seat indices (to the left).

Zones: `deck` is top first. In a digital game it is the whole deck in order. In a physical game
it is the known top segment (cards observed or put there by effects) and `unknown` holds the
rest of the deck as a sorted multiset (6.4). `discard` is bottom first, `play` in play order,
`aside` is the temporary zone of revealed / set-aside cards (Adventurer, Library, Thief).

Effects that wait for an answer keep their continuation as data: `frames` is a stack of small
`Frame`s (top last) and `prompts` the open `Decision`s, several at once when every other
player answers an Attack. Both are public (they never name a card from a hidden zone).
Empires pieces have their place already: costs are (coins, debt) pairs, players carry VP and
debt tokens, `pile_vp`/`pile_debt` sit beside `supply`, and `events`/`landmarks` beside the
kingdom.
"""

from __future__ import annotations

import msgspec

from domain.games.dominion.options import Variants

SEATS = ("p1", "p2", "p3", "p4")
RECORDER = -1


class Player(msgspec.Struct, frozen=True):
    deck: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    play: tuple[str, ...] = ()
    aside: tuple[str, ...] = ()
    vp: int = 0
    debt: int = 0
    turns: int = 0
    shuffles: int = 0  # the counter n of this player's `deck:<seat>` stream

    def owned(self) -> tuple[str, ...]:
        return self.deck + self.unknown + self.hand + self.discard + self.play + self.aside


class Frame(msgspec.Struct, frozen=True, omit_defaults=True):
    """One step of an unfinished effect: `op` names its handler (a card name, or `setup`,
    `draw`, `cleanup`), `p` the player resolving it, `step` where to go on. The other fields
    are the handler's own memory: a count, chosen cards, players immune to this Attack, and
    `gone` when this card already left play (a Throne-Roomed Feast)."""

    op: str
    p: int
    step: int = 0
    n: int = 0
    cards: tuple[str, ...] = ()
    immune: tuple[int, ...] = ()
    gone: bool = False


class Decision(msgspec.Struct, frozen=True, omit_defaults=True):
    """An open choice (4.3). `p` answers it (-1: the recorder of a physical game). `kind` is
    `select` (cards from the hand, or from `cards` when given), `choose` (one of `options`),
    `pile` (a Supply pile whose top card has one of `types` and costs at most `cost`), `react`,
    `observe` (the next cards of `target`'s deck), `kingdom` or `first_player`. `purpose` names
    the answer handler; `source` the card asking."""

    p: int
    kind: str
    purpose: str
    source: str = ""
    verb: str = ""
    lo: int = 0
    hi: int = 0
    types: tuple[str, ...] = ()
    cost: tuple[int, int] | None = None
    cards: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    target: int = -1


class Result(msgspec.Struct, frozen=True):
    scores: tuple[int, ...]
    card_vp: tuple[int, ...]
    tokens: tuple[int, ...]
    turns: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str


class State(msgspec.Struct, frozen=True):
    variants: Variants
    mode: str
    seats: tuple[str, ...]
    status: str = "setup"  # setup, playing, over
    kingdom: tuple[str, ...] = ()
    method: str = ""
    supply: dict[str, tuple[str, ...]] = {}
    pile_vp: dict[str, int] = {}
    pile_debt: dict[str, int] = {}
    events: tuple[str, ...] = ()
    landmarks: tuple[str, ...] = ()
    trash: tuple[str, ...] = ()
    players: tuple[Player, ...] = ()
    first: int = 0
    current: int = 0
    turn: int = 0
    phase: str = "setup"  # setup, action, buy, cleanup, over
    actions: int = 0
    buys: int = 0
    coins: int = 0
    window: bool = False  # the Treasure window of the current Buy phase (3.4)
    gained: tuple[str, ...] = ()  # gained_this_turn
    frames: tuple[Frame, ...] = ()
    prompts: tuple[Decision, ...] = ()
    result: Result | None = None

    @property
    def n(self) -> int:
        return len(self.seats)

    def seat(self, p: int) -> str:
        return self.seats[p] if p >= 0 else "recorder"

    def index(self, seat: str) -> int:
        return self.seats.index(seat)

    def others(self, p: int) -> tuple[int, ...]:
        """Every other player in turn order, starting with the player to p's left (0)."""
        n = len(self.seats)
        return tuple((p + k) % n for k in range(1, n))


def with_player(players: tuple[Player, ...], p: int, player: Player) -> tuple[Player, ...]:
    return (*players[:p], player, *players[p + 1 :])
