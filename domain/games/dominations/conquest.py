"""Conquest in Dominations + Provinces (dominations-provinces.md 4.2.2-4.2.9): buying
conquest cards, attempting a province, the attack window, success, failure and the knowledge
conquest."""

from __future__ import annotations

from collections import Counter

from domain.games.dominations import actions as ac
from domain.games.dominations import events as ev
from domain.games.dominations.data import (
    DOMAINS,
)
from domain.games.dominations.engine import (
    OWN_TURN,
    Ctx,
    available_cards,
    bad_map,
    clean,
    contains,
    digest,
    draw_cards,
    rej,
)
from domain.games.dominations.state import (
    ATTACK,
    START,
    Deck,
    DrawRequest,
    State,
    bonus,
    conquest_value,
)
from domain.ruleset import Rejection


def _buy_domain(a: ac.BuyConquestCard) -> str | None:
    if a.payment is not None:
        used = [d for d, v in a.payment.items() if v]
        if len(used) == 1 and a.payment[used[0]] == 2 and a.domain in (None, used[0]):
            return used[0]
        return None
    return a.domain


def check_buy(state: State, a: ac.BuyConquestCard, seat: str) -> Rejection | None:
    if state.step not in OWN_TURN:
        return rej("E_WRONG_STEP", "Conquest cards are bought during your own turn.", "4.2.2")
    if a.payment is not None and len([d for d, v in a.payment.items() if v]) > 1:
        return rej(
            "E_BAD_PARAMS",
            "A conquest card costs 2 Knowledge of one domain; it cannot be paid with two domains.",
            "4.2.2",
        )
    domain = _buy_domain(a)
    if domain not in DOMAINS:
        return rej("E_BAD_PARAMS", "Name one domain and pay 2 Knowledge of it.", "4.2.2")
    p = state.player(seat)
    if p.k(domain) < 2:
        return rej("E_INSUFFICIENT_KNOWLEDGE", f"You need 2 {domain} Knowledge.", "4.2.2")
    if not available_cards(state.conquest):
        return rej("E_DECK_EXHAUSTED", "No conquest card is left to draw.", "4.2.2")
    limit = int(state.opt("conquest_hand_limit"))
    if limit and len(p.conquest_hand) >= limit:
        return rej("E_HAND_LIMIT", "Your conquest hand is full.", "7.31")
    if (
        state.step == ATTACK
        and state.opt("post_reveal_buy_only_when_short")
        and state.attack is not None
        and conquest_value(state) >= state.attack.rebellion_value
    ):
        return rej("E_INFLUENCE_NOT_NEEDED", "Your conquest value already reaches the rebellion.", "7.7")
    return None


def do_buy(ctx: Ctx, a: ac.BuyConquestCard, seat: str) -> None:
    domain = _buy_domain(a)
    assert domain is not None
    must = ctx.state.step == ATTACK
    if ctx.state.mode == "physical":
        ctx.emit(ev.ConquestCardBought(seat, domain, None, must))
        target = f"{'must' if must else 'hand'}:{seat}"
        ctx.emit(ev.DrawsRequested((DrawRequest("conquest", target),)))
        return
    cards, reshuffles = draw_cards(ctx.state.conquest, "conquest", 1, ctx.rng)
    ctx.emit(ev.ConquestCardBought(seat, domain, cards[0], must, reshuffles))


def _draw_reduction(state: State, seat: str) -> int:
    """The rebellion draws the seat's masteries take off (1.5): copies of one mastery (the
    same name) count once, unless `mastery_effects_stack`."""
    masteries = state.tables.masteries
    owned = [masteries[m.card_id] for m in state.player(seat).masteries]
    if state.opt("mastery_effects_stack"):
        return sum(m.rebellion_draw_reduction for m in owned)
    best: dict[str, int] = {}
    for m in owned:
        best[m.name] = max(best.get(m.name, 0), m.rebellion_draw_reduction)
    return sum(best.values())


def _draw_plan(state: State, province_id: str, seat: str) -> tuple[tuple[str, ...], int, tuple[str, ...]]:
    """(kept cards taken, number of new cards to draw, kept cards discarded)."""
    av = state.avail(province_id)
    assert av is not None
    prov = state.tables.provinces[province_id]
    reduction = _draw_reduction(state, seat)
    if av.failed_attempts > 0:
        if state.opt("retry_draw_rule") == "kept_plus_one":
            return av.kept, 1, ()
        return (), max(0, prov.rebellion_draws - reduction) + av.failed_attempts, av.kept
    return (), max(0, prov.rebellion_draws - reduction), ()


