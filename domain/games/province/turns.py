"""Setup, turn start, turn end, ship tosses and game end of Province (Kickstarter 2014):
province.md sections 1.2, 3.1, 3.4, 5.1, 5.2 and 8.1.

Each procedure runs until it finishes or until a physical game must wait for the table (a goal
reveal or a ship toss). The place to resume is read back from the state: a reveal resumes the
goal check and then whatever it interrupted (turn 0: the first turn start; phase `turn_end`:
the rest of the end of turn; otherwise play goes on); a toss resumes the turn-start income
(phase `turn_start`) or the start of the next turn (phase `turn_end`).

Rulings:
- `end_check: immediate` (D23) checks the end conditions whenever an input has been fully
  processed and no random input is pending, turn-start income included; the active player's
  unspent labor is discarded before `GameEnded`.
- `harbor_income_timing: on_toss` (D26): the Harbor Master's income from the first toss is taken
  at the end of the build turn; labor gained then is discarded at once (unless labor carries
  over), since the turn's labor has already been discarded.
"""

from __future__ import annotations

from domain.games.province.engine import Ctx
from domain.games.province.events import (
    CoinsGained,
    FinalTurnSet,
    GoalRevealed,
    LaborDiscarded,
    LaborGained,
    PhaseChanged,
    RandomInputRequested,
    SetupCompleted,
    ShipsTossed,
    TurnStarted,
)
from domain.games.province.goals import end_conditions, goal_loop
from domain.games.province.scoring import game_ended
from domain.games.province.state import FACES, SEATS, State, other

HARBOR = "harbor"
BANK = "double_cycle_coins"
TURN_START_LABOR = "turn_start_labor"


def ship_result(faces: tuple[str, ...]) -> str:
    whites = faces.count("white")
    return "WW" if whites == 2 else "BB" if whites == 0 else "WB"


def gain_coins(ctx: Ctx, seat: str, requested: int, source: str) -> None:
    """Coins come from the finite supply: a player owed more receives what is left (1.1)."""
    amount = max(0, min(requested, ctx.state.supply()))
    ctx.emit(CoinsGained(seat, amount, requested, source))


def harbor_income(ctx: Ctx, seat: str, source: str) -> None:
    """WW: +1 labor; BB: +1 coin (doubled only under `bank_doubles: cycle_and_harbor`); WB: none."""
    state = ctx.state
    if state.ships is None:
        return
    if state.ships.result == "WW":
        ctx.emit(LaborGained(seat, 1, source))
    elif state.ships.result == "BB":
        doubled = state.rules.variants.bank_doubles == "cycle_and_harbor" and state.uses_effect(seat, BANK)
        gain_coins(ctx, seat, 2 if doubled else 1, source)


def toss(ctx: Ctx, reason: str) -> bool:
    """Toss the two ships; False when a physical game must wait for the table's faces."""
    state = ctx.state
    if state.mode == "physical":
        ctx.emit(RandomInputRequested("ship_toss", reason))
        return False
    n = state.draws.ships
    dice = ctx.rng.roll("ships", n, 2, 2)
    faces = tuple(FACES[d - 1] for d in dice)
    ctx.emit(ShipsTossed(faces, ship_result(faces), reason, stream="ships", n=n, outcome=dice))
    return True


def deal(ctx: Ctx, revealed: str) -> None:
    """Setup steps 4-7, once the first player and the first goal are known."""
    state = ctx.state
    data = state.rules.data
    first = state.first_player or SEATS[0]
    coins = {first: data.start_coins_first, other(first): data.start_coins_second}
    ctx.emit(SetupCompleted({seat: coins[seat] for seat in SEATS}))
    ctx.emit(GoalRevealed(revealed))
    if state.rules.variants.goal_check == "immediate" and not goal_loop(ctx):
        return
    start_turn(ctx)


def start_turn(ctx: Ctx) -> None:
    state = ctx.state
    seat = state.first_player if state.active is None else other(state.active)
    assert seat is not None
    ctx.emit(TurnStarted(state.turn + 1, seat))
    if state.harbor_master == seat and not toss(ctx, "harbor_master_turn"):
        return
    turn_income(ctx)


