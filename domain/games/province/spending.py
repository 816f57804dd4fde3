"""The spending phase of Province (Kickstarter 2014): `Build`, `Grind`, `UnionConvert`,
`HireSailor` and `EndTurn`, province.md sections 3.3, 3.4, 4.1, 5.3 and 7.3.

A multi-count `Grind` or `UnionConvert` is validated and applied as one input; it emits one
payment and one gain per unit and runs the goal check once (section 9).
"""

from __future__ import annotations

from domain.games.province.actions import Build, EndTurn, Grind, HireSailor, UnionConvert
from domain.games.province.engine import Ctx, afford, enter_spending, reject, repeat_gate, spending_gate
from domain.games.province.events import (
    BuildingBuilt,
    CoinsPaid,
    HarborMasterSet,
    LaborGained,
    LaborSpent,
    SailorHired,
    WorkerPlaced,
)
from domain.games.province.goals import check_after_input
from domain.games.province.state import WORKER_EFFECT_PREFIX, State
from domain.games.province.turns import HARBOR, end_turn, gain_coins
from domain.ruleset import Rejection

UNION = "coin_to_labor"


def build_gate(state: State, seat: str) -> Rejection | None:
    """The checks of `Build` that do not depend on the building (4.1, first two)."""
    gate = spending_gate(state)
    if gate is not None:
        return gate
    limit = state.rules.variants.max_builds_per_turn
    if limit is not None and state.turn_state.builds >= limit:
        return reject("build_limit_reached", "You cannot build again this turn.", "4.1")
    return None


def check_build(state: State, action: Build, seat: str) -> Rejection | None:
    building = state.rules.by_id.get(action.building)
    if building is None:
        return reject("invalid_payload", f"There is no building called {action.building!r}.", "7.6")
    gate = build_gate(state, seat)
    if gate is not None:
        return gate
    player = state.player(seat)
    if building.id in player.built:
        return reject("already_built", f"You have already built the {building.name}.", "4.1")
    if len(player.built) >= state.rules.data.tokens_per_player:
        return reject("no_building_tokens", "You have no building token left.", "4.1")
    missing = [r for r in building.requires if r not in player.built]
    if missing:
        names = ", ".join(state.rules.by_id[r].name for r in missing)
        return reject("prerequisite_missing", f"The {building.name} requires your own {names}.", "4.1")
    what = f"The {building.name}"
    return afford(state, seat, building.cost_labor, "labor", what, "4.1") or afford(
        state, seat, building.cost_coins, "coins", what, "4.1"
    )


def build(ctx: Ctx, action: Build, seat: str) -> None:
    enter_spending(ctx, seat)
    building = ctx.state.rules.by_id[action.building]
    first = not ctx.state.built_by_anyone(building.id)
    if building.cost_labor:
        ctx.emit(LaborSpent(seat, building.cost_labor, "build"))
    if building.cost_coins:
        ctx.emit(CoinsPaid(seat, building.cost_coins, "build"))
    ctx.emit(BuildingBuilt(seat, building.id, first, building.vp if first else 0))
    if first and building.effect.startswith(WORKER_EFFECT_PREFIX):
        # There is one Camp piece and one Village piece: only the first build places it.
        piece = building.effect.removeprefix(WORKER_EFFECT_PREFIX)
        ctx.emit(WorkerPlaced(piece, ctx.state.rules.data.placement_space))
    if first and building.effect == HARBOR:
        ctx.emit(HarborMasterSet(seat))
    check_after_input(ctx)


def check_grind(state: State, action: Grind, seat: str) -> Rejection | None:
    rate = state.rules.data.grind
    what = f"Grinding {action.count} times"
    refused = repeat_gate(state, action.count, "Grind") or afford(
        state, seat, rate.labor * action.count, "labor", what, "3.3"
    )
    if refused is not None:
        return refused
    if state.rules.variants.grind_on_empty_supply == "reject" and state.supply() < rate.coins * action.count:
        return reject("supply_empty", "The supply has too few coins to pay for this Grind.", "D5")
    return None


def grind(ctx: Ctx, action: Grind, seat: str) -> None:
    enter_spending(ctx, seat)
    rate = ctx.state.rules.data.grind
    for _ in range(action.count):
        ctx.emit(LaborSpent(seat, rate.labor, "grind"))
        gain_coins(ctx, seat, rate.coins, "grind")
    check_after_input(ctx)


def check_union(state: State, action: UnionConvert, seat: str) -> Rejection | None:
    gate = repeat_gate(state, action.count, "Convert")
    if gate is not None:
        return gate
    if not state.uses_effect(seat, UNION):
        return reject("union_not_available", "You need a Union, built or borrowed, to convert coins.", "3.3")
    limit = state.rules.variants.union_uses_per_turn
    if limit is not None and state.turn_state.union_uses + action.count > limit:
        return reject("union_limit_reached", f"The Union may be used {limit} times per turn.", "D8")
    cost = state.rules.data.union.coins * action.count
    return afford(state, seat, cost, "coins", f"Converting {action.count} times", "3.3")


def union(ctx: Ctx, action: UnionConvert, seat: str) -> None:
    enter_spending(ctx, seat)
    rate = ctx.state.rules.data.union
    for _ in range(action.count):
        ctx.emit(CoinsPaid(seat, rate.coins, "union"))
        ctx.emit(LaborGained(seat, rate.labor, "union"))
    check_after_input(ctx)


def check_hire(state: State, action: HireSailor, seat: str) -> Rejection | None:
    gate = spending_gate(state)
    if gate is not None:
        return gate
    if not state.uses_effect(seat, HARBOR):
        return reject(
            "harbor_not_available", "You need a Harbor, built or borrowed, to hire a sailor.", "5.3"
        )
    if state.ships is None:
        return reject("no_ship_state", "The ships have never been tossed.", "5.3")
    if state.ships.result != "WB":
        return reject(
            "ships_not_white_black", "Sailors are hired only when the ships show white and black.", "5.3"
        )
    if state.turn_state.hired_sailor:
        return reject("sailor_limit_per_turn", "You have already hired a sailor this turn.", "5.3")
    if state.sailors_available(seat) < 1:
        return reject("no_sailor_available", "No sailor is left to hire.", "5.3")
    return afford(state, seat, state.rules.data.sailor_cost, "coins", "A sailor", "5.3")


def hire(ctx: Ctx, action: HireSailor, seat: str) -> None:
    enter_spending(ctx, seat)
    ctx.emit(CoinsPaid(seat, ctx.state.rules.data.sailor_cost, "sailor"))
    ctx.emit(SailorHired(seat))
    ctx.emit(WorkerPlaced("sailor", ctx.state.rules.data.placement_space, seat))
    check_after_input(ctx)


def check_end(state: State, action: EndTurn, seat: str) -> Rejection | None:
    if state.phase not in ("labor", "spending"):
        return reject("wrong_phase", "The turn cannot end now.", "3.4")
    if state.turn_state.moves < 1:
        return reject("no_worker_moved", "Move at least one worker before ending the turn.", "3.4")
    return None


def finish_turn(ctx: Ctx, action: EndTurn, seat: str) -> None:
    end_turn(ctx)