def check_attempt(state: State, a: ac.AttemptConquest, seat: str) -> Rejection | None:
    if state.step != START:
        return rej("E_WRONG_STEP", "A conquest is attempted at the start of the turn, as its Grow.", "4.2.3")
    av = state.avail(a.province)
    if av is None:
        return rej("E_PROVINCE_NOT_AVAILABLE", f"{a.province} is not an available province.", "4.2.3")
    if not state.opt("retry_by_failed_player") and av.last_failed_by == seat:
        return rej("E_RETRY_NOT_ALLOWED", "The last failed attacker may not retry.", "7.6")
    if a.use_spy and state.dominance.get("SPY") != seat:
        return rej("E_NO_SPY", "You do not hold the Spy.", "6.4")
    if a.spy_peek is not None:
        if state.mode == "digital":
            return rej("E_OUTCOME_NOT_ALLOWED", "In a digital game the server shows the Spy's cards.", "4.0")
        if not a.use_spy:
            return rej("E_BAD_PARAMS", "A peek is recorded only with use_spy.", "5.4")
        deck = state.rebellion
        pile = deck.draw + deck.discard if _peek_reshuffles(state, a) else deck.draw
        if len(a.spy_peek) > 5 or not contains(pile, a.spy_peek):
            return rej("E_CARD_NOT_IN_PILE", "The peeked cards are not in the rebellion draw pile.", "5.4")
    if a.use_siege and state.opt("siege_timing") != "before_draw":
        return rej("E_BAD_PARAMS", "use_siege exists only with siege_timing = before_draw.", "4.2.3")
    if a.drawn is not None and state.mode == "digital":
        return rej("E_OUTCOME_NOT_ALLOWED", "In a digital game the server draws.", "4.0")
    _, k, _ = _draw_plan(state, a.province, seat)
    if state.opt("exhausted_deck") == "reject_attempt" and k > available_cards(state.rebellion):
        return rej("E_DECK_EXHAUSTED", "The rebellion draw cannot be completed.", "7.32")
    if a.use_siege:
        return _siege_checks(state, seat, 0)
    return None


def _peek_reshuffles(state: State, a: ac.AttemptConquest) -> bool:
    """7.12 variant: a Spy peek at a short pile first shuffles the discard under it."""
    deck = state.rebellion
    short = len(deck.draw) < 5 and bool(deck.discard)
    return a.use_spy and short and state.opt("spy_peek_short_pile") == "reshuffle_first"


def do_attempt(ctx: Ctx, a: ac.AttemptConquest, seat: str) -> None:
    state = ctx.state
    kept, k, discarded = _draw_plan(state, a.province, seat)
    prov = state.tables.provinces[a.province]
    conscription = 3 * state.owns(seat, "conscription")
    base = prov.base_rebellion + sum(state.strength(c) for c in kept)
    siege = "influence" if state.opt("siege_cost") == "influence" else "CRA"
    if state.mode == "physical":
        k = min(k, available_cards(state.rebellion))
        peek = a.spy_peek if a.use_spy else None
        merged: tuple[ev.Reshuffled, ...] = ()
        if _peek_reshuffles(state, a):
            # Physical piles are multisets: the shuffled discard joins the draw pile.
            order = tuple(sorted(state.rebellion.draw + state.rebellion.discard))
            merged = (ev.Reshuffled("rebellion", state.rebellion.reshuffles + 1, 0, order, len(order)),)
        ctx.emit(
            ev.ConquestAttempted(
                seat, a.province, a.use_spy, peek, kept, (), merged, base, conscription, discarded
            )
        )
        if a.use_siege:
            ctx.emit(ev.SiegeEnginesUsed(seat, siege))
        if k:
            ctx.emit(ev.DrawsRequested((DrawRequest("rebellion", "attack"),) * k))
        return
    deck = state.rebellion
    pre: tuple[ev.Reshuffled, ...] = ()
    if _peek_reshuffles(state, a):
        # 7.12 variant: the discard pile is shuffled and put under the short draw pile.
        n = deck.reshuffles + 1
        order = deck.draw + tuple(ctx.rng.shuffle("rebellion", n, tuple(sorted(deck.discard))))
        pre = (ev.Reshuffled("rebellion", n, 0, order, len(order), digest(order)),)
        deck = Deck(order, (), n)
    peek = deck.draw[:5] if a.use_spy else None
    drawn, reshuffles = draw_cards(deck, "rebellion", k, ctx.rng)
    r = base + sum(state.strength(c) for c in drawn)
    ctx.emit(
        ev.ConquestAttempted(
            seat, a.province, a.use_spy, peek, kept, drawn, pre + reshuffles, r, conscription, discarded
        )
    )
    if a.use_siege:
        ctx.emit(ev.SiegeEnginesUsed(seat, siege))


