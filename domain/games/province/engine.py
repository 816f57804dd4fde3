"""Shared machinery of Province's `decide` (Kickstarter 2014, province.md 7.6): the fact
collector and the rejection helper.

`decide` works on a running copy of the state: each fact is folded with `evolve` as soon as it
is emitted, so later steps of the same input (goal checks, turn start) see its effect, exactly
as a replay will.
"""

from __future__ import annotations

from domain.decision import Decision, rejecter
from domain.games.province.events import Fact, PhaseChanged
from domain.games.province.fold import evolve
from domain.games.province.state import State
from domain.rng import Rng
from domain.ruleset import Rejection

SPEC = "province"


class Ctx(Decision[State, Fact]):
    """The facts of one input so far, and the state they lead to."""

    __slots__ = ()

    def __init__(self, state: State, rng: Rng) -> None:
        super().__init__(state, rng, evolve)


reject = rejecter(SPEC)


def spending_gate(state: State) -> Rejection | None:
    """The "spending*" rule of 7.3: a spending input in the labor phase needs a move first."""
    if state.phase == "labor":
        if state.turn_state.moves < 1:
            return reject("no_worker_moved", "Move at least one worker before spending.", "3.2")
        return None
    if state.phase == "spending":
        return None
    return reject("wrong_phase", "Spending is done after the labor phase.", "3.3")


def repeat_gate(state: State, count: int, verb: str) -> Rejection | None:
    """A Grind or Union conversion `count` times (at least once, 7.6) is a spending input."""
    if count < 1:
        return reject("invalid_payload", f"{verb} at least once.", "7.6")
    return spending_gate(state)


def afford(state: State, seat: str, cost: int, resource: str, what: str, rule: str) -> Rejection | None:
    """`insufficient_coins` or `insufficient_labor` when `seat` holds less than `cost` of
    `resource` ("coins" or "labor") for `what` ("A sailor", "The Mill"...)."""
    player = state.player(seat)
    if (player.coins if resource == "coins" else player.labor) < cost:
        return reject(f"insufficient_{resource}", f"{what} costs {cost} {resource}.", rule)
    return None


def enter_spending(ctx: Ctx, seat: str) -> None:
    """The labor phase ends implicitly with the first accepted spending input (3.2)."""
    if ctx.state.phase == "labor":
        ctx.emit(PhaseChanged(seat, "spending"))
