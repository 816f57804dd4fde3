"""Facts of Dominion (1st-edition base game): the derived events of dominion.md 1.9 and 4.1.

Every state change is one of these, so `evolve` rebuilds the state from facts alone. Random
facts (`KingdomChosen` when drawn, `FirstPlayerChosen`, `Shuffled`) record the stream and
counter of `hmac-sha256-v1` (records 4) in a digital game, or `observed: true` in a physical
one. `Observed` is the recorder's entry of the next cards of a deck whose order the engine
does not know (6.4), `?` for a card it did not see; `Identified` names unseen cards later.
`StackSaved` stores the continuation of unfinished effects (frames and open decisions) whenever
it changes, so a prompt survives a restart between two requests.

Redaction (view.py) empties `cards` of draws, observations and hidden discards for everyone
but the owner, keeping `count`, and drops every shuffle's `order` for all but the omniscient.
"""

from __future__ import annotations

import msgspec

from domain.games.dominion.state import Decision, Frame


class _Fact(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True, omit_defaults=True):
    pass


class KingdomChosen(_Fact, frozen=True, tag="kingdom_chosen"):
    piles: tuple[str, ...]
    method: str
    stream: str | None = None
    n: int | None = None
    observed: bool = False
    events: tuple[str, ...] = ()
    landmarks: tuple[str, ...] = ()


class SupplyBuilt(_Fact, frozen=True, tag="supply_built"):
    """Pile sizes; `cards` lists, top first, the piles not made of one card (1.6, 1.7)."""

    piles: dict[str, int]
    cards: dict[str, tuple[str, ...]] = {}


class LandscapesSetUp(_Fact, frozen=True, tag="landscapes_set_up"):
    """Tokens put out for the Events and Landmarks (1.8) and Obelisk's pile, drawn from stream
    `obelisk` n 0 over the sorted eligible piles (or entered by the recorder)."""

    landmark_vp: dict[str, int]
    pile_vp: dict[str, int]
    pile_debt: dict[str, int]
    obelisk: str | None = None
    stream: str | None = None
    n: int | None = None
    outcome: int | None = None
    faces: int | None = None


class FirstPlayerChosen(_Fact, frozen=True, tag="first_player_chosen"):
    player: str
    stream: str | None = None
    n: int | None = None
    outcome: int | None = None
    faces: int | None = None
    observed: bool = False


class Dealt(_Fact, frozen=True, tag="dealt"):
    player: str
    cards: tuple[str, ...]


class Shuffled(_Fact, frozen=True, tag="shuffled"):
    """The discard pile becomes the deck. `order` (top first) is None in a physical game and
    in every redacted copy."""

    player: str
    count: int
    order: tuple[str, ...] | None = None
    stream: str | None = None
    n: int | None = None
    observed: bool = False


class Observed(_Fact, frozen=True, tag="observed"):
    player: str
    cards: tuple[str, ...]
    count: int


class Identified(_Fact, frozen=True, tag="identified"):
    """Unseen cards (`?`) of a zone named, once the table sees them or an entry names them
    (6.4): `zone` is hand, deck, unknown, discard or an Archive set `set:<record>:<set>`."""

    player: str
    zone: str
    cards: tuple[str, ...]
    count: int


class ShuffleAnnounced(_Fact, frozen=True, tag="shuffle_announced"):
    """The table said this player shuffled, where the engine shuffled too (4.8)."""

    player: str


class AutoResolved(_Fact, frozen=True, tag="auto_resolved"):
    """The engine answered a decision itself: it had exactly one legal answer (4.3 rule 3).
    The answer's own facts follow. `player` is None for the table's recorder."""

    player: str | None
    decision: str
    source: str = ""


class Drew(_Fact, frozen=True, tag="drew"):
    player: str
    cards: tuple[str, ...]
    count: int


class TurnStarted(_Fact, frozen=True, tag="turn_started"):
    player: str
    turn: int


class PhaseChanged(_Fact, frozen=True, tag="phase_changed"):
    player: str
    phase: str


class Played(_Fact, frozen=True, tag="played"):
    """A card put into play from the hand (`again`: played once more without moving, Throne
    Room's second play). `action`: it used up an Action (played in the Action phase).
    `enchanted`: an enchantment replaced its instructions with +1 Card +1 Action (5.3)."""

    player: str
    card: str
    again: bool = False
    action: bool = False
    enchanted: bool = False
    source: str = "hand"  # where it was played from: the hand, or the discard pile (Vassal)


