"""The Lender and its debt coin in Province (Kickstarter 2014): province.md section 4.3, D13-D16, D27.

Rulings:
- A building already borrowed this turn cannot be borrowed again (`invalid_lender_target`).
  Without this, D13's and D14's variants together would let a player borrow the Mill without
  end; with the defaults (one use per turn) it never matters.
- Under `lender_timing: any_phase` a borrowed Camp, Village or Bank in the spending phase has
  no effect left to give (D15), but the debt is still taken.
"""

from __future__ import annotations

from domain.games.province.actions import RepayLender, UseLender
from domain.games.province.engine import Ctx, afford, enter_spending, reject, spending_gate
from domain.games.province.events import CoinsPaid, LaborGained, LenderCoinMoved, LenderUsed
from domain.games.province.goals import check_after_input
from domain.games.province.state import SUPPLY, State, other
from domain.games.province.turns import harbor_income
from domain.ruleset import Rejection

LENDER = "lender"
LABOR_PHASE_ONLY = ("worker:camp", "worker:village", "double_cycle_coins")


def use_gate(state: State, seat: str) -> Rejection | None:
    """The checks of `UseLender` that do not depend on the target (4.3 steps 1-4)."""
    if state.phase not in ("labor", "spending"):
        return reject("wrong_phase", "The Lender is used in the labor or spending phase.", "4.3")
    if not state.owns_effect(seat, LENDER):
        return reject("lender_not_built", "You need your own Lender to borrow a building.", "4.3")
    variants = state.rules.variants
    limit = variants.lender_uses_per_turn
    if limit is not None and len(state.turn_state.lender_used) >= limit:
        return reject("lender_already_used", "You have already used the Lender this turn.", "4.3")
    if state.lender_coin == seat and not variants.lender_use_while_holding:
        return reject("lender_coin_held", "You hold the Lender coin: repay it before borrowing again.", "4.3")
    return None


def check_use(state: State, action: UseLender, seat: str) -> Rejection | None:
    rules = state.rules
    target = rules.by_id.get(action.target)
    if target is None:
        return reject("invalid_payload", f"There is no building called {action.target!r}.", "7.6")
    gate = use_gate(state, seat)
    if gate is not None:
        return gate
    if target.effect == LENDER:
        return reject("invalid_lender_target", "The Lender cannot borrow a Lender.", "4.3")
    if not state.owns(other(seat), target.id):
        return reject("invalid_lender_target", f"Your opponent has not built the {target.name}.", "4.3")
    if rules.variants.lender_targets == "not_own" and state.owns(seat, target.id):
        return reject("invalid_lender_target", f"You have built the {target.name} yourself.", "4.3")
    if target.id in state.turn_state.lender_used:
        return reject(
            "invalid_lender_target", f"You have already borrowed the {target.name} this turn.", "4.3"
        )
    if (
        rules.variants.lender_timing == "by_target"
        and target.effect in LABOR_PHASE_ONLY
        and state.phase != "labor"
    ):
        return reject("lender_timing", f"The {target.name} can only be borrowed in the labor phase.", "4.3")
    if target.effect == "harbor" and state.ships is None:
        return reject("no_ship_state", "The ships have never been tossed.", "4.3")
    return None


def use(ctx: Ctx, action: UseLender, seat: str) -> None:
    target = ctx.state.rules.by_id[action.target]
    ctx.emit(LenderUsed(seat, target.id))
    if ctx.state.lender_coin != seat:
        ctx.emit(LenderCoinMoved(ctx.state.lender_coin, seat))
    source = f"lender_{target.id}"
    if target.effect == "turn_start_labor":
        ctx.emit(LaborGained(seat, 1, source))
    elif target.effect == "harbor":
        harbor_income(ctx, seat, source)
    check_after_input(ctx)


def check_repay(state: State, action: RepayLender, seat: str) -> Rejection | None:
    if state.rules.variants.lender_repay_timing == "any_time_own_turn":
        if state.phase not in ("labor", "spending"):
            return reject("wrong_phase", "The Lender coin is repaid during your turn.", "4.3")
    else:
        gate = spending_gate(state)
        if gate is not None:
            return gate
    if state.lender_coin != seat:
        return reject("not_holding_lender_coin", "You do not hold the Lender coin.", "4.3")
    return afford(state, seat, state.rules.data.lender_repay_cost, "coins", "Repaying the Lender", "4.3")


def repay(ctx: Ctx, action: RepayLender, seat: str) -> None:
    state = ctx.state
    if state.rules.variants.lender_repay_timing == "spending_phase":
        enter_spending(ctx, seat)
    ctx.emit(CoinsPaid(seat, state.rules.data.lender_repay_cost, "lender_repay"))
    ctx.emit(LenderCoinMoved(seat, SUPPLY))
    check_after_input(ctx)
