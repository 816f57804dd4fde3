"""Card data of Dominion (base game, 1st and 2nd edition, and Empires): dominion.md sections 1.2,
1.5-1.8, 5 and Appendix B, and dominion-2e.md 1-2, read from `cards-v1.json` and validated on load.

The 25 first-edition kingdom cards stay `kingdom` (a first-edition game draws from them alone, as
it always did); the 7 cards new in the 2nd edition are `base2`, and `removed_in_2e` names the 6
first-edition cards the 2nd edition dropped. Any of the 32 may be named in a kingdom.

The recommended kingdoms (1.5) are `presets` (the 1st edition's five base sets and Empires' two)
and `presets_2e` (the six of the 2nd edition's 2016 rulebook). A preset's name means the set of
the game's edition: under `base_edition=2` the 2016 `first_game` and `size_distortion` take the
place of the 2008 sets of those names (which hold removed cards, so no 2nd-edition game was ever
offered them), and the four other 2016 names exist under the 2nd edition only.

Every card is typed data: name, types, cost as a `(coins, debt)` pair (dominion.md 0; base
cards have no debt, Empires cards will), the coins a plain Treasure makes, printed VP, the
"+" bonuses of its play instructions (applied before its own effect function, which lives in
`effects.py`) and, for kingdom piles, the pile size by player count. Loading checks:

- names are unique, types come from the closed list of section 2.3, costs are two integers >= 0;
- Treasures name their coins, Victory and Curse cards their VP (Gardens is counted by rule);
- every preset names exactly 10 distinct kingdom piles, a 2nd-edition one none the 2nd edition removed;
- every basic pile gives a size for 2, 3 and 4 players (-1 = "all the rest", Copper).
"""

from __future__ import annotations

from importlib import resources

import msgspec

TYPES = ("Action", "Treasure", "Victory", "Curse", "Attack", "Reaction", "Duration", "Gathering", "Castle")
EXPANSIONS = ("base", "base,empires")
# Victory cards whose worth is counted by rule, not printed (5.2 Gardens, 5.4 Humble and King's Castle).
COUNTED_VP = frozenset({"Gardens", "Humble Castle", "King's Castle"})
# Treasures whose play is not a plain "+$n" (they ask, double, or make nothing by themselves).
RULED_TREASURES = frozenset({"Charm", "Crown", "Fortune"})
DEFAULT_FILE = "cards-v1.json"


class CardDataError(ValueError):
    """The card data file failed a load-time check."""