class TreasuresPlayed(_Fact, frozen=True, tag="treasures_played"):
    player: str
    cards: tuple[str, ...]
    coins: int


class Plus(_Fact, frozen=True, tag="plus"):
    """Counter changes of the current turn. `charms` adds (or with a negative number uses up)
    Charms waiting for the next buy; `doubled` spends the turn's Fortune doubling (5.3)."""

    player: str
    source: str
    actions: int = 0
    buys: int = 0
    coins: int = 0
    charms: int = 0
    doubled: bool = False
    merchants: int = 0  # Merchant bonuses set up (or, negative, paid on the first Silver)


class Bought(_Fact, frozen=True, tag="bought"):
    player: str
    card: str
    coins: int
    debt: int = 0


class Gained(_Fact, frozen=True, tag="gained"):
    player: str
    card: str
    source: str = "supply"  # supply or trash
    to: str = "discard"  # discard, hand or deck
    pile: str | None = None  # the Supply pile taken from, when not named like the card (split piles)


class Trashed(_Fact, frozen=True, tag="trashed"):
    player: str
    cards: tuple[str, ...]
    source: str = "hand"  # hand, play, aside, deck, discard, or supply (the top of `pile`)
    pile: str | None = None


class Discarded(_Fact, frozen=True, tag="discarded"):
    """Cards discarded from `source`. Unless `public`, only the owner sees which (`count` and
    the resulting top card `top` are public)."""

    player: str
    cards: tuple[str, ...]
    source: str
    count: int
    top: str | None = None
    public: bool = False


class Revealed(_Fact, frozen=True, tag="revealed"):
    """Cards revealed from `source` (hand or deck); from the deck they go to `to` (aside, or
    stay on the deck)."""

    player: str
    cards: tuple[str, ...]
    source: str
    to: str


class Moved(_Fact, frozen=True, tag="moved"):
    """Public cards moved between a player's zones (revealed Treasures to the hand, a card set
    aside, a revealed Victory card onto the deck)."""

    player: str
    cards: tuple[str, ...]
    source: str
    to: str


class DeckDiscarded(_Fact, frozen=True, tag="deck_discarded"):
    """Chancellor: the whole deck into the discard pile; only its new top card is seen (6.5)."""

    player: str
    count: int
    top: str | None = None


class Reacted(_Fact, frozen=True, tag="reacted"):
    player: str
    card: str | None
    attack: str


class Chose(_Fact, frozen=True, tag="chose"):
    player: str
    option: str
    source: str


class CleanedUp(_Fact, frozen=True, tag="cleaned_up"):
    """Clean-up: the cards in play, then the hand, go to the discard pile (3.5)."""

    player: str
    play: tuple[str, ...]
    hand: tuple[str, ...]
    count: int
    top: str | None = None
    public: bool = False


class StackSaved(_Fact, frozen=True, tag="stack_saved"):
    frames: tuple[Frame, ...]
    prompts: tuple[Decision, ...]


class GameEnded(_Fact, frozen=True, tag="game_ended"):
    reason: str
    scores: dict[str, int]
    card_vp: dict[str, int]
    tokens: dict[str, int]
    turns: dict[str, int]
    ranks: dict[str, int]
    winners: tuple[str, ...]
    landmarks: dict[str, dict[str, int]] = {}  # per seat, the VP of each scoring landmark


# --- Empires ----------------------------------------------------------------------------------


class Tokens(_Fact, frozen=True, tag="tokens"):
    """VP or debt tokens change hands: every field is a change. A player takes tokens from a
    pile or a landmark (Temple, Basilica), a card adds tokens (+1 VP), tokens move between a
    pile and a landmark (Aqueduct) or onto a pile (Tax)."""

    source: str
    player: str | None = None
    vp: int = 0
    debt: int = 0
    pile: str | None = None
    pile_vp: int = 0
    pile_debt: int = 0
    landmark: str | None = None
    landmark_vp: int = 0


class DebtPaid(_Fact, frozen=True, tag="debt_paid"):
    player: str
    amount: int


class EventBought(_Fact, frozen=True, tag="event_bought"):
    player: str
    event: str
    coins: int
    debt: int = 0


