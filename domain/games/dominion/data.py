"""Card data of Dominion (1st-edition base game): dominion.md sections 1.2, 1.5, 5.1, 5.2 and
Appendix B, read from `cards-v1.json` and validated on load.

Every card is typed data: name, types, cost as a `(coins, debt)` pair (dominion.md 0; base
cards have no debt, Empires cards will), the coins a plain Treasure makes, printed VP, the
"+" bonuses of its play instructions (applied before its own effect function, which lives in
`effects.py`) and, for kingdom piles, the pile size by player count. Loading checks:

- names are unique, types come from the closed list of section 2.3, costs are two integers >= 0;
- Treasures name their coins, Victory and Curse cards their VP (Gardens is counted by rule);
- every preset names exactly 10 distinct kingdom piles;
- every basic pile gives a size for 2, 3 and 4 players (-1 = "all the rest", Copper).
"""

from __future__ import annotations

from importlib import resources

import msgspec

TYPES = ("Action", "Treasure", "Victory", "Curse", "Attack", "Reaction", "Duration")
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
    basic_piles: dict[str, tuple[int, int, int]]
    copper_in_box: int
    kingdom_pile: int
    starting_deck: dict[str, int]
    presets: dict[str, tuple[str, ...]]


class CardData:
    """The validated card file with fast lookups (plain dicts and frozensets of names)."""

    def __init__(self, raw: CardFile) -> None:
        self.version = raw.version
        self.raw = raw
        cards = (*raw.basic, *raw.kingdom)
        self.cards: dict[str, Card] = {c.name: c for c in cards}
        self.basic: tuple[str, ...] = tuple(c.name for c in raw.basic)
        self.kingdom: tuple[str, ...] = tuple(sorted(c.name for c in raw.kingdom))
        self.presets = raw.presets
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

    def pile_size(self, name: str, players: int) -> int:
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
    names = [c.name for c in (*raw.basic, *raw.kingdom)]
    if len(set(names)) != len(names):
        raise CardDataError("card names must be unique")
    for card in (*raw.basic, *raw.kingdom):
        if not card.types or any(t not in TYPES for t in card.types):
            raise CardDataError(f"{card.name}: unknown type in {card.types}")
        if min(card.cost) < 0:
            raise CardDataError(f"{card.name}: a cost is two integers >= 0")
        if "Treasure" in card.types and card.coins <= 0:
            raise CardDataError(f"{card.name}: a Treasure names its coins")
        if ("Curse" in card.types or "Victory" in card.types) and card.vp == 0 and card.name != "Gardens":
            raise CardDataError(f"{card.name}: a Victory or Curse card names its VP")
    kingdom = {c.name for c in raw.kingdom}
    for preset, piles in raw.presets.items():
        if len(piles) != 10 or len(set(piles)) != 10 or not set(piles) <= kingdom:
            raise CardDataError(f"preset {preset} must name 10 distinct kingdom piles")
    if set(raw.basic_piles) != {c.name for c in raw.basic}:
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