def _in_attack(state: State) -> Rejection | None:
    if state.step != ATTACK or state.attack is None:
        return rej("E_WRONG_STEP", "No attack is open.", "3.2")
    return None


def check_siege(state: State, a: ac.UseSiegeEngines, seat: str) -> Rejection | None:
    if (r := _in_attack(state)) is not None:
        return r
    if state.opt("siege_timing") == "before_draw":
        return rej("E_WRONG_STEP", "Engins de Siege is used as part of the attempt.", "4.2.4")
    return _siege_checks(state, seat, state.attack.siege_uses if state.attack else 0)


def _siege_checks(state: State, seat: str, uses: int) -> Rejection | None:
    copies = state.owns(seat, "engins_de_siege")
    if not copies:
        return rej("E_NO_MASTERY", "You do not own Engins de Siege.", "4.2.4")
    if uses >= copies:
        return rej("E_SIEGE_ALREADY_USED", "Engins de Siege was already used in this attack.", "4.2.4")
    p = state.player(seat)
    if state.opt("siege_cost") == "influence":
        if p.influence < 1:
            return rej("E_NOT_ENOUGH_INFLUENCE", "Engins de Siege costs 1 Influence.", "4.2.4")
    elif p.k("CRA") < 1:
        return rej("E_INSUFFICIENT_KNOWLEDGE", "Engins de Siege costs 1 CRA Knowledge.", "4.2.4")
    return None


def do_siege(ctx: Ctx, a: ac.UseSiegeEngines, seat: str) -> None:
    paid = "influence" if ctx.state.opt("siege_cost") == "influence" else "CRA"
    ctx.emit(ev.SiegeEnginesUsed(seat, paid))


def check_spend(state: State, a: ac.SpendInfluence, seat: str) -> Rejection | None:
    if (r := _in_attack(state)) is not None:
        return r
    assert state.attack is not None
    if a.amount < 1:
        return rej("E_BAD_PARAMS", "Spend at least 1 Influence.", "4.2.5")
    c, r_value = conquest_value(state), state.attack.rebellion_value
    if c >= r_value:
        return rej("E_INFLUENCE_NOT_NEEDED", "Your conquest value already reaches the rebellion.", "4.2.5")
    if a.amount > state.player(seat).influence:
        return rej("E_NOT_ENOUGH_INFLUENCE", "You do not have that much Influence.", "4.2.5")
    if a.amount > r_value - c and not state.opt("influence_overspend"):
        return rej("E_INFLUENCE_EXCESS", f"The shortfall is only {r_value - c}.", "4.2.5")
    return None


def do_spend(ctx: Ctx, a: ac.SpendInfluence, seat: str) -> None:
    ctx.emit(ev.InfluenceSpent(seat, a.amount))


def required_discard(state: State) -> int:
    a = state.attack
    assert a is not None
    if state.opt("discard_rule") == "cards_only":
        return a.rebellion_value
    return max(0, a.rebellion_value - bonus(a))


def _reward_domain_needed(state: State, province_id: str) -> bool:
    reward = state.tables.provinces[province_id].reward
    return reward.knowledge > 0 and reward.knowledge_domain == "choice"


def _check_reward_domain(state: State, province_id: str, domain: str | None, rule: str) -> Rejection | None:
    """Check 6 of resolve_conquest (4.2.6) and the last check of conquer_with_knowledge (4.2.9)."""
    if _reward_domain_needed(state, province_id) and domain not in DOMAINS:
        return rej("E_REWARD_DOMAIN_REQUIRED", "Name the domain of the reward Knowledge.", rule)
    return None


def check_resolve(state: State, a: ac.ResolveConquest, seat: str) -> Rejection | None:
    if (r := _in_attack(state)) is not None:
        return r
    attack = state.attack
    assert attack is not None
    if conquest_value(state) < attack.rebellion_value:
        return rej("E_CONQUEST_VALUE_TOO_LOW", "Your conquest value is below the rebellion value.", "4.2.6")
    hand = state.player(seat).conquest_hand
    if not contains(hand, a.discard):
        return rej("E_CARD_NOT_IN_HAND", "A discarded card is not in your hand.", "4.2.6")
    if not contains(a.discard, attack.must_use):
        return rej("E_MUST_USE_NOT_DISCARDED", "Cards bought after the reveal must be used.", "4.2.6")
    total = sum(state.strength(c) for c in a.discard)
    need = required_discard(state)
    if total < need:
        return rej("E_DISCARD_TOO_LOW", f"The discard totals {total}; {need} is required.", "4.2.6")
    if state.opt("discard_must_be_minimal"):
        must = Counter(attack.must_use)
        for c in a.discard:
            if must[c] == 0 and total - state.strength(c) >= need:
                return rej("E_DISCARD_NOT_MINIMAL", f"{c} is not needed.", "7.29")
    return _check_reward_domain(state, attack.province_id, a.reward_domain, "4.2.6")


