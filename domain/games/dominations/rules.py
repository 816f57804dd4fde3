"""Rules of Dominations + Provinces: `initial`, `setup` and `decide_state` (the ruleset's
`decide`, with the state its facts lead to; dominations-provinces.md sections 1.7, 3, 4, 5 and
6). Every check runs in the order section 4 lists, so the first failing
check names the error code; a rejection cites the spec section.

Rulings (where the spec leaves room):
- Physical mode records draws one card at a time: the engine answers an action that draws with
  `DrawsRequested`, and the recorder enters each observed card with `record_draw` (5.4). The
  number of requested cards is capped by what the draw and discard piles hold, so a short draw
  (5.3) needs no separate entry. Spy peek values are not recorded in physical mode (5.4 makes
  them optional).
- Under `retry_draw_rule = printed_plus_failures` the province's kept cards go to the
  rebellion discard pile after the new cards are drawn.
- A player holding no land tile (possible only with a short custom land supply) may end the
  turn from START or GROW_AFTER_FAIL without placing one.
- `base_effect` may be entered by the active seat (for itself or another seat), by the
  recorder or by the system; the S7 and S13a entries (`age_end_base_scoring`,
  `final_scoring`) only by the recorder or the system.
- Declared amounts (city and mastery costs, S7 and S13a entries) are checked for affordability
  and non-negative results only (section 0.3, DECLARED).
- The game is created with the catalog of the `catalog` option; an invalid catalog raises
  `RejectedError` with code `E_BAD_CATALOG` naming the failed check (data.py).
- `abandon_conquest` is refused (`E_CANNOT_ABANDON`) when the attack can succeed: C >= R and the
  hand reaches the required discard. Under the default discard rule this is exactly C >= R; under
  `discard_rule = cards_only` a player whose cards alone cannot reach R may abandon, otherwise
  the attack could neither succeed nor fail.
- Hegemon (6.5): which Hegemon objectives are active is base-game content, so the S7 entry
  declares whether the Hegemon token was active this Age (`hegemon_token_active`) and, when not
  configured, its VP; S9 then scores it STRICTLY (single leader with at least 1 card; ties score
  nothing).
- Spy peek under `spy_peek_short_pile = reshuffle_first` records the reshuffle with `order` =
  the whole new draw pile (the short pile's cards on top of the shuffled discard); in physical
  mode the discard multiset simply joins the draw multiset.
"""

from __future__ import annotations

from typing import Any

from domain.games.dominations import actions as ac
from domain.games.dominations import events as ev
from domain.games.dominations.building import (
    check_city,
    check_corsaires,
    check_mastery,
    check_monument,
    check_spy_peek,
    do_city,
    do_corsaires,
    do_mastery,
    do_monument,
    do_spy_peek,
)
from domain.games.dominations.conquest import (
    check_abandon,
    check_attempt,
    check_buy,
    check_knowledge,
    check_resolve,
    check_siege,
    check_spend,
    do_abandon,
    do_attempt,
    do_buy,
    do_knowledge,
    do_resolve,
    do_siege,
    do_spend,
)
from domain.games.dominations.creation import initial, setup, tables_for
from domain.games.dominations.data import (
    DOMAINS,
)
from domain.games.dominations.engine import Ctx, acting_seat, clean_signed, rej
from domain.games.dominations.placement import check_place, do_place
from domain.games.dominations.state import (
    GAME_OVER,
    State,
)
from domain.games.dominations.table_inputs import (
    check_base_effect,
    check_record,
    check_scoring,
    do_base_scoring,
    do_final,
    do_record,
    record_drawn,
)
from domain.games.dominations.turns import check_end, do_end
from domain.rng import Rng
from domain.ruleset import Command, Rejection


def check(state: State, command: Command) -> Rejection | None:
    action = command.action
    if state.step == GAME_OVER:
        return rej("E_GAME_OVER", "The game has ended.", "4.0")
    if isinstance(action, ac.RecordDraw):
        return check_record(state, action, command)
    if state.awaiting:
        return rej("E_OUTCOME_REQUIRED", "The table must first enter the drawn card(s).", "5.4")
    if isinstance(action, ac.AgeEndBaseScoring | ac.FinalScoring):
        return check_scoring(state, action, command)
    if isinstance(action, ac.BaseEffect):
        return check_base_effect(state, action, command)
    seat = acting_seat(state, command)
    if state.active is None or seat != state.active:
        return rej("E_NOT_YOUR_TURN", "It is not your turn.", "4.0")
    fn = CHECKS.get(type(action))
    if fn is None:
        return rej("E_BAD_PARAMS", "That is not a Dominations action.", "4.0")
    result: Rejection | None = fn(state, action, seat)
    return result


CHECKS: dict[type, Any] = {
    ac.PlaceTile: check_place,
    ac.BuyConquestCard: check_buy,
    ac.AttemptConquest: check_attempt,
    ac.UseSiegeEngines: check_siege,
    ac.SpendInfluence: check_spend,
    ac.ResolveConquest: check_resolve,
    ac.AbandonConquest: check_abandon,
    ac.ConquerWithKnowledge: check_knowledge,
    ac.CorsairesExchange: check_corsaires,
    ac.SpyPeek: check_spy_peek,
    ac.ContributeMonument: check_monument,
    ac.BuildCity: check_city,
    ac.AcquireMastery: check_mastery,
    ac.EndTurn: check_end,
}

DOS: dict[type, Any] = {
    ac.PlaceTile: do_place,
    ac.BuyConquestCard: do_buy,
    ac.AttemptConquest: do_attempt,
    ac.UseSiegeEngines: do_siege,
    ac.SpendInfluence: do_spend,
    ac.ResolveConquest: do_resolve,
    ac.AbandonConquest: do_abandon,
    ac.ConquerWithKnowledge: do_knowledge,
    ac.CorsairesExchange: do_corsaires,
    ac.SpyPeek: do_spy_peek,
    ac.ContributeMonument: do_monument,
    ac.BuildCity: do_city,
    ac.AcquireMastery: do_mastery,
    ac.EndTurn: do_end,
}


def decide_state(state: State, command: Command, rng: Rng) -> tuple[list[Any], State] | Rejection:
    """`decide`, with the state its facts lead to: each fact was folded as it was emitted."""
    rejection = check(state, command)
    if rejection is not None:
        return rejection
    ctx = Ctx(state, rng)
    action = command.action
    if isinstance(action, ac.RecordDraw):
        do_record(ctx, action)
    elif isinstance(action, ac.AgeEndBaseScoring):
        do_base_scoring(ctx, action)
    elif isinstance(action, ac.FinalScoring):
        do_final(ctx, action)
    elif isinstance(action, ac.BaseEffect):
        ctx.emit(
            ev.BaseEffectApplied(
                action.player,
                action.source_kind,
                action.source,
                clean_signed(action.knowledge),
                action.influence,
                action.vp,
                action.clamp,
                {d: action.cap_changes[d] for d in DOMAINS if d in action.cap_changes},
            )
        )
    else:
        seat = acting_seat(state, command)
        assert seat is not None
        DOS[type(action)](ctx, action, seat)
        if isinstance(action, ac.AttemptConquest) and action.drawn is not None:
            refused = record_drawn(ctx, action.drawn, command)
            if refused is not None:
                return refused
    return ctx.facts, ctx.state


__all__ = ["check", "decide_state", "initial", "setup", "tables_for"]
