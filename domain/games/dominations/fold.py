"""`evolve` of Dominations + Provinces: applies one fact (dominations-provinces.md sections 2, 4,
5.3 and 6). Pure and total; it never validates and never draws. Values are floored at 0 where
the spec floors them (7.17), using the amounts `decide` recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from msgspec.structs import replace

from domain.games.dominations import events as ev
from domain.games.dominations.actions import ScoreEntry
from domain.games.dominations.state import (
    ATTACK,
    BUILD,
    DEVELOP,
    DI,
    END_OF_AGE,
    FINAL_SCORING,
    GAME_OVER,
    GROW_AFTER_FAIL,
    PLACE_PROVINCE,
    START,
    ZERO,
    Attack,
    Available,
    Conquered,
    Deck,
    Owned,
    Placed,
    Player,
    State,
    TurnState,
)

AGES = {"province-I": 0, "province-II": 1, "province-III": 2}


def kadd(
    k: tuple[int, ...],
    delta: Mapping[str, int],
    sign: int = 1,
    floor: bool = False,
    cap: tuple[int, ...] | None = None,
) -> tuple[int, ...]:
    """Knowledge plus a delta; losses floored at 0 when asked; gains above a player's cap
    (1.6, `cap` >= 0) are lost."""
    out = list(k)
    for d, v in delta.items():
        if d in DI:
            i = DI[d]
            before = out[i]
            out[i] += sign * v
            if floor and out[i] < 0:
                out[i] = 0
            if cap is not None and cap[i] >= 0 and sign * v > 0 and out[i] > cap[i]:
                out[i] = max(before, cap[i])
    return tuple(out)


def remove(items: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    out = list(items)
    for c in cards:
        if c in out:
            out.remove(c)
    return tuple(out)


def take(deck: Deck, cards: tuple[str, ...], reshuffles: tuple[ev.Reshuffled, ...]) -> Deck:
    draw, discard, n = deck.draw, deck.discard, deck.reshuffles
    for index, card in enumerate(cards):
        for r in reshuffles:
            if r.before_index == index:
                draw, discard, n = r.order, (), r.n
        draw = draw[1:] if draw and draw[0] == card else remove(draw, (card,))
    for r in reshuffles:
        if r.before_index >= len(cards):
            draw, discard, n = r.order, (), r.n
    return Deck(draw, discard, n)


def _player(state: State, seat: str, fn: Callable[[Player], Player]) -> State:
    i = state.seats.index(seat)
    players = list(state.players)
    players[i] = fn(players[i])
    return replace(state, players=tuple(players))


def _apply_entry(p: Player, e: ScoreEntry | ev.Loss, sign: int, vp_floor: bool) -> Player:
    vp = p.vp + sign * e.vp
    return replace(
        p,
        knowledge=kadd(p.knowledge, e.knowledge, sign, floor=True, cap=p.cap),
        influence=max(0, p.influence + sign * e.influence),
        vp=max(0, vp) if vp_floor else vp,
    )


def evolve(state: State, fact: Any) -> State:
    handler = _HANDLERS.get(type(fact))
    return handler(state, fact) if handler is not None else state


def _shuffled(s: State, f: ev.DeckShuffled) -> State:
    shuffles = {**s.shuffles, f.deck: f.n + 1}
    if f.observed:
        return replace(s, shuffles=shuffles)
    if f.deck in AGES:
        decks = list(s.province_decks)
        decks[AGES[f.deck]] = f.order
        return replace(s, province_decks=(decks[0], decks[1], decks[2]), shuffles=shuffles)
    deck: Deck = getattr(s, f.deck)
    return replace(s, shuffles=shuffles, **{f.deck: replace(deck, draw=f.order)})


def _revealed(s: State, f: ev.ProvincesRevealed) -> State:
    decks = list(s.province_decks)
    decks[f.age - 1] = remove(decks[f.age - 1], f.provinces)
    new = tuple(Available(p, f.age) for p in f.provinces)
    return replace(s, province_decks=(decks[0], decks[1], decks[2]), available=s.available + new)


def _dealt(s: State, f: ev.LandDealt) -> State:
    s = replace(s, land=take(s.land, f.tiles, ()))
    return _player(s, f.seat, lambda p: replace(p, land_hand=p.land_hand + f.tiles))


def _boxed_hands(s: State, f: ev.LandHandsBoxed) -> State:
    return replace(s, players=tuple(replace(p, land_hand=()) for p in s.players))


def _requested(s: State, f: ev.DrawsRequested) -> State:
    return replace(s, awaiting=s.awaiting + f.requests, after_draws=f.after)


def _recorded(s: State, f: ev.CardRecorded) -> State:
    s = replace(s, awaiting=s.awaiting[1:])
    kind, _, seat = f.target.partition(":")
    if f.deck in AGES:
        age = AGES[f.deck]
        decks = list(s.province_decks)
        decks[age] = remove(decks[age], (f.card,))
        return replace(
            s,
            province_decks=(decks[0], decks[1], decks[2]),
            available=(*s.available, Available(f.card, age + 1)),
        )
    deck: Deck = getattr(s, f.deck)
    if f.reshuffled:
        deck = Deck(tuple(sorted(deck.discard)), (), deck.reshuffles + 1)
    deck = replace(deck, draw=remove(deck.draw, (f.card,)))
    s = replace(s, **{f.deck: deck})
    if kind == "land":
        return _player(s, seat, lambda p: replace(p, land_hand=(*p.land_hand, f.card)))
    if kind in ("hand", "must"):
        s = _player(s, seat, lambda p: replace(p, conquest_hand=(*p.conquest_hand, f.card)))
        if kind == "must" and s.attack is not None:
            s = replace(s, attack=replace(s.attack, must_use=(*s.attack.must_use, f.card)))
        return s
    if kind == "attack" and s.attack is not None:
        a = s.attack
        return replace(
            s,
            attack=replace(
                a, drawn=(*a.drawn, f.card), rebellion_value=a.rebellion_value + s.strength(f.card)
            ),
        )
    return s


def _age_began(s: State, f: ev.AgeBegan) -> State:
    return replace(
        s,
        age=f.age,
        round=1,
        first_player=f.first_player,
        active=f.first_player,
        step=START,
        turn=TurnState(),
        turn_no=s.turn_no + 1,
        after_draws=None,
    )


def _placed(s: State, f: ev.TilePlaced) -> State:
    board = dict(s.board)
    board[f.cell] = Placed(f.tile, f.rotation, f.source, f.seat, f.face)
    gain = {d: f.produced.get(d, 0) + f.extra.get(d, 0) for d in {*f.produced, *f.extra}}
    rel = s.opt("missionaires_reward") == "rel_knowledge"

    def placer(p: Player) -> Player:
        hand = remove(p.land_hand, (f.tile,)) if f.source == "hand" else p.land_hand
        k = kadd(p.knowledge, gain, cap=p.cap)
        if rel and f.missionaires_gain:
            k = kadd(k, {"REL": f.missionaires_gain}, cap=p.cap)
        influence = p.influence + (0 if rel else f.missionaires_gain)
        return replace(p, land_hand=hand, knowledge=k, influence=influence)

    s = _player(replace(s, board=board), f.seat, placer)
    for act in f.city_activations:
        s = _player(s, act.owner, _gainer(act.produced))
    choice = "tile" if s.turn.grow_choice == "none" else s.turn.grow_choice
    turn = replace(s.turn, grow_done=True, grow_choice=choice, pending_province_tile=None)
    return replace(s, turn=turn, step=BUILD)


def _gainer(produced: Mapping[str, int]) -> Callable[[Player], Player]:
    return lambda p: replace(p, knowledge=kadd(p.knowledge, produced, cap=p.cap))


def _loser(entry: ScoreEntry | ev.Loss, sign: int, floor: bool) -> Callable[[Player], Player]:
    return lambda p: _apply_entry(p, entry, sign, floor)


def _bought(s: State, f: ev.ConquestCardBought) -> State:
    s = _player(s, f.seat, lambda p: replace(p, knowledge=kadd(p.knowledge, {f.domain: 2}, -1)))
    if f.card is None:
        return s
    s = replace(s, conquest=take(s.conquest, (f.card,), f.reshuffles))
    card = f.card
    s = _player(s, f.seat, lambda p: replace(p, conquest_hand=(*p.conquest_hand, card)))
    if f.must_use and s.attack is not None:
        s = replace(s, attack=replace(s.attack, must_use=(*s.attack.must_use, card)))
    return s


def _attempted(s: State, f: ev.ConquestAttempted) -> State:
    available = tuple(replace(a, kept=()) if a.province_id == f.province_id else a for a in s.available)
    reb = take(s.rebellion, f.drawn, f.reshuffles)
    if f.discarded_kept:
        reb = replace(reb, discard=reb.discard + f.discarded_kept)
    attack = Attack(
        attacker=f.seat,
        province_id=f.province_id,
        kept_taken=f.kept_taken,
        drawn=f.drawn,
        rebellion_value=f.rebellion_value,
        spy_peek=f.spy_peek,
        conscription_bonus=f.conscription_bonus,
    )
    turn = replace(s.turn, grow_choice="attack")
    return replace(s, available=available, rebellion=reb, attack=attack, step=ATTACK, turn=turn)


def _siege(s: State, f: ev.SiegeEnginesUsed) -> State:
    if f.paid == "influence":
        s = _player(s, f.seat, lambda p: replace(p, influence=p.influence - 1))
    else:
        s = _player(s, f.seat, lambda p: replace(p, knowledge=kadd(p.knowledge, {"CRA": 1}, -1)))
    assert s.attack is not None
    a = s.attack
    return replace(s, attack=replace(a, siege_uses=a.siege_uses + 1, siege_bonus=a.siege_bonus + 2))


def _spent(s: State, f: ev.InfluenceSpent) -> State:
    s = _player(s, f.seat, lambda p: replace(p, influence=p.influence - f.amount))
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, influence_spent=s.attack.influence_spent + f.amount))


def _conquered(s: State, f: ev.ProvinceConquered) -> State:
    available = tuple(a for a in s.available if a.province_id != f.province_id)
    reb = s.rebellion
    rebellion_boxed = s.rebellion_boxed
    if f.method == "attack" and s.attack is not None:
        reb = replace(reb, discard=reb.discard + s.attack.kept_taken + s.attack.drawn)
    elif f.kept_removed:
        if s.opt("kept_cards_on_knowledge_conquest") == "box":
            rebellion_boxed = rebellion_boxed + f.kept_removed
        else:
            reb = replace(reb, discard=reb.discard + f.kept_removed)
    conquest = replace(s.conquest, discard=s.conquest.discard + f.discard)
    record = Conquered(f.province_id, s.age, s.round, f.method)
    hegemon = bool(s.opt("hegemon_module"))
    held = (f.province_id,) if hegemon else ()

    def winner(p: Player) -> Player:
        k = kadd(kadd(p.knowledge, f.payment, -1), f.knowledge, cap=p.cap)
        return replace(
            p,
            conquest_hand=remove(p.conquest_hand, f.discard),
            knowledge=k,
            vp=p.vp + f.vp,
            influence=p.influence + f.influence,
            conquered=(*p.conquered, record),
            province_cards_held=p.province_cards_held + held,
        )

    s = _player(s, f.seat, winner)
    choice = "knowledge" if f.method == "knowledge" else s.turn.grow_choice
    turn = replace(s.turn, grow_choice=choice, pending_province_tile=f.province_id)
    return replace(
        s,
        available=available,
        rebellion=reb,
        rebellion_boxed=rebellion_boxed,
        conquest=conquest,
        boxed=s.boxed if hegemon else (*s.boxed, f.province_id),
        attack=None,
        step=PLACE_PROVINCE,
        turn=turn,
    )


def _abandoned(s: State, f: ev.ConquestAbandoned) -> State:
    a = s.attack
    assert a is not None
    available = tuple(
        replace(
            p,
            kept=a.kept_taken + a.drawn,
            failed_attempts=p.failed_attempts + 1,
            last_failed_by=f.seat,
        )
        if p.province_id == f.province_id
        else p
        for p in s.available
    )
    s = _player(s, f.seat, lambda p: replace(p, conquest_hand=(), influence=0))
    conquest = replace(s.conquest, discard=s.conquest.discard + f.discarded)
    return replace(s, available=available, conquest=conquest, attack=None, step=GROW_AFTER_FAIL)


def _corsaires(s: State, f: ev.CorsairesExchanged) -> State:
    if f.to == "influence":
        s = _player(
            s,
            f.seat,
            lambda p: replace(p, knowledge=kadd(p.knowledge, {f.from_: 1}, -1), influence=p.influence + 1),
        )
    else:
        s = _player(
            s,
            f.seat,
            lambda p: replace(p, knowledge=kadd(kadd(p.knowledge, {f.from_: 1}, -1), {f.to: 1}, cap=p.cap)),
        )
    return replace(s, turn=replace(s.turn, corsaires_used=s.turn.corsaires_used + 1))


def _monument(s: State, f: ev.MonumentContributed) -> State:
    s = _player(s, f.seat, lambda p: replace(p, knowledge=kadd(p.knowledge, f.cost, -1), vp=p.vp + f.vp))
    monuments = dict(s.monuments)
    monuments[f.monument_id] = (*monuments.get(f.monument_id, ()), (f.level_card_id, f.seat))
    return replace(s, monuments=monuments, turn=replace(s.turn, build_actions=s.turn.build_actions + 1))


def _city(s: State, f: ev.CityBuilt) -> State:
    board = dict(s.board)
    board[f.cell] = replace(board[f.cell], city_owner=f.seat, city_level=f.level)

    def builder(p: Player) -> Player:
        cities = p.cities if f.cell in p.cities else (*p.cities, f.cell)
        return replace(p, knowledge=kadd(p.knowledge, f.cost, -1), cities=cities)

    s = _player(replace(s, board=board), f.seat, builder)
    return replace(s, turn=replace(s.turn, build_actions=s.turn.build_actions + 1))


def _mastery(s: State, f: ev.MasteryAcquired) -> State:
    s = _player(
        s,
        f.seat,
        lambda p: replace(
            p, knowledge=kadd(p.knowledge, f.cost, -1), masteries=(*p.masteries, Owned(f.card, f.pos))
        ),
    )
    turn = replace(s.turn, mastery_actions=s.turn.mastery_actions + 1)
    return replace(s, mastery_supply=remove(s.mastery_supply, (f.card,)), turn=turn, step=DEVELOP)


def _caps(cap: tuple[int, ...], changes: Mapping[str, int]) -> tuple[int, ...]:
    out = list(cap)
    for d, v in changes.items():
        if d in DI:
            out[DI[d]] = v
    return tuple(out)


def _base_effect(s: State, f: ev.BaseEffectApplied) -> State:
    vp_floor = bool(s.opt("vp_floor_zero"))

    def apply(p: Player) -> Player:
        vp = p.vp + f.vp
        return replace(
            p,
            knowledge=kadd(p.knowledge, f.knowledge, floor=f.clamp, cap=p.cap),
            cap=_caps(p.cap, f.cap_changes),
            influence=max(0, p.influence + f.influence) if f.clamp else p.influence + f.influence,
            vp=max(0, vp) if (f.clamp and vp_floor) else vp,
        )

    return _player(s, f.seat, apply)


def _turn_ended(s: State, f: ev.TurnEnded) -> State:
    if f.end_of_age:
        return replace(s, active=None, step=END_OF_AGE, turn=TurnState())
    return replace(s, active=f.next_seat, round=f.round, step=START, turn=TurnState(), turn_no=s.turn_no + 1)


def _age_effects(s: State, f: ev.ProvinceAgeEffects) -> State:
    floor = bool(s.opt("vp_floor_zero"))
    for effect in f.effects:
        for loss in effect.losses:
            s = _player(s, loss.seat, _loser(loss, -1, floor))
    return s


def _entries(s: State, entries: tuple[ScoreEntry, ...]) -> State:
    for e in entries:
        s = _player(s, e.player, _loser(e, 1, False))
    return s


def _base_scoring(s: State, f: ev.BaseScoringDeclared) -> State:
    return _entries(s, f.entries)


def _dominance(s: State, f: ev.DominanceAwarded) -> State:
    for seat, vp in f.vp.items():
        s = _player(s, seat, _vp_gainer(vp))
    return replace(s, dominance=dict(f.holders))


def _vp_gainer(vp: int) -> Callable[[Player], Player]:
    return lambda p: replace(p, vp=p.vp + vp)


def _hegemon(s: State, f: ev.HegemonScored) -> State:
    if f.scorer is None or not f.vp:
        return s
    return _player(s, f.scorer, _vp_gainer(f.vp))


def _reset(s: State, f: ev.KnowledgeReset) -> State:
    players = tuple(
        replace(p, knowledge=ZERO, influence=0 if f.influence_too else p.influence) for p in s.players
    )
    return replace(s, players=players, step=FINAL_SCORING if f.age == 3 else END_OF_AGE)


def _kept_reset(s: State, f: ev.KeptCardsReset) -> State:
    available = tuple(replace(a, kept=(), failed_attempts=0, last_failed_by=None) for a in s.available)
    return replace(
        s, available=available, rebellion=replace(s.rebellion, discard=s.rebellion.discard + f.cards)
    )


def _final(s: State, f: ev.FinalScoringDeclared) -> State:
    return _entries(s, f.entries)


def _ended(s: State, f: ev.GameEnded) -> State:
    return replace(s, winners=f.winners, step=GAME_OVER, active=None)


def _set_up(s: State, f: ev.GameSetUp) -> State:
    return s


_HANDLERS: dict[type, Callable[[State, Any], State]] = {
    ev.GameSetUp: _set_up,
    ev.DeckShuffled: _shuffled,
    ev.DrawsRequested: _requested,
    ev.CardRecorded: _recorded,
    ev.ProvincesRevealed: _revealed,
    ev.LandDealt: _dealt,
    ev.LandHandsBoxed: _boxed_hands,
    ev.AgeBegan: _age_began,
    ev.TilePlaced: _placed,
    ev.ConquestCardBought: _bought,
    ev.ConquestAttempted: _attempted,
    ev.SiegeEnginesUsed: _siege,
    ev.InfluenceSpent: _spent,
    ev.ProvinceConquered: _conquered,
    ev.ConquestAbandoned: _abandoned,
    ev.CorsairesExchanged: _corsaires,
    ev.CityBuilt: _city,
    ev.MonumentContributed: _monument,
    ev.MasteryAcquired: _mastery,
    ev.BaseEffectApplied: _base_effect,
    ev.TurnEnded: _turn_ended,
    ev.ProvinceAgeEffects: _age_effects,
    ev.BaseScoringDeclared: _base_scoring,
    ev.DominanceAwarded: _dominance,
    ev.HegemonScored: _hegemon,
    ev.KnowledgeReset: _reset,
    ev.KeptCardsReset: _kept_reset,
    ev.FinalScoringDeclared: _final,
    ev.GameEnded: _ended,
}
