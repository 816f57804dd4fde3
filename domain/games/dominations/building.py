"""The Build and Develop actions and the Corsaires and Spy extras (dominations-provinces.md
4.2.10-4.2.13): Corsaires exchanges, the Spy's peek, monuments, Cities and masteries."""

from __future__ import annotations

from domain.games.dominations import actions as ac
from domain.games.dominations import events as ev
from domain.games.dominations.board import (
    cell_name,
    parse_cell,
)
from domain.games.dominations.data import (
    DOMAINS,
)
from domain.games.dominations.engine import OWN_TURN, Ctx, bad_map, can_pay, clean, rej
from domain.games.dominations.state import (
    BUILD,
    DEVELOP,
    START,
    Player,
    State,
)
from domain.ruleset import Rejection


def check_corsaires(state: State, a: ac.CorsairesExchange, seat: str) -> Rejection | None:
    if state.step not in OWN_TURN:
        return rej("E_WRONG_STEP", "Corsaires is used during your own turn.", "4.2.10")
    swap = state.opt("corsaires_exchange") == "any_knowledge_swap"
    if not swap and (a.from_ is not None or a.to is not None):
        return rej("E_BAD_PARAMS", "Corsaires exchanges 1 TRA for 1 Influence: no domains to name.", "4.2.10")
    copies = state.owns(seat, "corsaires")
    if not copies:
        return rej("E_NO_MASTERY", "You do not own Corsaires.", "4.2.10")
    per_turn = int(state.opt("corsaires_per_turn"))
    if per_turn and state.turn.corsaires_used >= per_turn * copies:
        return rej("E_CORSAIRES_USED", "Corsaires was already used this turn.", "4.2.10")
    if swap:
        if a.from_ not in DOMAINS or a.to not in DOMAINS or a.from_ == a.to:
            return rej("E_BAD_PARAMS", "Name two different domains, from and to.", "4.2.10")
        if state.player(seat).k(a.from_) < 1:
            return rej("E_INSUFFICIENT_KNOWLEDGE", f"You have no {a.from_} Knowledge.", "4.2.10")
        return None
    if state.player(seat).k("TRA") < 1:
        return rej("E_INSUFFICIENT_KNOWLEDGE", "Corsaires costs 1 TRA Knowledge.", "4.2.10")
    return None


def do_corsaires(ctx: Ctx, a: ac.CorsairesExchange, seat: str) -> None:
    if a.from_ is not None and a.to is not None:
        ctx.emit(ev.CorsairesExchanged(seat, a.from_, a.to))
    else:
        ctx.emit(ev.CorsairesExchanged(seat))


def check_spy_peek(state: State, a: ac.SpyPeek, seat: str) -> Rejection | None:
    if not state.opt("spy_peek_allows_abort") or state.step != START:
        return rej("E_WRONG_STEP", "The Spy peeks only as part of an attack.", "7.11")
    if state.dominance.get("SPY") != seat:
        return rej("E_NO_SPY", "You do not hold the Spy.", "6.4")
    return None


def do_spy_peek(ctx: Ctx, a: ac.SpyPeek, seat: str) -> None:
    cards = ctx.state.rebellion.draw[:5] if ctx.state.mode == "digital" else ()
    ctx.emit(ev.SpyPeeked(seat, cards))


def check_monument(state: State, a: ac.ContributeMonument, seat: str) -> Rejection | None:
    if state.step == DEVELOP:
        return rej("E_PHASE_PASSED", "Build actions end with the first mastery.", "3.2")
    if state.step != BUILD:
        return rej("E_WRONG_STEP", "Monuments are contributed in the Build step.", "4.2.12")
    if bad_map(a.cost) or a.vp < 0 or not a.monument_id or not a.level_card_id:
        return rej("E_BAD_PARAMS", "Malformed monument contribution.", "4.0")
    if state.turn.build_actions >= int(state.opt("max_build_actions_per_turn")):
        return rej("E_BUILD_LIMIT", "No Build action is left this turn.", "4.2.12")
    if not can_pay(state.player(seat), a.cost):
        return rej("E_INSUFFICIENT_KNOWLEDGE", "You cannot pay that cost.", "4.2.12")
    return None


