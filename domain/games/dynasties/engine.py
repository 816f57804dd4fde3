"""Shared machinery of `decide` for Dynasties & Kingdoms (rules version dk-1,
dynasties-kingdoms.md 5.2): the fact collector and the rejection helper."""

from __future__ import annotations

from domain.decision import Decision, rejecter
from domain.games.dynasties.events import Fact
from domain.games.dynasties.fold import evolve
from domain.games.dynasties.state import SPEC, State
from domain.rng import Rng


class Ctx(Decision[State, Fact]):
    """The facts of one action so far, and the state they lead to."""

    __slots__ = ()

    def __init__(self, state: State, rng: Rng) -> None:
        super().__init__(state, rng, evolve)


reject = rejecter(SPEC)
