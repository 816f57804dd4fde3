"""Prompts and legal actions of Dominations + Provinces (dominations-provinces.md sections 3.2,
4.2, 5.4 and 6).

Where a choice is unbounded (declared production, city and mastery costs, Knowledge payments,
discards), the listing gives representative legal answers: the reference production (or the
empty declaration for a faceless tile), a greedy payment, the smallest greedy discard that
includes every must-use card, a City costing 2 Knowledge of its Camp, a mastery costing 3 of
its domain at the first free tree slot. `base_effect` is never listed (it is a recorder's
free-form entry). Every listed action passes the very checks `decide` runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from domain.games.dominations import actions as ac
from domain.games.dominations.board import frontier, parse_cell, reference_production
from domain.games.dominations.building import tree_slots
from domain.games.dominations.conquest import required_discard
from domain.games.dominations.data import DOMAINS
from domain.games.dominations.engine import AGE_DECKS
from domain.games.dominations.placement import board_icons
from domain.games.dominations.rules import CHECKS
from domain.games.dominations.state import (
    ATTACK,
    BUILD,
    DEVELOP,
    END_OF_AGE,
    FINAL_SCORING,
    GAME_OVER,
    GROW_AFTER_FAIL,
    PLACE_PROVINCE,
    START,
    Deck,
    State,
    conquest_value,
)
from domain.games.dominations.table_inputs import check_record, check_scoring
from domain.ruleset import Command, Prompt

UNKNOWN = "X99"


def _placements(state: State, seat: str) -> Iterator[ac.PlaceTile]:
    p = state.player(seat)
    if state.step == PLACE_PROVINCE:
        tile = state.turn.pending_province_tile
        tiles: tuple[str, ...] = (tile,) if tile else ()
        source = "province"
    else:
        tiles, source = p.land_hand, "hand"
    cells = frontier(state.board, state.opt("placement_adjacency"))
    reference = state.production_model() == "reference"
    icons_at: dict[str, Any] = {}
    for tile in tiles:
        face = state.tables.faces.get(tile)
        for name in cells:
            cell = parse_cell(name)
            assert cell is not None
            for rotation in (0, 1, 2):
                if reference and face is not None:
                    produced = None
                elif face is not None:
                    if name not in icons_at:
                        icons_at[name] = board_icons(state, cell)
                    produced = reference_production(face, cell, rotation, icons_at[name])
                else:
                    produced = {}
                yield ac.PlaceTile(source, tile, name, rotation, produced)
            if face is None:
                break


def _greedy_payment(state: State, seat: str, price: int) -> dict[str, int]:
    p = state.player(seat)
    if state.opt("knowledge_price_domains") == "single_domain":
        for d in DOMAINS:
            if p.k(d) >= price:
                return {d: price}
        return {}
    out: dict[str, int] = {}
    left = price
    for d in sorted(DOMAINS, key=lambda d: -p.k(d)):
        if left <= 0:
            break
        take = min(left, p.k(d))
        if take:
            out[d] = take
            left -= take
    return out if left == 0 else {}


def _reward_domains(state: State, province_id: str) -> tuple[str | None, ...]:
    reward = state.tables.provinces[province_id].reward
    return DOMAINS if reward.knowledge > 0 and reward.knowledge_domain == "choice" else (None,)


def _discard(state: State, seat: str) -> tuple[str, ...]:
    attack = state.attack
    assert attack is not None
    hand = list(state.player(seat).conquest_hand)
    chosen = list(attack.must_use)
    for c in chosen:
        hand.remove(c)
    need = required_discard(state)
    total = sum(state.strength(c) for c in chosen)
    for c in sorted(hand, key=lambda c: (-state.strength(c), c)):
        if total >= need:
            break
        chosen.append(c)
        total += state.strength(c)
    return tuple(chosen)


def _candidates(state: State, seat: str) -> Iterator[Any]:
    step = state.step
    p = state.player(seat)
    if step in (START, GROW_AFTER_FAIL, PLACE_PROVINCE):
        yield from _placements(state, seat)
    yield from (ac.BuyConquestCard(d) for d in DOMAINS if p.k(d) >= 2)
    if state.opt("corsaires_exchange") == "any_knowledge_swap":
        yield from (ac.CorsairesExchange(a, b) for a in DOMAINS if p.k(a) for b in DOMAINS if a != b)
    else:
        yield ac.CorsairesExchange()
    if step == START:
        spy = state.dominance.get("SPY") == seat
        if spy and state.opt("spy_peek_allows_abort"):
            yield ac.SpyPeek()
        sieges = (False, True) if state.opt("siege_timing") == "before_draw" else (False,)
        for av in state.available:
            for siege in sieges:
                yield ac.AttemptConquest(av.province_id, use_siege=siege)
                if spy:
                    yield ac.AttemptConquest(av.province_id, use_spy=True, use_siege=siege)
            price = state.tables.provinces[av.province_id].knowledge_price
            if price is not None:
                payment = _greedy_payment(state, seat, price)
                if payment:
                    for d in _reward_domains(state, av.province_id):
                        yield ac.ConquerWithKnowledge(av.province_id, payment, d)
    if step == ATTACK and state.attack is not None:
        yield ac.UseSiegeEngines()
        short = state.attack.rebellion_value - conquest_value(state)
        top = p.influence if state.opt("influence_overspend") else min(p.influence, short)
        yield from (ac.SpendInfluence(n) for n in range(1, top + 1))
        discard = _discard(state, seat)
        for d in _reward_domains(state, state.attack.province_id):
            yield ac.ResolveConquest(discard, d)
        yield ac.AbandonConquest()
    if step == BUILD:
        for name, placed in state.board.items():
            if placed.placed_by == seat and placed.face is not None and placed.face.camp is not None:
                camp = placed.face.camp
                level = placed.city_level + 1 if placed.city_owner == seat else 1
                if placed.city_owner in (None, seat) and p.k(camp) >= 2:
                    yield ac.BuildCity(name, level, {camp: 2})
    if step in (START, GROW_AFTER_FAIL) and not p.land_hand:
        yield ac.EndTurn()
    if step in (BUILD, DEVELOP):
        slots = tree_slots(p)
        seen: set[str] = set()
        for card in state.mastery_supply:
            m = state.tables.masteries[card]
            if m.name in seen or m.domain is None:
                continue
            seen.add(m.name)
            cost = m.cost if m.cost is not None else 3
            if p.k(m.domain) >= cost:
                yield ac.AcquireMastery(card, slots[0], {m.domain: cost})
        yield ac.EndTurn()


def _pile(state: State) -> tuple[str, ...]:
    req = state.awaiting[0]
    if req.deck in AGE_DECKS:
        return state.province_decks[AGE_DECKS.index(req.deck)]
    deck: Deck = getattr(state, req.deck)
    return deck.draw if deck.draw else deck.discard


def _recorder_actions(state: State) -> tuple[Any, ...]:
    if state.awaiting:
        candidates = (ac.RecordDraw(card) for card in sorted(set(_pile(state))))
        return tuple(a for a in candidates if check_record(state, a, Command(a, None, "recorder")) is None)
    if state.step == END_OF_AGE:
        if state.opt("hegemon_module"):
            vp = 4 if state.opt("hegemon_token_vp") == "declared" else None
            return (
                ac.AgeEndBaseScoring(),
                ac.AgeEndBaseScoring(hegemon_token_active=True, hegemon_token_vp=vp),
            )
        return (ac.AgeEndBaseScoring(),)
    if state.step == FINAL_SCORING:
        return (ac.FinalScoring(),)
    return ()


def legal_actions(state: State, seat: str | None) -> tuple[Any, ...]:
    if state.step == GAME_OVER:
        return ()
    recorder = _recorder_actions(state)
    if recorder or state.awaiting or state.active is None:
        return recorder if seat is None else ()
    active = state.active
    if seat is not None and seat != active:
        return ()
    out: list[Any] = []
    for action in _candidates(state, active):
        if isinstance(action, ac.PlaceTile) or CHECKS[type(action)](state, action, active) is None:
            out.append(action)
    return tuple(out)


def probe_actions(state: State) -> tuple[Any, ...]:
    """Plausible and deliberately bad actions; decide must refuse every one not listed."""
    out: list[Any] = []
    active = state.active or state.seats[0]
    out.append(ac.BuyConquestCard(None, {"TRA": 1, "GOV": 1}))
    out.append(ac.BuyConquestCard("XXX"))
    out.extend(ac.BuyConquestCard(d) for d in DOMAINS)
    out.append(ac.AttemptConquest(UNKNOWN))
    out.extend(ac.AttemptConquest(a.province_id) for a in state.available)
    out.extend(ac.AttemptConquest(a.province_id, use_spy=True) for a in state.available)
    out.append(ac.ConquerWithKnowledge(UNKNOWN, {"CRA": 1}))
    out.extend(ac.ConquerWithKnowledge(a.province_id, {"CRA": 99}, "CRA") for a in state.available)
    out.extend((ac.UseSiegeEngines(), ac.AbandonConquest(), ac.CorsairesExchange(), ac.EndTurn()))
    out.extend(ac.AttemptConquest(a.province_id, use_siege=True) for a in state.available)
    out.extend((ac.CorsairesExchange("TRA", "TRA"), ac.CorsairesExchange("XXX", "ART")))
    out.append(ac.ContributeMonument("M1", "M1-L1", {"CRA": 999}, 1))
    out.append(ac.ContributeMonument("M1", "M1-L1", {}, -1))
    out.extend(ac.SpendInfluence(n) for n in (0, 1, 99))
    out.append(ac.ResolveConquest(()))
    out.append(ac.ResolveConquest((UNKNOWN,), "CRA"))
    out.append(ac.PlaceTile("hand", UNKNOWN, "U(0,0)", 0))
    out.append(ac.PlaceTile("hand", UNKNOWN, "U(40,40)", 0))
    if state.active is not None:
        p = state.player(active)
        for tile in p.land_hand[:2]:
            out.append(ac.PlaceTile("hand", tile, "U(0,0)", 0))
            out.append(ac.PlaceTile("hand", tile, "D(50,50)", 0))
            out.append(ac.PlaceTile("hand", tile, "D(0,0)", 3))
            out.append(ac.PlaceTile("province", tile, "D(0,0)", 0, {}))
    out.append(ac.BuildCity("U(90,90)", 1, {"CRA": 1}))
    out.append(ac.AcquireMastery(UNKNOWN, (1, 0), {"CRA": 3}))
    out.append(ac.AcquireMastery(state.mastery_supply[0] if state.mastery_supply else UNKNOWN, (5, 5), {}))
    out.append(ac.BaseEffect(active, "provinces", "Arcs de Triomphe", vp=2))
    out.append(ac.BaseEffect(active, "base_card", "test", vp=-1000))
    out.append(ac.RecordDraw(UNKNOWN))
    out.append(ac.AgeEndBaseScoring((ac.ScoreEntry(active, "test", vp=-1000),)))
    out.append(ac.AgeEndBaseScoring())
    out.append(ac.FinalScoring())
    return tuple(out)


def pending(state: State) -> tuple[Prompt, ...]:
    if state.step == GAME_OVER:
        return ()
    if state.awaiting:
        req = state.awaiting[0]
        text = f"Enter the card drawn from the {req.deck} pile ({req.target})."
        bounds = {"deck": req.deck, "target": req.target, "remaining": len(state.awaiting)}
        return (Prompt(None, "record_draw", text, ("record_draw",), bounds),)
    if state.step == END_OF_AGE:
        return (
            Prompt(
                None,
                "age_end_base_scoring",
                f"Declare the base-game end-of-Age scoring of Age {state.age}.",
                ("age_end_base_scoring",),
            ),
        )
    if state.step == FINAL_SCORING:
        return (Prompt(None, "final_scoring", "Declare the final scoring.", ("final_scoring",)),)
    if state.active is None:
        return ()
    kinds = tuple(sorted({str(type(a).__struct_config__.tag) for a in legal_actions(state, state.active)}))
    text = f"Age {state.age}, round {state.round}: {state.step.lower()} step."
    return (Prompt(state.active, "turn", text, kinds, {"step": state.step}),)


def is_recorder_action(action: Any) -> bool:
    return isinstance(action, ac.RecordDraw | ac.AgeEndBaseScoring | ac.FinalScoring)


def check_recorder(state: State, action: Any) -> bool:
    cmd = Command(action, None, "recorder")
    if isinstance(action, ac.RecordDraw):
        return check_record(state, action, cmd) is None
    return check_scoring(state, action, cmd) is None