def do_monument(ctx: Ctx, a: ac.ContributeMonument, seat: str) -> None:
    ctx.emit(ev.MonumentContributed(seat, a.monument_id, a.level_card_id, clean(a.cost), a.vp))


def check_city(state: State, a: ac.BuildCity, seat: str) -> Rejection | None:
    if state.step == DEVELOP:
        return rej("E_PHASE_PASSED", "Build actions end with the first mastery.", "3.2")
    if state.step != BUILD:
        return rej("E_WRONG_STEP", "Cities are built in the Build step.", "4.2.11")
    cell = parse_cell(a.cell)
    if cell is None or bad_map(a.cost):
        return rej("E_BAD_PARAMS", "Malformed cell or cost.", "4.0")
    if state.turn.build_actions >= int(state.opt("max_build_actions_per_turn")):
        return rej("E_BUILD_LIMIT", "No Build action is left this turn.", "4.2.11")
    placed = state.board.get(cell_name(cell))
    if placed is None:
        return rej("E_BAD_CITY", "That cell holds no tile.", "4.2.11")
    if placed.city_owner is None:
        if a.new_level != 1:
            return rej("E_BAD_CITY", "A new City has level 1.", "4.2.11")
    elif placed.city_owner != seat or a.new_level != placed.city_level + 1:
        return rej("E_BAD_CITY", "Only your own City is upgraded, one level at a time.", "4.2.11")
    camp = placed.face.camp if placed.face is not None else None
    if camp is not None and any(v and d != camp for d, v in a.cost.items()):
        return rej("E_WRONG_COST_DOMAIN", f"This City is paid with {camp} Knowledge.", "4.2.11")
    if not can_pay(state.player(seat), a.cost):
        return rej("E_INSUFFICIENT_KNOWLEDGE", "You cannot pay that cost.", "4.2.11")
    return None


def do_city(ctx: Ctx, a: ac.BuildCity, seat: str) -> None:
    cell = parse_cell(a.cell)
    assert cell is not None
    ctx.emit(ev.CityBuilt(seat, cell_name(cell), a.new_level, clean(a.cost)))


def tree_slots(p: Player) -> list[tuple[int, int]]:
    taken = {(0, 0), *(m.pos for m in p.masteries)}
    out = {
        (x + dx, y + dy)
        for x, y in taken
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if (x + dx, y + dy) not in taken
    }
    return sorted(out)


def check_mastery(state: State, a: ac.AcquireMastery, seat: str) -> Rejection | None:
    if state.step not in (BUILD, DEVELOP):
        return rej("E_WRONG_STEP", "Masteries are acquired in the Build or Develop step.", "4.2.13")
    if bad_map(a.cost):
        return rej("E_BAD_PARAMS", "Malformed cost.", "4.0")
    if state.turn.mastery_actions >= int(state.opt("max_masteries_per_turn")):
        return rej("E_MASTERY_LIMIT", "No mastery is left to acquire this turn.", "4.2.13")
    if a.card not in state.mastery_supply:
        return rej("E_CARD_NOT_IN_PILE", f"{a.card} is not in the mastery supply.", "4.2.13")
    p = state.player(seat)
    if a.pos not in tree_slots(p):
        return rej("E_BAD_TREE_POSITION", "Place the card orthogonally next to your tree.", "4.2.13")
    m = state.tables.masteries[a.card]
    # 7.22 variant: Conscription has no domain and is paid with any mix.
    domainless = m.effect == "conscription" and state.opt("conscription_domainless")
    if m.cost is not None and (
        sum(a.cost.values()) != m.cost
        or (not domainless and any(v and d != m.domain for d, v in a.cost.items()))
    ):
        return rej("E_WRONG_COST", f"{m.name} costs {m.cost} {m.domain}.", "4.2.13")
    if not can_pay(p, a.cost):
        return rej("E_INSUFFICIENT_KNOWLEDGE", "You cannot pay that cost.", "4.2.13")
    return None


def do_mastery(ctx: Ctx, a: ac.AcquireMastery, seat: str) -> None:
    ctx.emit(ev.MasteryAcquired(seat, a.card, a.pos, clean(a.cost)))
