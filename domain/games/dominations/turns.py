"""The end of a turn and of an Age (dominations-provinces.md 4.2.15 and section 6): the next
player, end-of-Age province effects, Dominance and the final scoring."""

from __future__ import annotations

from collections.abc import Mapping

from domain.games.dominations import actions as ac
from domain.games.dominations import events as ev
from domain.games.dominations.creation import dominance_cards, dominance_vp_map
from domain.games.dominations.engine import Ctx, rej
from domain.games.dominations.fold import evolve
from domain.games.dominations.state import (
    BUILD,
    DEVELOP,
    GROW_AFTER_FAIL,
    PLACE_PROVINCE,
    START,
    Player,
    State,
)
from domain.ruleset import Rejection


def check_end(state: State, a: ac.EndTurn, seat: str) -> Rejection | None:
    # Ruling: a player without land tiles (a short custom land supply) cannot place one, so
    # the turn may end from START or GROW_AFTER_FAIL; a conquered tile must still be placed.
    if not state.player(seat).land_hand and state.step in (START, GROW_AFTER_FAIL):
        return None
    if state.step in (START, PLACE_PROVINCE, GROW_AFTER_FAIL):
        return rej("E_GROW_NOT_DONE", "Place the turn's tile before ending the turn.", "4.2.15")
    if state.step not in (BUILD, DEVELOP):
        return rej("E_WRONG_STEP", "The turn cannot end now.", "4.2.15")
    return None


def seat_order(state: State) -> tuple[str, ...]:
    i = state.seats.index(state.first_player)
    return state.seats[i:] + state.seats[:i]


def do_end(ctx: Ctx, a: ac.EndTurn, seat: str) -> None:
    state = ctx.state
    order = seat_order(state)
    i = order.index(seat)
    if i + 1 < len(order):
        ctx.emit(ev.TurnEnded(seat, order[i + 1], state.round, False))
        return
    if state.round < int(state.opt("turns_per_age")):
        ctx.emit(ev.TurnEnded(seat, order[0], state.round + 1, False))
        return
    ctx.emit(ev.TurnEnded(seat, None, state.round, True))
    ctx.emit(ev.ProvinceAgeEffects(state.age, _age_effects(ctx.state)))
    if state.opt("eoa_dominance_before_base_scoring"):
        ctx.emit(award_dominance(ctx.state, dominance_vp_map(state.options) or {}))


def _metric(p: Player, name: str) -> int:
    if name == "vp":
        return p.vp
    if name == "influence":
        return p.influence
    return p.k(name.split(":", 1)[1])


def _loss(p: Player, resource: str, amount: int, vp_floor: bool) -> ev.Loss:
    if resource == "vp":
        return ev.Loss(p.seat, vp=min(amount, p.vp) if vp_floor else amount)
    if resource == "influence":
        return ev.Loss(p.seat, influence=min(amount, p.influence))
    d = resource.split(":", 1)[1]
    return ev.Loss(p.seat, knowledge={d: min(amount, p.k(d))} if min(amount, p.k(d)) else {})


def _age_effects(state: State) -> tuple[ev.ProvinceEffect, ...]:
    """S6: end-of-Age province effects, one at a time, each seeing the previous results."""
    provinces = state.tables.provinces
    avail = list(state.available)
    if state.opt("eoa_province_order") == "tile_number":
        avail.sort(key=lambda a: provinces[a.province_id].tile_no)
    vp_floor = bool(state.opt("vp_floor_zero"))
    out: list[ev.ProvinceEffect] = []
    running = state
    for av in avail:
        effect = provinces[av.province_id].effect
        if effect.timing != "end_of_age":
            continue
        params = effect.params
        losses: list[ev.Loss] = []
        if effect.kind == "all_lose":
            losses = [_loss(p, params["resource"], int(params["amount"]), vp_floor) for p in running.players]
        elif effect.kind == "rank_loss":
            values = [_metric(p, params["metric"]) for p in running.players]
            top = max(values)
            tied = values.count(top) > 1
            for p, v in zip(running.players, values, strict=True):
                amount = params["top_amount"] if v == top else params["others_amount"]
                if v == top and tied and state.opt("rank_loss_tie") == "tied_lose_others_amount":
                    amount = params["others_amount"]
                losses.append(_loss(p, params["resource"], int(amount), vp_floor))
        item = ev.ProvinceEffect(av.province_id, effect.kind, tuple(losses))
        running = evolve(running, ev.ProvinceAgeEffects(state.age, (item,)))
        out.append(item)
    return tuple(out)


def award_dominance(state: State, vp_map: Mapping[str, int]) -> ev.DominanceAwarded:
    """S8: strictly the most Knowledge of the card's domain holds it for the next Age."""
    holders: dict[str, str | None] = {}
    vp: dict[str, int] = {}
    for card, domain in dominance_cards(state.options):
        values = [p.k(domain) for p in state.players]
        top = max(values)
        if top > 0 and values.count(top) == 1:
            holder: str | None = state.seats[values.index(top)]
        else:
            holder = state.dominance.get(card) if state.opt("dominance_tie") == "keep_previous" else None
        holders[card] = holder
        if holder is not None and vp_map.get(card):
            vp[holder] = vp.get(holder, 0) + vp_map[card]
    return ev.DominanceAwarded(state.age, holders, vp)
