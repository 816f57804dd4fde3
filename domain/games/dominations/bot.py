"""The simple bot of Dominations for `chronicle simulate`. Plain strategy: conquer when the
cards suffice, attack when the hand looks strong, buy cards with spare Knowledge now and then,
otherwise place the most productive tile; one choice in five is random."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.games.dominations import actions as ac
from domain.games.dominations.state import State, conquest_value


def choose(state: State, seat: str | None, legal: tuple[Any, ...], draw: Callable[[int], int]) -> Any:
    if draw(5) == 0:
        return legal[draw(len(legal))]

    def first(kind: type) -> list[Any]:
        return [a for a in legal if isinstance(a, kind)]

    for kind in (ac.ResolveConquest, ac.ConquerWithKnowledge):
        options = first(kind)
        if options:
            return options[draw(len(options))]
    if state.attack is not None:
        spend = first(ac.SpendInfluence)
        siege = first(ac.UseSiegeEngines)
        if siege:
            return siege[0]
        if spend:
            return spend[-1]
        buys = first(ac.BuyConquestCard)
        if buys and conquest_value(state) < state.attack.rebellion_value:
            return buys[draw(len(buys))]
        abandon = first(ac.AbandonConquest)
        if abandon:
            return abandon[0]
    attempts = first(ac.AttemptConquest)
    if attempts and state.active is not None:
        strength = sum(state.strength(c) for c in state.player(state.active).conquest_hand)
        if strength >= 6 or (strength >= 3 and draw(3) == 0):
            return attempts[draw(len(attempts))]
    buys = first(ac.BuyConquestCard)
    if buys and draw(2) == 0:
        return buys[draw(len(buys))]
    mastery = first(ac.AcquireMastery)
    if mastery and draw(2) == 0:
        return mastery[draw(len(mastery))]
    places = first(ac.PlaceTile)
    if places:
        return places[draw(len(places))]
    ends = first(ac.EndTurn)
    if ends:
        return ends[0]
    return legal[draw(len(legal))]
