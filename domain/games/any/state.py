"""State of an `any` game: the declared components with where every card is, the tracks, and
the turn and round counters (rules.md section 2).

A deck's `pile` is its draw pile. In a digital game it is the exact order, top first. In a
physical game the order is unknown: `pile` holds the cards not known to have left it, in the
canonical order, and `unknown_out` counts the cards drawn without being named, so the pile
holds `len(pile) - unknown_out` cards. A hand holds its known cards and, per deck, how many
unknown ones; naming one of those later (a reveal, discard or pass) takes the card out of the
pile's known contents.
"""

from __future__ import annotations

import msgspec

from domain.games.any.definition import Definition
from domain.games.any.events import DiceRolled, GameEnded


class DeckState(msgspec.Struct, frozen=True):
    pile: tuple[str, ...]
    discard: tuple[str, ...] = ()
    unknown_out: int = 0

    @property
    def count(self) -> int:
        return len(self.pile) - self.unknown_out


class Hand(msgspec.Struct, frozen=True):
    cards: tuple[str, ...] = ()
    unknown: dict[str, int] = {}

    @property
    def count(self) -> int:
        return len(self.cards) + sum(self.unknown.values())


class State(msgspec.Struct, frozen=True):
    mode: str
    seats: tuple[str, ...]
    names: dict[str, str]
    title: str
    definition: Definition
    decks: dict[str, DeckState]
    hands: dict[str, Hand]
    player_tracks: dict[str, dict[str, int]]
    table_tracks: dict[str, int]
    table: tuple[str, ...] = ()
    counters: dict[str, int] = {}
    last_roll: DiceRolled | None = None
    turn: int = 1
    round: int = 1
    facts: int = 0
    ended: GameEnded | None = None
    filled: dict[str, tuple[str, ...]] = {}  # each row scored once: the seats that scored it

    def turn_seat(self) -> str:
        """Whose turn it is: the seats in order, one `end turn` each."""
        return self.seats[(self.turn - 1) % len(self.seats)]

    def counter(self, stream: str) -> int:
        return self.counters.get(stream, 0)
