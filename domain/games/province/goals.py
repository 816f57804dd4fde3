"""Goals and end conditions of Province (Kickstarter 2014): province.md sections 6 and 8.1.

Rulings (section 9): Workers counts access at the moment of a build or hire (D19, variant
`moved_in_one_turn`); labor counts every gain of the active player this turn, Union
conversions included unless D18's variant leaves them out (see `fold`); Two 2-VP structures
counts printed VP (D20) and Structures counts every build (D21), each with a `scored` variant.
`buildings_with_vp_at_least` counts buildings whose printed VP is at least `vp`.
"""

from __future__ import annotations

from domain.games.province.data import Goal
from domain.games.province.engine import Ctx
from domain.games.province.events import GoalClaimed, GoalRemoved, GoalRevealed, RandomInputRequested
from domain.games.province.state import State


def satisfied(state: State, goal: Goal, seat: str) -> bool:
    condition = goal.condition
    kind, n = condition.type, condition.n
    variants = state.rules.variants
    player = state.player(seat)
    if kind == "coins_at_least":
        return player.coins >= n
    if kind == "buildings_at_least":
        counted = player.first if variants.buildings_goal_counts == "scored" else player.built
        return len(counted) >= n
    if kind == "buildings_with_vp_at_least":
        counted = player.first if variants.twovp_goal_counts == "scored" else player.built
        by_id = state.rules.by_id
        return sum(1 for b in counted if by_id[b].vp >= condition.vp) >= n
    if kind == "labor_gained_this_turn_at_least":
        # The non-active player's labor gained is 0 for goal checks (section 9).
        return seat == state.active and state.turn_state.labor_gained >= n
    if kind == "non_green_access_at_least":
        if variants.workers_goal_basis == "moved_in_one_turn":
            return seat == state.active and state.turn_state.nongreen_moved >= n
        return state.access(seat) >= n
    return False


def goal_loop(ctx: Ctx) -> bool:
    """The goal check of 6.3. False when it stopped to wait for a physical reveal."""
    while True:
        state = ctx.state
        if state.awaiting is not None:
            return False
        goal_id = state.goals.revealed
        if goal_id is None:
            return True
        goal = state.rules.goal_by_id[goal_id]
        a, b = satisfied(state, goal, "A"), satisfied(state, goal, "B")
        if a and b:
            ctx.emit(GoalRemoved(goal_id))
        elif a or b:
            ctx.emit(GoalClaimed("A" if a else "B", goal_id))
        else:
            return True
        _reveal_next(ctx)


def _reveal_next(ctx: Ctx) -> None:
    goals = ctx.state.goals
    if ctx.state.mode == "digital":
        if goals.hidden:
            ctx.emit(GoalRevealed(goals.hidden[0]))
    elif goals.hidden_count > 0:
        ctx.emit(RandomInputRequested("goal_reveal"))


def check_after_input(ctx: Ctx) -> None:
    """D17: by default goals are checked after every accepted input."""
    if ctx.state.rules.variants.goal_check == "immediate":
        goal_loop(ctx)


def end_conditions(state: State) -> tuple[str, ...]:
    """The end conditions of 8.1 that hold now, in the spec's order."""
    data = state.rules.data
    a, b = state.players
    reasons: list[str] = []
    if max(len(a.built), len(b.built)) >= data.tokens_per_player:
        reasons.append("seven_buildings")
    if all(x.id in a.built or x.id in b.built for x in data.buildings):
        reasons.append("all_buildings_built")
    goals = state.goals
    if goals.revealed is None and goals.hidden_count == 0 and state.awaiting != "goal_reveal":
        reasons.append("all_goals_resolved")
    return tuple(reasons)
