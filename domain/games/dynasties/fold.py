"""`evolve` of Dynasties & Kingdoms (rules version dk-1): applies one fact to the state
(dynasties-kingdoms.md sections 1-4 as facts). Pure and total: it never validates or draws.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.dynasties.cards import DECK, canonical
from domain.games.dynasties.events import (
    ArmiesDied,
    ArmiesMoved,
    ArmiesPlaced,
    ArmiesTrimmed,
    BattleDealt,
    BattleResolved,
    BattleStarted,
    BlocksLifted,
    CardsReplaced,
    CityBuilt,
    CityDestructionRolled,
    CityRemoved,
    CityRolled,
    CityRollPending,
    DeckShuffled,
    Fact,
    GameEnded,
    GameVoided,
    HomelandPicked,
    MapWarned,
    PhaseStarted,
    PlayerEliminated,
    ProvinceBlocked,
    ProvinceRolled,
    RebelControllerChosen,
    Reshuffle,
    RollOffRegrouped,
    TurnOrderDecided,
    TurnOrderRolled,
    TurnSkipped,
    TurnStarted,
    VtGained,
)
from domain.games.dynasties.state import Battle, BattleResult, Prov, Side, State, hand_size


def _set_prov(state: State, pid: str, prov: Prov) -> State:
    i = state.map.index[pid]
    provs = state.provs
    return replace(state, provs=(*provs[:i], prov, *provs[i + 1 :]))


def _set_player(state: State, pid: str, **changes: object) -> State:
    i = state.seats.index(pid)
    players = state.players
    return replace(state, players=(*players[:i], replace(players[i], **changes), *players[i + 1 :]))


def _reshuffled(state: State, r: Reshuffle | None) -> State:
    if r is None:
        return state
    n_deck = state.n_deck + (1 if r.n is not None else 0)
    if r.kind == "fresh":
        draw = r.order if not r.observed else DECK
        return replace(state, draw=draw, discard=(), n_deck=n_deck)
    draw = state.draw + r.order if state.mode == "digital" else canonical(state.draw + state.discard)
    return replace(state, draw=draw, discard=(), n_deck=n_deck)


def _without(pile: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    gone = set(cards)
    return tuple(c for c in pile if c not in gone)


def _next_draw_step(state: State, side: str) -> str:
    first = "attacker" if state.opts.draw_order == "attacker_first" else "defender"
    if side == first:
        return "draw_defender" if first == "attacker" else "draw_attacker"
    return "resolve"


def _resolve(state: State, fact: BattleResolved) -> State:
    battle = state.current_battle
    discard = state.discard + battle.attacker.cards + battle.defender.cards
    state = replace(state, discard=discard)
    if fact.winner == "tie":
        cleared = replace(battle, step="deal", result=None)
        a, d = cleared.attacker, cleared.defender
        cleared = replace(
            cleared, attacker=replace(a, cards=(), face_up=None), defender=replace(d, cards=(), face_up=None)
        )
        return replace(state, battle=cleared)
    prov = state.prov(battle.province)
    if battle.context == "expansion" and fact.winner == "attacker":
        prov = replace(
            prov,
            armies=battle.attacker.strength,
            owner=battle.attacker.player,
            rebels=0,
            moved=battle.attacker.strength,
            sent_out=0,
            start_armies=0,
        )
    elif battle.context == "uprising" and fact.winner == "attacker":
        prov = replace(
            prov, armies=0, owner=None, rebels=battle.attacker.strength, moved=0, sent_out=0, start_armies=0
        )
    state = _set_prov(state, battle.province, prov)
    if fact.next_step == "city_destruction":
        # The hands are in the discard pile now (I6); the showdown stays as the battle's result.
        result = BattleResult(fact.winner, fact.tie, fact.attacker_hand, fact.defender_hand)
        attacker = replace(battle.attacker, cards=(), face_up=None)
        defender = replace(battle.defender, cards=(), face_up=None)
        battle = replace(battle, step="city_destruction", attacker=attacker, defender=defender, result=result)
        return replace(state, battle=battle)
    return replace(state, battle=None)


def _rolled(state: State, province: str, n: int | None) -> State:
    """`province` has had its roll (City or Province table); a digital roll is one more operation
    of the `dice` stream."""
    return replace(
        state,
        to_roll=tuple(p for p in state.to_roll if p != province),
        rolled=(*state.rolled, province),
        n_dice=state.n_dice + (1 if n is not None else 0),
    )


def evolve(state: State, fact: Fact) -> State:
    if isinstance(fact, ProvinceRolled):
        return _rolled(state, fact.province, fact.n)
    if isinstance(fact, CityRolled):
        if fact.build:
            return replace(state, city_roll=None, n_dice=state.n_dice + (1 if fact.n is not None else 0))
        return _rolled(state, fact.province, fact.n)
    if isinstance(fact, VtGained):
        return _set_player(state, fact.player, vt=state.player(fact.player).vt + fact.amount)
    if isinstance(fact, ArmiesPlaced):
        prov = state.prov(fact.province)
        return _set_prov(
            state, fact.province, replace(prov, armies=prov.armies + fact.count, owner=fact.player)
        )
    if isinstance(fact, ArmiesDied):
        prov = state.prov(fact.province)
        return _set_prov(state, fact.province, replace(prov, armies=0, owner=None, moved=0))
    if isinstance(fact, ProvinceBlocked):
        return _set_prov(state, fact.province, replace(state.prov(fact.province), blocked_by=fact.player))
    if isinstance(fact, CityBuilt):
        return _set_prov(state, fact.province, replace(state.prov(fact.province), city=True))
    if isinstance(fact, CityRemoved):
        return _set_prov(state, fact.province, replace(state.prov(fact.province), city=False))
    if isinstance(fact, CityRollPending):
        return replace(state, city_roll=fact.province)
    if isinstance(fact, ArmiesMoved):
        return _moved(state, fact)
    if isinstance(fact, BattleStarted):
        attacker = Side(
            fact.attacker_kind,
            fact.attacker_player,
            fact.attacker_strength,
            hand_size(fact.attacker_strength),
            sources=fact.sources,
        )
        defender = Side(
            fact.defender_kind,
            fact.defender_player,
            fact.defender_strength,
            hand_size(fact.defender_strength),
        )
        attacked = state.attacked
        if fact.context == "expansion" and fact.province not in attacked:
            attacked = (*attacked, fact.province)
        return replace(
            state,
            battle=Battle(fact.context, fact.province, attacker, defender, fact.step),
            attacked=attacked,
        )
    if isinstance(fact, RebelControllerChosen):
        battle = state.current_battle
        if battle.attacker.kind == "rebels":
            battle = replace(battle, attacker=replace(battle.attacker, player=fact.controller))
        else:
            battle = replace(battle, defender=replace(battle.defender, player=fact.controller))
        return replace(state, battle=replace(battle, step="deal"))
    if isinstance(fact, BattleDealt):
        battle = state.current_battle
        state = _reshuffled(state, fact.reshuffle)
        a, d = fact.attacker_cards, fact.defender_cards
        step = "draw_attacker" if state.opts.draw_order == "attacker_first" else "draw_defender"
        battle = replace(
            battle,
            attacker=replace(battle.attacker, cards=a, face_up=a[0] if a else None),
            defender=replace(battle.defender, cards=d, face_up=d[0] if d else None),
            step=step,
        )
        return replace(state, draw=_without(state.draw, a + d), battle=battle)
    if isinstance(fact, CardsReplaced):
        battle = state.current_battle
        state = _reshuffled(state, fact.reshuffle)
        side = battle.attacker if fact.side == "attacker" else battle.defender
        gone = set(fact.discard)
        cards = tuple(c for c in side.cards if c not in gone) + fact.draw
        face_up = None if side.face_up in gone else side.face_up
        side = replace(side, cards=cards, face_up=face_up)
        step = _next_draw_step(state, fact.side)
        battle = replace(battle, **{fact.side: side, "step": step})
        return replace(
            state, draw=_without(state.draw, fact.draw), discard=state.discard + fact.discard, battle=battle
        )
    if isinstance(fact, BattleResolved):
        return _resolve(state, fact)
    if isinstance(fact, CityDestructionRolled):
        n = state.n_dice + (1 if fact.n is not None else 0)
        if fact.destroyed:
            state = _set_prov(state, fact.province, replace(state.prov(fact.province), city=False))
        return replace(state, battle=None, n_dice=n)
    if isinstance(fact, PhaseStarted):
        return _phase(state, fact)
    if isinstance(fact, TurnStarted):
        return replace(
            state,
            active=fact.player,
            round=fact.round,
            turns=state.turns + 1,
            phase="city",
            to_roll=fact.to_roll,
            rolled=(),
            attacked=(),
        )
    if isinstance(fact, BlocksLifted):
        for pid in fact.provinces:
            state = _set_prov(state, pid, replace(state.prov(pid), blocked_by=None))
        return state
    if isinstance(fact, TurnSkipped | MapWarned):
        return state
    if isinstance(fact, ArmiesTrimmed):
        for src in fact.trimmed:
            prov = state.prov(src.province)
            state = _set_prov(state, src.province, replace(prov, armies=prov.armies - src.count))
        return state
    if isinstance(fact, PlayerEliminated):
        return _set_player(state, fact.player, eliminated=True)
    if isinstance(fact, GameEnded):
        return replace(
            state, status="finished", winners=fact.winners, end_reason=fact.reason, phase=None, city_roll=None
        )
    if isinstance(fact, TurnOrderRolled):
        n = state.n_turn_order + (1 if fact.n is not None else 0)
        return replace(state, rolls=(*state.rolls, (fact.player, fact.value)), n_turn_order=n)
    if isinstance(fact, RollOffRegrouped):
        return replace(state, groups=fact.groups, rolls=())
    if isinstance(fact, TurnOrderDecided):
        return replace(
            state,
            turn_order=fact.order,
            groups=tuple((p,) for p in fact.order),
            rolls=(),
            status="setup_homelands",
            next_picker=fact.next_picker,
        )
    if isinstance(fact, HomelandPicked):
        state = _set_player(state, fact.player, homeland=fact.province)
        state = _set_prov(
            state, fact.province, replace(state.prov(fact.province), armies=4, owner=fact.player, city=True)
        )
        status = "setup_homelands" if fact.next_picker is not None else "setup_deck"
        return replace(state, next_picker=fact.next_picker, status=status)
    if isinstance(fact, DeckShuffled):
        n = state.n_deck + (1 if fact.n is not None else 0)
        draw = fact.order if not fact.observed else DECK
        return replace(state, draw=draw, discard=(), status="playing", round=1, n_deck=n)
    if isinstance(fact, GameVoided):
        return replace(state, status="finished", end_reason=f"{fact.code}: {fact.message}")
    raise AssertionError(f"unknown fact {fact!r}")  # pragma: no cover


def _moved(state: State, fact: ArmiesMoved) -> State:
    again = state.opts.moved_armies_may_move_again
    group = 0
    for src in fact.sources:
        prov = state.prov(src.province)
        armies = prov.armies - src.count
        moved = min(prov.moved, armies) if again else prov.moved
        state = _set_prov(
            state, src.province, replace(prov, armies=armies, moved=moved, sent_out=prov.sent_out + src.count)
        )
        group += src.count
    if fact.result == "attacking":
        return state
    prov = state.prov(fact.to)
    if fact.result == "occupied":
        prov = replace(prov, armies=group, owner=fact.player, moved=group, sent_out=0, start_armies=0)
    else:
        prov = replace(prov, armies=prov.armies + group, moved=prov.moved + group)
    return _set_prov(state, fact.to, prov)


def _phase(state: State, fact: PhaseStarted) -> State:
    if fact.phase == "expansion":
        original = state.opts.last_army_rule == "original_armies"
        provs = tuple(
            replace(
                p, moved=0, sent_out=0, start_armies=p.armies if original and p.owner == fact.player else 0
            )
            for p in state.provs
        )
        return replace(state, phase="expansion", to_roll=(), rolled=(), attacked=(), provs=provs)
    if fact.phase == "scoring":
        provs = tuple(
            p
            if p.moved == 0 and p.sent_out == 0 and p.start_armies == 0
            else replace(p, moved=0, sent_out=0, start_armies=0)
            for p in state.provs
        )
        return replace(state, phase="scoring", provs=provs)
    return replace(state, phase=fact.phase, to_roll=fact.to_roll, rolled=())