class Returned(_Fact, frozen=True, tag="returned"):
    """A set-aside card goes back on top of a Supply pile (Encampment, 3.5 step 1)."""

    player: str
    card: str
    pile: str


class Became(_Fact, frozen=True, tag="became"):
    """An Overlord in play becomes the chosen card until it leaves play (5.3)."""

    player: str
    card: str
    acting: str


class Enchanted(_Fact, frozen=True, tag="enchanted"):
    player: str
    targets: tuple[str, ...]


class DurationStarted(_Fact, frozen=True, tag="duration_started"):
    """A Duration card begins a record of what stays in play with it (3.9)."""

    player: str
    card: str
    links: tuple[str, ...] = ()


class ArchiveFilled(_Fact, frozen=True, tag="archive_filled"):
    """The top cards of the deck set aside face down as a new set of the newest Archive."""

    player: str
    cards: tuple[str, ...]
    count: int


class ArchiveTaken(_Fact, frozen=True, tag="archive_taken"):
    """One card of an Archive set into the hand; `record` and `set` index it."""

    player: str
    card: str
    record: int
    set: int


class EnchantressCharged(_Fact, frozen=True, tag="enchantress_charged"):
    """The newest Enchantress record will draw 2 more cards at the start of the next turn."""

    player: str


class DurationsEnded(_Fact, frozen=True, tag="durations_ended"):
    player: str
    records: tuple[int, ...]


class MountainPassQueued(_Fact, frozen=True, tag="mountain_pass_queued"):
    """The first Province was gained: bidding follows this turn. None: the bidding is over."""

    player: str | None


class Bid(_Fact, frozen=True, tag="bid"):
    player: str
    amount: int | None = None


class Donated(_Fact, frozen=True, tag="donated"):
    """A Donate resolves (5.5): the deck and the discard pile (`count` cards) go into the hand,
    unseen by the others; one pending Donate fewer."""

    player: str
    count: int


class Reshuffled(_Fact, frozen=True, tag="reshuffled"):
    """Annex and Donate shuffle a new deck (randomness points R3, R4), stream `deck:<seat>` like
    `Shuffled`. `source` "hand" (Donate): the hand and what is on the deck; "discard" (Annex):
    the deck and the discard pile but the `kept` cards (the owner's secret). `order` (top
    first) is None in a physical game and in every redacted copy."""

    player: str
    source: str
    count: int
    kept: tuple[str, ...] = ()
    order: tuple[str, ...] | None = None
    stream: str | None = None
    n: int | None = None
    observed: bool = False


class Topdecked(_Fact, frozen=True, tag="topdecked"):
    """Cards put onto the deck unrevealed (Haunted Castle, 6.5; Artisan, Harbinger and Sentry,
    dominion-2e.md 2) from `source` (the hand, the discard pile, or the cards looked at): the
    last one named ends on top; only the owner sees which. From the discard pile, `top` is its
    new top card, public as every discard pile's top card is (6.5)."""

    player: str
    cards: tuple[str, ...]
    count: int
    source: str = "hand"
    top: str | None = None


class Looked(_Fact, frozen=True, tag="looked"):
    """The top cards of the deck taken to be looked at by their owner alone (Sentry,
    dominion-2e.md 2); the others see how many."""

    player: str
    cards: tuple[str, ...]
    count: int


Fact = (
    KingdomChosen
    | SupplyBuilt
    | FirstPlayerChosen
    | Dealt
    | Shuffled
    | Observed
    | Identified
    | ShuffleAnnounced
    | AutoResolved
    | Drew
    | TurnStarted
    | PhaseChanged
    | Played
    | TreasuresPlayed
    | Plus
    | Bought
    | Gained
    | Trashed
    | Discarded
    | Revealed
    | Moved
    | DeckDiscarded
    | Reacted
    | Chose
    | CleanedUp
    | StackSaved
    | GameEnded
    | LandscapesSetUp
    | Tokens
    | DebtPaid
    | EventBought
    | Returned
    | Became
    | Enchanted
    | DurationStarted
    | ArchiveFilled
    | ArchiveTaken
    | EnchantressCharged
    | DurationsEnded
    | MountainPassQueued
    | Bid
    | Donated
    | Reshuffled
    | Topdecked
    | Looked
)