def _rewards(
    state: State, seat: str, province_id: str, reward_domain: str | None
) -> tuple[int, dict[str, int], int]:
    reward = state.tables.provinces[province_id].reward
    vp, influence = reward.vp, reward.influence
    knowledge: dict[str, int] = {}
    if reward.knowledge:
        domain = reward.knowledge_domain if reward.knowledge_domain != "choice" else reward_domain
        assert domain is not None
        knowledge[domain] = reward.knowledge
    arcs = 2 * state.owns(seat, "arcs_de_triomphe")
    if state.opt("arcs_reward") == "vp":
        vp += arcs
    else:
        influence += arcs
    esp = 5 * state.owns(seat, "espionnage")
    if state.opt("espionnage_reward") == "vp":
        vp += esp
    elif esp:
        knowledge["SCI"] = knowledge.get("SCI", 0) + esp
    return vp, knowledge, influence


def do_resolve(ctx: Ctx, a: ac.ResolveConquest, seat: str) -> None:
    attack = ctx.state.attack
    assert attack is not None
    domain = a.reward_domain if _reward_domain_needed(ctx.state, attack.province_id) else None
    vp, knowledge, influence = _rewards(ctx.state, seat, attack.province_id, domain)
    ctx.emit(
        ev.ProvinceConquered(
            seat, attack.province_id, "attack", a.discard, {}, domain, vp, knowledge, influence, (), True
        )
    )


def check_abandon(state: State, a: ac.AbandonConquest, seat: str) -> Rejection | None:
    if (r := _in_attack(state)) is not None:
        return r
    assert state.attack is not None
    hand = sum(state.strength(c) for c in state.player(seat).conquest_hand)
    # Must conquer when success is possible; under `discard_rule = cards_only` that also needs
    # the cards alone to reach the requirement (identical to C >= R under the default rule).
    can_win = conquest_value(state) >= state.attack.rebellion_value and hand >= required_discard(state)
    if can_win and not state.opt("allow_voluntary_abandon"):
        return rej(
            "E_CANNOT_ABANDON", "Your conquest value reaches the rebellion: you must conquer.", "4.2.7"
        )
    return None


def do_abandon(ctx: Ctx, a: ac.AbandonConquest, seat: str) -> None:
    attack = ctx.state.attack
    assert attack is not None
    p = ctx.state.player(seat)
    ctx.emit(ev.ConquestAbandoned(seat, attack.province_id, p.conquest_hand, p.influence))


def check_knowledge(state: State, a: ac.ConquerWithKnowledge, seat: str) -> Rejection | None:
    if state.step != START:
        return rej("E_WRONG_STEP", "A knowledge conquest is the turn's Grow choice.", "4.2.9")
    if bad_map(a.payment):
        return rej("E_BAD_PARAMS", "Malformed payment.", "4.0")
    av = state.avail(a.province)
    if av is None:
        return rej("E_PROVINCE_NOT_AVAILABLE", f"{a.province} is not an available province.", "4.2.9")
    price = state.tables.provinces[a.province].knowledge_price
    if price is None:
        return rej("E_NO_KNOWLEDGE_PRICE", f"{a.province} cannot be conquered with Knowledge.", "4.2.9")
    if sum(a.payment.values()) != price:
        return rej("E_WRONG_PAYMENT_TOTAL", f"The price is exactly {price} Knowledge.", "4.2.9")
    p = state.player(seat)
    short = [d for d, v in a.payment.items() if v > p.k(d)]
    if short:
        return rej("E_INSUFFICIENT_KNOWLEDGE", f"Not enough {short[0]} Knowledge.", "4.2.9")
    if (
        state.opt("knowledge_price_domains") == "single_domain"
        and len([v for v in a.payment.values() if v]) > 1
    ):
        return rej("E_WRONG_PAYMENT_TOTAL", "The price must be paid from one domain.", "7.16")
    return _check_reward_domain(state, a.province, a.reward_domain, "4.2.9")


def do_knowledge(ctx: Ctx, a: ac.ConquerWithKnowledge, seat: str) -> None:
    state = ctx.state
    av = state.avail(a.province)
    assert av is not None
    domain = a.reward_domain if _reward_domain_needed(state, a.province) else None
    vp, knowledge, influence = _rewards(state, seat, a.province, domain)
    ctx.emit(
        ev.ProvinceConquered(
            seat,
            a.province,
            "knowledge",
            (),
            clean(a.payment),
            domain,
            vp,
            knowledge,
            influence,
            av.kept,
            counts_as_attack=bool(state.opt("knowledge_conquest_is_attack")),
        )
    )