class Plus(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cards: int = 0
    actions: int = 0
    buys: int = 0
    coins: int = 0


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    types: tuple[str, ...]
    cost: tuple[int, int]
    coins: int = 0
    vp: int = 0
    plus: Plus | None = None
    pile: tuple[int, int, int] | None = None

    def is_(self, kind: str) -> bool:
        return kind in self.types


class CardFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    version: str
    basic: tuple[Card, ...]
    kingdom: tuple[Card, ...]
    base2: tuple[Card, ...]
    removed_in_2e: tuple[str, ...]
    empires: tuple[Card, ...]
    split_piles: dict[str, tuple[str, str]]
    castles: dict[str, tuple[str, ...]]
    events: dict[str, tuple[int, int]]
    landmarks: tuple[str, ...]
    token_landmarks: tuple[str, ...]
    expansions: dict[str, tuple[str, ...]]
    preset_landscapes: dict[str, tuple[str, ...]]
    basic_piles: dict[str, tuple[int, int, int]]
    basic_piles_5_6: dict[str, tuple[int, int]]
    copper_in_box: int
    copper_in_two_sets: int
    kingdom_pile: int
    starting_deck: dict[str, int]
    presets: dict[str, tuple[str, ...]]
    presets_2e: dict[str, tuple[str, ...]]


class CardData:
    """The validated card file with fast lookups (plain dicts and frozensets of names)."""

    def __init__(self, raw: CardFile) -> None:
        self.version = raw.version
        self.raw = raw
        cards = (*raw.basic, *raw.kingdom, *raw.base2, *raw.empires)
        self.cards: dict[str, Card] = {c.name: c for c in cards}
        self.basic: tuple[str, ...] = tuple(c.name for c in raw.basic)
        # The base randomizers (sorted): the kingdom of a base game is drawn from these alone,
        # as it always was, so a stored base game draws the same kingdom for ever.
        self.kingdom: tuple[str, ...] = tuple(sorted(c.name for c in raw.kingdom))
        # The 2nd edition's 26 randomizers (19 kept, 7 new) and every base card (32).
        self.kingdom_2e: tuple[str, ...] = tuple(
            sorted((*(n for n in self.kingdom if n not in raw.removed_in_2e), *(c.name for c in raw.base2)))
        )
        self.base_all: tuple[str, ...] = tuple(sorted((*self.kingdom, *(c.name for c in raw.base2))))
        self.empires_piles: tuple[str, ...] = tuple(sorted(raw.expansions["empires"]))
        self.presets = raw.presets
        self.presets_2e = raw.presets_2e
        # Every preset name the `kingdom` option takes, under one edition or the other.
        self.preset_names: tuple[str, ...] = tuple(sorted({*raw.presets, *raw.presets_2e}))
        self.preset_landscapes = raw.preset_landscapes
        self.events: dict[str, tuple[int, int]] = dict(raw.events)
        self.landmarks: tuple[str, ...] = raw.landmarks
        self.landscapes: tuple[str, ...] = tuple(sorted((*raw.events, *raw.landmarks)))
        self.token_landmarks = frozenset(raw.token_landmarks)
        self.split_piles = raw.split_piles
        self.home: dict[str, str] = {c.name: c.name for c in cards}
        for pile, halves in raw.split_piles.items():
            for card in halves:
                self.home[card] = pile
        for card in raw.castles["3"]:
            self.home[card] = "Castles"
        self.cost: dict[str, tuple[int, int]] = {c.name: c.cost for c in cards}
        self.coins: dict[str, int] = {c.name: c.coins for c in cards}
        self.vp: dict[str, int] = {c.name: c.vp for c in cards}
        self.plus: dict[str, Plus] = {c.name: c.plus for c in cards if c.plus is not None}
        self.of_type: dict[str, frozenset[str]] = {
            t: frozenset(c.name for c in cards if t in c.types) for t in TYPES
        }
        self.actions = self.of_type["Action"]
        self.treasures = self.of_type["Treasure"]
        self.victories = self.of_type["Victory"]
        self.attacks = self.of_type["Attack"]
        self.castles = self.of_type["Castle"]
        self.pile_types: dict[str, frozenset[str]] = {
            name: frozenset(self.cards[name].types) for name in (*self.basic, *self.base_all)
        }
        for name in self.empires_piles:
            first = self.pile_cards(name, 2)[0]
            self.pile_types[name] = frozenset(self.cards[first].types)
        self.pile_types["Castles"] = frozenset({"Victory", "Castle"})  # not a Treasure pile (1.7)

    def randomizers(self, expansions: str, edition: int = 1) -> tuple[str, ...]:
        """The kingdom piles a random kingdom is drawn from (sorted pile ids): the base set of
        that edition, and Empires' piles with it."""
        base = self.kingdom_2e if edition == 2 else self.kingdom
        if expansions == "base":
            return base
        return tuple(sorted((*base, *self.empires_piles)))

    def presets_of(self, edition: int = 1) -> dict[str, tuple[str, ...]]:
        """The recommended kingdoms by name under this base edition (1.5): the 1st edition's and
        Empires', and under the 2nd edition its own six, a 2016 set replacing the 2008 one of the
        same name."""
        return {**self.presets, **self.presets_2e} if edition == 2 else dict(self.presets)

    def preset(self, name: str, edition: int = 1) -> tuple[str, ...] | None:
        """The piles of the preset `name` under this base edition, or None if it has none."""
        return self.presets_of(edition).get(name)

    def presets_for(self, expansions: str, edition: int = 1) -> dict[str, tuple[str, ...]]:
        """The recommended kingdoms (1.5) a game of these sets and this base edition is offered:
        those of its edition (`presets_of`) whose every pile is in its random pool (`randomizers`).
        A 2nd-edition game is not offered a 1st-edition kingdom (Adventurer, Feast, Woodcutter are
        gone from its box), nor a base game one of Empires; a table may still name those piles
        (`kingdom=manual`)."""
        pool = set(self.randomizers(expansions, edition))
        return {
            name: piles for name, piles in sorted(self.presets_of(edition).items()) if pool.issuperset(piles)
        }

    def nameable(self, expansions: str) -> tuple[str, ...]:
        """The kingdom piles a table may name under either edition (dominion-2e.md 1): all 32
        base cards, and Empires' piles with it."""
        if expansions == "base":
            return self.base_all
        return tuple(sorted((*self.base_all, *self.empires_piles)))

    def is_pile(self, name: str) -> bool:
        return name in self.pile_types

    def pile_cards(self, pile: str, players: int) -> tuple[str, ...]:
        """The cards of a kingdom or basic pile at setup, top first."""
        if pile == "Castles":
            return self.raw.castles["2" if players == 2 else "3"]
        if pile in self.split_piles:
            top, bottom = self.split_piles[pile]
            return (top,) * 5 + (bottom,) * 5
        return (pile,) * self.pile_size(pile, players)

    def pile_size(self, name: str, players: int) -> int:
        """Cards in a pile at setup; 5-6 players use both sets' basic cards (1.3)."""
        if players >= 5 and name in self.raw.basic_piles_5_6:
            size = self.raw.basic_piles_5_6[name][players - 5]
            return self.raw.copper_in_two_sets - 7 * players if size < 0 else size
        column = min(players, 4) - 2
        if name in self.raw.basic_piles:
            size = self.raw.basic_piles[name][column]
            if size < 0:
                return self.raw.copper_in_box - 7 * players
            return size
        card = self.cards[name]
        return card.pile[column] if card.pile is not None else self.raw.kingdom_pile

    def has_type(self, name: str, kind: str) -> bool:
        return name in self.of_type.get(kind, frozenset())


def _check(raw: CardFile) -> None:
    names = [c.name for c in (*raw.basic, *raw.kingdom, *raw.base2, *raw.empires)]
    if len(set(names)) != len(names):
        raise CardDataError("card names must be unique")
    if len(raw.base2) != 7 or len(raw.removed_in_2e) != 6:
        raise CardDataError("the 2nd edition adds 7 base cards and removes 6")
    if not set(raw.removed_in_2e) <= {c.name for c in raw.kingdom}:
        raise CardDataError("the cards removed in the 2nd edition are 1st-edition kingdom cards")
    for card in (*raw.basic, *raw.kingdom, *raw.base2, *raw.empires):
        if not card.types or any(t not in TYPES for t in card.types):
            raise CardDataError(f"{card.name}: unknown type in {card.types}")
        if min(card.cost) < 0:
            raise CardDataError(f"{card.name}: a cost is two integers >= 0")
        if "Treasure" in card.types and card.coins <= 0 and card.name not in RULED_TREASURES:
            raise CardDataError(f"{card.name}: a Treasure names its coins")
        victory = "Curse" in card.types or "Victory" in card.types
        if victory and card.vp == 0 and card.name not in COUNTED_VP:
            raise CardDataError(f"{card.name}: a Victory or Curse card names its VP")
    known = set(names)
    for pile, halves in raw.split_piles.items():
        if pile != "/".join(halves) or not set(halves) <= known:
            raise CardDataError(f"split pile {pile} must be named Top/Bottom after two known cards")
    if len(raw.castles["2"]) != 8 or len(raw.castles["3"]) != 12 or not set(raw.castles["3"]) <= known:
        raise CardDataError("the Castle pile holds 8 (2 players) or 12 known Castles")
    piles = {c.name for c in (*raw.kingdom, *raw.base2)} | set(raw.expansions["empires"])
    if len(raw.expansions["empires"]) != 24 or not set(raw.expansions["empires"]) <= known | set(
        raw.split_piles
    ) | {"Castles"}:
        raise CardDataError("Empires has 24 kingdom piles")
    if len(raw.events) != 13 or len(raw.landmarks) != 21:
        raise CardDataError("Empires has 13 Events and 21 Landmarks")
    for preset, chosen in raw.presets.items():
        if len(chosen) != 10 or len(set(chosen)) != 10 or not set(chosen) <= piles:
            raise CardDataError(f"preset {preset} must name 10 distinct kingdom piles")
    kept = {c.name for c in (*raw.kingdom, *raw.base2)} - set(raw.removed_in_2e)
    for preset, chosen in raw.presets_2e.items():
        if len(chosen) != 10 or len(set(chosen)) != 10 or not set(chosen) <= kept:
            raise CardDataError(f"2nd-edition preset {preset} must name 10 distinct 2nd-edition base piles")
    for preset, scapes in raw.preset_landscapes.items():
        if preset not in raw.presets or not set(scapes) <= set(raw.events) | set(raw.landmarks):
            raise CardDataError(f"preset {preset}: unknown Events or Landmarks")
    if set(raw.basic_piles) != {c.name for c in raw.basic} or set(raw.basic_piles_5_6) != set(
        raw.basic_piles
    ):
        raise CardDataError("every basic card needs its pile sizes")


def load(name: str = DEFAULT_FILE) -> CardData:
    text = resources.files(__package__).joinpath(name).read_bytes()
    try:
        raw = msgspec.json.decode(text, type=CardFile)
    except msgspec.ValidationError as error:
        raise CardDataError(str(error)) from error
    _check(raw)
    return CardData(raw)


DATA = load()
