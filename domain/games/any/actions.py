"""Recordable actions of `any` (rules.md sections 3 and 4), tagged by `kind`.

Seats are seat ids (`A`..`T`); the notation also reads the players' names. Cards and faces are
plain text so that `decide` answers an unknown one with the rules' own code. An action that
enters what the table saw (`values` of a roll, `cards` of a draw) is a physical game's; a
digital game draws them itself.
"""

from __future__ import annotations

import msgspec


class _Action(msgspec.Struct, frozen=True, tag_field="kind", forbid_unknown_fields=True, omit_defaults=True):
    pass


class Roll(_Action, frozen=True, tag="roll"):
    """`dice` is `NdM` (free dice) or a declared dice set's name; `values` the faces the table
    saw, numbers or the names of named faces."""

    dice: str
    values: tuple[int | str, ...] | None = None


class Shuffle(_Action, frozen=True, tag="shuffle"):
    deck: str


class Draw(_Action, frozen=True, tag="draw"):
    """`count` cards of `deck` to a seat (secretly) or to the table (face up); `cards` what the
    table saw drawn, None when the cards stay unknown to the record."""

    deck: str
    to: str
    count: int = 1
    cards: tuple[str, ...] | None = None


class Reveal(_Action, frozen=True, tag="reveal"):
    seat: str
    card: str


class Discard(_Action, frozen=True, tag="discard"):
    """A card of a seat's hand, or of the table (`source` "table"), to its deck's discard pile."""

    source: str
    card: str


class Pass(_Action, frozen=True, tag="pass"):
    seat: str
    card: str
    to: str


class Score(_Action, frozen=True, tag="score"):
    """`delta` on a seat's track (the ending's track unless `track` names another) or, with no
    seat, on the table track `track`."""

    delta: int
    seat: str | None = None
    track: str | None = None


class Note(_Action, frozen=True, tag="note"):
    text: str


class EndTurn(_Action, frozen=True, tag="end_turn"):
    pass


class EndRound(_Action, frozen=True, tag="end_round"):
    pass


class EndGame(_Action, frozen=True, tag="end_game"):
    """The end of the game: decided by the ending rule from the tracks when nothing is entered,
    else by what is entered (a game recorded afterwards): final scores, ranks, the winners, or
    a cooperative game's `won`. Keyed by seat id."""

    scores: dict[str, int] | None = None
    ranks: dict[str, int] | None = None
    winners: tuple[str, ...] | None = None
    won: bool | None = None


Action = Roll | Shuffle | Draw | Reveal | Discard | Pass | Score | Note | EndTurn | EndRound | EndGame
