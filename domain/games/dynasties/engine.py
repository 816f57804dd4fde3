"""Shared machinery of `decide` for Dynasties & Kingdoms (rules version dk-1,
dynasties-kingdoms.md 5.2): the fact collector, the rejection helper and the check of who may
enter what the table saw."""

from __future__ import annotations

from domain.decision import Decision, rejecter
from domain.games.dynasties.events import Fact
from domain.games.dynasties.fold import evolve
from domain.games.dynasties.state import SPEC, State
from domain.rng import Rng
from domain.ruleset import Command, Rejection


class Ctx(Decision[State, Fact]):
    """The facts of one action so far, and the state they lead to."""

    __slots__ = ()

    def __init__(self, state: State, rng: Rng) -> None:
        super().__init__(state, rng, evolve)


reject = rejecter(SPEC)


def table_only(state: State, command: Command) -> Rejection | None:
    """Observed outcomes come from the recorder or from the active player's seat."""
    if command.by == "seat" and command.seat != state.active:
        return reject("NOT_YOUR_TURN", "The recorder enters what the table saw.", "5.1")
    return None
