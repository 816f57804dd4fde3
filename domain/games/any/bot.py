"""A simple bot for `any` (`chronicle simulate any`): it rolls, draws, plays its cards and
scores at random, ends turns now and then, and ends the game once every seat has had a few
turns, so that every bot game ends."""

from __future__ import annotations

from collections.abc import Callable

from domain.games.any.actions import Action, Draw, EndGame, EndTurn
from domain.games.any.state import State

TURNS_EACH = 6


def choose(state: State, seat: str | None, legal: tuple[Action, ...], draw: Callable[[int], int]) -> Action:
    ends = [a for a in legal if isinstance(a, EndGame)]
    if ends and state.turn > TURNS_EACH * len(state.seats):
        return ends[draw(len(ends))]
    if state.facts and draw(6) == 0:
        turn = next((a for a in legal if isinstance(a, EndTurn)), None)
        if turn is not None:
            return turn
    others: list[Action] = [a for a in legal if not isinstance(a, EndGame)] or list(legal)
    entered = [a for a in others if isinstance(a, Draw) and a.cards is not None]
    if entered and draw(3) == 0:  # a physical table's recorder enters what it saw drawn
        return entered[draw(len(entered))]
    kinds = sorted({type(a).__name__ for a in others})
    kind = kinds[draw(len(kinds))]
    of_kind = [a for a in others if type(a).__name__ == kind]
    return of_kind[draw(len(of_kind))]
