"""Rules entry points of Province (Laboratory, Kickstarter 2014 with 5 goal tokens):
`initial`, `setup`, `decide_state` (the ruleset's `decide`, with the state its facts lead to),
`pending`, `outcome` and `progress` (province.md sections 1-8).

`decide` runs the common checks of 7.6 in order (`game_over`, `random_input_not_allowed`,
`awaiting_random_input`, `not_active_player`, then each action's own payload and rule checks)
and returns the facts of an accepted input, each already folded into a running state.

Who acts (`Command.by`): a seat's token acts for its own seat; the recorder (and the engine)
may act for any seat, `Command.seat` None meaning the active seat. Random inputs are physical
only and come from the recorder (see `table_inputs`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.endings import ranked_resignation
from domain.games.province import lender
from domain.games.province.actions import (
    RANDOM_INPUTS,
    Action,
    Build,
    EndTurn,
    Grind,
    HireSailor,
    MoveWorker,
    RepayLender,
    UnionConvert,
    UseLender,
)
from domain.games.province.cycle import check_move, move
from domain.games.province.data import DATA
from domain.games.province.engine import Ctx, reject
from domain.games.province.events import Fact, RandomInputRequested
from domain.games.province.options import variants_from
from domain.games.province.scoring import score
from domain.games.province.spending import (
    build,
    check_build,
    check_end,
    check_grind,
    check_hire,
    check_union,
    finish_turn,
    grind,
    hire,
    union,
)
from domain.games.province.state import SEATS, Space, State, make_rules
from domain.games.province.table_inputs import AWAITING_TEXT, draw_setup
from domain.games.province.table_inputs import apply as apply_table_input
from domain.games.province.table_inputs import check as check_table_input
from domain.games.province.turns import finish
from domain.rng import Rng
from domain.ruleset import Command, GameConfig, Outcome, Rejection

Check = Callable[[State, Any, str], Rejection | None]
Apply = Callable[[Ctx, Any, str], None]

PLAYER_RULES: dict[type[Any], tuple[Check, Apply]] = {
    MoveWorker: (check_move, move),
    Build: (check_build, build),
    Grind: (check_grind, grind),
    UnionConvert: (check_union, union),
    HireSailor: (check_hire, hire),
    UseLender: (lender.check_use, lender.use),
    RepayLender: (lender.check_repay, lender.repay),
    EndTurn: (check_end, finish_turn),
}


def initial(config: GameConfig) -> State:
    """The state before setup: greens on the cycle, everything else in the box (1.2 step 5)."""
    rules = make_rules(DATA, variants_from(config.options))
    spaces = len(rules.space_ids)
    greens = [
        rules.data.green_workers // spaces + (i < rules.data.green_workers % spaces) for i in range(spaces)
    ]
    board = tuple(Space(green=g) for g in greens)
    state = State(rules=rules, mode=config.mode, board=board)
    if config.mode == "physical":
        return replace(state, goals=replace(state.goals, hidden_count=rules.data.goals_in_play))
    return state


def setup(config: GameConfig, state: State, rng: Rng) -> list[Fact]:
    ctx = Ctx(state, rng)
    if state.mode == "physical":
        ctx.emit(RandomInputRequested("first_player"))
        return ctx.facts
    draw_setup(ctx)
    finish(ctx)
    return ctx.facts


def acting_seat(state: State, command: Command) -> str | None:
    if command.seat is not None:
        return command.seat
    return None if command.by == "seat" else state.active


def check(state: State, command: Command) -> Rejection | None:
    """Every check of 7.6 for one command, in the spec's order; None when it is legal."""
    action = command.action
    if state.status == "finished":
        return reject("game_over", "The game is over.", "8.1")
    if isinstance(action, RANDOM_INPUTS):
        return check_table_input(state, action, command.by)
    rule = PLAYER_RULES.get(type(action))
    if rule is None:
        return reject("invalid_payload", "That is not a Province action.", "7.6")
    if state.awaiting is not None:
        return reject(
            "awaiting_random_input", f"The table must first enter {AWAITING_TEXT[state.awaiting]}.", "7.6"
        )
    seat = acting_seat(state, command)
    if seat is None or seat != state.active:
        return reject("not_active_player", "It is not your turn.", "7.3")
    return rule[0](state, action, seat)


def decide_state(state: State, command: Command, rng: Rng) -> tuple[list[Fact], State] | Rejection:
    """`decide`, with the state its facts lead to: each fact was folded as it was emitted."""
    rejection = check(state, command)
    if rejection is not None:
        return rejection
    ctx = Ctx(state, rng)
    action: Action = command.action
    if isinstance(action, RANDOM_INPUTS):
        apply_table_input(ctx, action)
    else:
        seat = acting_seat(state, command)
        assert seat is not None
        PLAYER_RULES[type(action)][1](ctx, action, seat)
    finish(ctx)
    return ctx.facts, ctx.state


def outcome(state: State) -> Outcome | None:
    end = state.end
    if end is None:
        return None
    scores = {seat: end.scores[seat].total for seat in SEATS}
    if end.winner is None:
        ranks = dict.fromkeys(SEATS, 1)
        winners: tuple[str, ...] = ()
    else:
        ranks = {seat: 1 if seat == end.winner else 2 for seat in SEATS}
        winners = (end.winner,)
    details: dict[str, Any] = {
        "scores": {seat: msgspec.to_builtins(end.scores[seat]) for seat in SEATS},
        "winner": end.winner,
        "tie_break": end.tie_break,
        "reasons": list(end.reasons),
    }
    return Outcome(scores=scores, ranks=ranks, winners=winners, details=details, reason=",".join(end.reasons))


def resign_outcome(state: State, seat: str) -> Outcome:
    """`seat` concedes: the other player wins whatever the score, scored as at the end (8.2)."""
    scores = {s: score(state, s) for s in SEATS}
    order = {s: (-scores[s].total, -scores[s].buildings) for s in SEATS}
    details = {"scores": {s: msgspec.to_builtins(scores[s]) for s in SEATS}}
    return ranked_resignation({s: scores[s].total for s in SEATS}, seat, order, details)


def progress(state: State) -> tuple[int, str | None]:
    if state.status != "in_progress" or state.awaiting is not None:
        return (state.turn, None)
    return (state.turn, state.active)
