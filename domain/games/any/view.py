"""What each viewer sees of an `any` game (rules.md section 7; records 5).

- A hand is its seat's: others see how many cards it holds.
- A draw pile shows its count; its order (digital) and its contents (a physical pile lists
  what is not known to have left it, which would tell what a seat drew) are the omniscient
  viewer's alone. Discard piles and the table are face up.
- A secret draw's cards are the drawer's (others see the count, and not even whether the record
  knows the cards), a pass's card the two seats'.
- A shuffle's order is nobody's but the omniscient viewer's.
- Tracks, dice, notes, turns and the result are public.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.games.any.actions import Action, Draw, Pass
from domain.games.any.events import CardPassed, CardsDrawn, DeckShuffled, Fact
from domain.games.any.rules import TABLE
from domain.games.any.state import State
from domain.ruleset import Prompt, Viewer


def _sees(viewer: Viewer, *seats: str) -> bool:
    return viewer.kind == "omniscient" or (viewer.kind == "seat" and viewer.seat in seats)


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    definition = state.definition
    decks: dict[str, Any] = {}
    for name, deck in state.decks.items():
        shown: dict[str, Any] = {"count": deck.count, "discard": list(deck.discard)}
        if viewer.kind == "omniscient":
            shown["pile"] = list(deck.pile)
            shown["unknown_out"] = deck.unknown_out
        decks[name] = shown
    hands: dict[str, Any] = {}
    for seat, hand in state.hands.items():
        entry: dict[str, Any] = {"count": hand.count}
        if _sees(viewer, seat):
            entry["cards"] = list(hand.cards)
            entry["unknown"] = sum(hand.unknown.values())
        hands[seat] = entry
    roll = state.last_roll
    track = definition.score_track()
    return {
        "title": state.title,
        "mode": state.mode,
        "seats": list(state.seats),
        "turn": state.turn,
        "round": state.round,
        "turn_seat": state.turn_seat(),
        "decks": decks,
        "hands": hands,
        "table": list(state.table),
        "tracks": {
            "player": {name: dict(values) for name, values in state.player_tracks.items()},
            "table": dict(state.table_tracks),
        },
        "filled": {name: list(seats) for name, seats in state.filled.items()},  # rows scored once
        "ending": definition.ending.kind,
        "score_track": None if track is None else track.name,
        "last_roll": None if roll is None else msgspec.to_builtins(roll),
        "result": None if state.ended is None else msgspec.to_builtins(state.ended),
    }


def redact(fact: Fact, viewer: Viewer) -> Fact:
    if viewer.kind == "omniscient":
        return fact
    if isinstance(fact, DeckShuffled) and fact.order:
        return replace(fact, order=(), redacted=True)
    if isinstance(fact, CardsDrawn) and fact.to != TABLE and not _sees(viewer, fact.to):
        # whether the record knows the cards is the drawer's business too
        return replace(fact, cards=(), unknown=False, redacted=True)
    if isinstance(fact, CardPassed) and not _sees(viewer, fact.seat, fact.to):
        return replace(fact, card="", deck="", redacted=True)
    return fact


def redact_action(action: Action, seat: str | None, state: State, viewer: Viewer) -> Action:
    if viewer.kind == "omniscient":
        return action
    hidden_draw = isinstance(action, Draw) and action.cards is not None and action.to.lower() != TABLE
    if isinstance(action, Draw) and hidden_draw and not _sees(viewer, action.to):
        return replace(action, cards=None)
    if isinstance(action, Pass) and not _sees(viewer, action.seat, action.to):
        return replace(action, card="?")
    return action


def redact_prompt(prompt: Prompt, state: State, viewer: Viewer) -> Prompt:
    return prompt