def turn_income(ctx: Ctx) -> None:
    """3.1 steps 3-5: Mill/Smithy labor, Harbor income, the labor phase opens, goal check."""
    state = ctx.state
    seat = state.turn_seat
    player = state.player(seat)
    for building in state.rules.holders_of(TURN_START_LABOR):
        if building in player.built:
            ctx.emit(LaborGained(seat, 1, building))
    master_only = state.rules.variants.harbor_beneficiaries == "master_only"
    for building in state.rules.holders_of(HARBOR):
        if building in player.built and (not master_only or state.harbor_master == seat):
            harbor_income(ctx, seat, building)
    ctx.emit(PhaseChanged(seat, "labor"))
    goal_loop(ctx)


def end_turn(ctx: Ctx) -> None:
    """3.4, after `EndTurn` was accepted."""
    seat = ctx.state.turn_seat
    ctx.emit(PhaseChanged(seat, "turn_end"))
    # D17 variant: the only in-turn goal check runs just before the labor is discarded.
    if ctx.state.rules.variants.goal_check == "end_of_turn" and not goal_loop(ctx):
        return
    close_turn(ctx)


def close_turn(ctx: Ctx) -> None:
    """3.4 steps 2-5: discard labor, end check, first-Harbor toss, next turn."""
    state = ctx.state
    seat = state.turn_seat
    if not state.rules.variants.labor_carryover:
        ctx.emit(LaborDiscarded(seat, state.player(seat).labor))
    if _end_of_turn_check(ctx):
        return
    if ctx.state.turn_state.toss_due:
        if not toss(ctx, "harbor_built"):
            return
        after_end_toss(ctx)
    else:
        start_turn(ctx)


def after_end_toss(ctx: Ctx) -> None:
    state = ctx.state
    seat = state.turn_seat
    if state.rules.variants.harbor_income_timing == "on_toss" and state.harbor_master == seat:
        labor = state.player(seat).labor
        for building in state.rules.holders_of(HARBOR):
            harbor_income(ctx, seat, building)
        gained = ctx.state.player(seat).labor - labor
        if gained and not state.rules.variants.labor_carryover:
            ctx.emit(LaborDiscarded(seat, gained))
    start_turn(ctx)


def after_toss(ctx: Ctx) -> None:
    """Resume after a physical `TossShips`."""
    if ctx.state.phase == "turn_start":
        turn_income(ctx)
    else:
        after_end_toss(ctx)


def after_reveal(ctx: Ctx) -> None:
    """Resume after a physical `RevealGoal` that a goal check was waiting for."""
    if not goal_loop(ctx):
        return
    state = ctx.state
    if state.turn == 0:
        start_turn(ctx)
    elif state.phase == "turn_end":
        close_turn(ctx)


def _end_of_turn_check(ctx: Ctx) -> bool:
    """8.1 at 3.4 step 3, with D23's `end_of_round` variant. True when the game ended."""
    state = ctx.state
    reasons = end_conditions(state)
    if state.final_turn:
        ctx.emit(game_ended(state, reasons))
        return True
    if not reasons:
        return False
    first = state.first_player
    if state.rules.variants.end_check == "end_of_round" and first is not None and state.active == first:
        ctx.emit(FinalTurnSet(other(first), reasons))
        return False
    ctx.emit(game_ended(state, reasons))
    return True


def finish(ctx: Ctx) -> None:
    """D23 `immediate`: end the game as soon as a processed input leaves a condition true."""
    state: State = ctx.state
    if state.rules.variants.end_check != "immediate" or state.status != "in_progress":
        return
    if state.awaiting is not None:
        return
    reasons = end_conditions(state)
    if not reasons:
        return
    if state.active is not None and not state.rules.variants.labor_carryover:
        ctx.emit(LaborDiscarded(state.active, state.player(state.active).labor))
    ctx.emit(game_ended(ctx.state, reasons))
