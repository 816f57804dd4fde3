"""Game state of Dominion (1st-edition base game): dominion.md section 2.

Frozen msgspec Structs and tuples of card names (plain strings). Players are indexed by seat
(0 = "p1"); turn order starts at `first` and goes up the seat indices (to the left).

Zones: `deck` is top first. In a digital game it is the whole deck in order. In a physical game
it is the known top segment (cards observed or put there by effects) and `unknown` holds the
rest of the deck as a sorted multiset (6.4). A physical game may hold unseen cards, `?`, in
the hidden zones (deck, hand, discard pile, Archive's sets): `pool` lists the names they stand
for, in no place in particular (`unseen`). `discard` is bottom first, `play` in play order,
`aside` is the temporary zone of revealed / set-aside cards (Adventurer, Library, Thief).

Effects that wait for an answer keep their continuation as data: `frames` is a stack of small
`Frame`s (top last) and `prompts` the open `Decision`s, several at once when every other
player answers an Attack. Both are public (they never name a card from a hidden zone).
Empires: costs are (coins, debt) pairs, players carry VP and debt tokens, `pile_vp`/`pile_debt`
sit beside `supply` (keyed by pile id), `landmark_vp` holds the tokens on landmarks, and
`events`/`landmarks` sit beside the kingdom. A card that stays in play (Archive, Enchantress and
the Throne Rooms or Crowns that played it) has a `Lasting` record on its owner (2.2 `in_play`
fields `stays`, `played_by`, `archive_sets`). An Overlord acting as another card is the token
`Overlord>Village` in the play zone (its name in play is the card it became, 5.3): `acting` and
`physical` read the two halves.
"""

from __future__ import annotations

import msgspec

from domain.games.dominion.options import Variants

SEATS = ("p1", "p2", "p3", "p4", "p5", "p6")
RECORDER = -1
UNSEEN = "?"  # a card the recorder of a physical game did not see (6.4); JSON null
# What the recorder enters cards from a deck for, where a card not seen may stay `?` (6.5):
# drawn, set aside face down, or looked at by its player alone (Sentry). `reveal` and `look`
# (a card the rules read, such as Library's draw) need its name.
PRIVATE_LOOK = "look privately"
UNSEEN_VERBS = ("draw", "aside", PRIVATE_LOOK)
AS = ">"  # Overlord>Village: an Overlord in play acting as a Village


def acting(card: str) -> str:
    """The name a card in play counts as (an Overlord's chosen card)."""
    return card.split(AS, 1)[1] if AS in card else card


def physical(card: str) -> str:
    """The printed card behind a card in play."""
    return card.split(AS, 1)[0] if AS in card else card


class Lasting(msgspec.Struct, frozen=True, omit_defaults=True):
    """A Duration staying in play (3.5, 3.9): `card` (its token in play), the Throne Rooms and
    Crowns that played it (`links`, outermost first, they stay with it), the turn it was played,
    Archive's face-down `sets` and Enchantress's `draws` for the start of the next turn."""

    card: str
    turn: int
    links: tuple[str, ...] = ()
    sets: tuple[tuple[str, ...], ...] = ()
    draws: int = 0


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
    lasting: tuple[Lasting, ...] = ()
    donates: int = 0  # Donates bought, waiting for the between-turns step (or the next turn)
    camp: tuple[str, ...] = ()  # Encampments set aside until Clean-up (apart from `aside`)
    # The names the player's unseen cards (`?` in any zone) stand for, sorted: as many as there
    # are `?`s. Every gain and trash is public, so which cards a player has is always known;
    # only where some of them are is not (6.4).
    pool: tuple[str, ...] = ()
    unannounced: int = 0  # physical shuffles since the player's turn began, not yet announced
    looking: tuple[str, ...] = ()  # cards taken from the deck to look at, unseen by others (Sentry)

    def newest(self, card: str) -> int:
        """The index of the newest Duration record of a card (by the name it acts as)."""
        return max(i for i, r in enumerate(self.lasting) if acting(r.card) == card)

    def owned(self) -> tuple[str, ...]:
        """Every card this player has (2.2), Archive's face-down sets included."""
        play = tuple(physical(c) for c in self.play) if any(AS in c for c in self.play) else self.play
        aside = tuple(physical(c) for c in self.aside) if any(AS in c for c in self.aside) else self.aside
        kept = tuple(c for record in self.lasting for s in record.sets for c in s)
        camp = tuple(physical(c) for c in self.camp)
        cards = self.deck + self.unknown + self.hand + self.discard + play + aside + kept + camp
        if self.looking:
            cards += self.looking
        if self.pool:
            return tuple(c for c in cards if c != UNSEEN) + self.pool
        return cards


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
    again: bool = False  # the second play by a Throne Room or Crown
    card: str = ""  # the token in play when it differs from `op` (an Overlord acting as `op`)


class Decision(msgspec.Struct, frozen=True, omit_defaults=True):
    """An open choice (4.3). `p` answers it (-1: the recorder of a physical game). `kind` is
    `select` (cards from the hand, or from the discard pile with `zone` "discard", or from
    `cards` when given; only cards named in `names` when given), `choose` (one of `options`),
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
    exact: bool = False  # the pile's top card must cost exactly `cost` (Charm)
    exclude: tuple[str, ...] = ()  # names the pile's top card must not have
    not_types: tuple[str, ...] = ()  # types the pile's top card must not have (Banquet)
    empty_ok: bool = False  # an empty pile may be chosen (Tax)
    names: tuple[str, ...] = ()  # only cards of these names may be selected (a Gold, a copy)
    zone: str = ""  # where selected cards come from: "" the hand, "discard" the discard pile


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
    landmark_vp: dict[str, int] = {}
    obelisk: str | None = None
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
    # Empires turn fields (2.1): a Buy or Event bought or debt paid this turn (8.6), the
    # Fortune doubling spent, Charms waiting for the next buy, the first Action played
    # (Enchantress), Buy phases begun. The Encampments set aside are the current player's `camp`.
    bought: bool = False
    fortune: bool = False
    charms: int = 0
    first_action: bool = False
    buy_phases: int = 0
    # (source player, targets) of each enchantment, until the source's next turn starts.
    enchantments: tuple[tuple[int, tuple[int, ...]], ...] = ()
    merchants: int = 0  # Merchant bonuses (+$1 each) waiting for the turn's first Silver (2e)
    province_gained: bool = False  # Mountain Pass: has anyone gained a Province yet
    mountain_pass: int = -1  # the gainer whose bidding waits for the end of this turn
    frames: tuple[Frame, ...] = ()
    prompts: tuple[Decision, ...] = ()
    result: Result | None = None

    @property
    def encamped(self) -> tuple[str, ...]:
        """The Encampments the current player set aside, to return at the start of Clean-up."""
        return self.players[self.current].camp if self.players else ()

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
