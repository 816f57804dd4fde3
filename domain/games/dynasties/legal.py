"""Prompts and legal actions of Dynasties & Kingdoms (rules version dk-1): who must answer what
now (dynasties-kingdoms.md 1.3-1.6, 3, 4.11 and 5.3), and with which actions.

Exactly one prompt is open at a time: a player's decision (homeland, rolls to make in digital
mode, moves, the rebel controller, discards, end of phase) goes to that seat; an observed
outcome of a physical game (dice, the shuffle, the deal, the showdown) goes to the table
(seat None, the recorder).

Listings are subsets of what `decide` accepts, kept short so that they stay cheap:
- moves list, per source and target, the counts 1, half and all movable, plus the combined
  group of every movable army next to each target; `legal_templates` covers every other count
  and group with ranges (`move xiangzhou chengdu:1..5 kaifeng:1..3`, domain/templates.py);
- a physical Province roll lists every face for the next province in map order (any province
  still to roll is accepted, D6); physical deals and draws list the draw pile's cards in
  canonical order (and reversed for deals), respecting the reshuffle order of 4.3.
`probe_actions` adds only actions that must be refused (unknown ids, impossible faces, the last
army, wrong steps), so that every accepted probe is a listed one.
"""

from __future__ import annotations

from itertools import combinations

from domain.games.dynasties import battle as B
from domain.games.dynasties.actions import (
    Action,
    ChooseRebelController,
    DealBattle,
    DiscardAndDraw,
    EndPhase,
    MoveArmy,
    PickHomeland,
    ResolveBattle,
    RollCity,
    RollCityDestruction,
    RollProvince,
    RollTurnOrder,
    ShuffleDeck,
)
from domain.games.dynasties.cards import DECK, VALUE, canonical
from domain.games.dynasties.rules import PHASES, _due_to_roll, check, homeland_problem
from domain.games.dynasties.state import Source, State
from domain.ruleset import Actor, Command, Prompt

UNKNOWN = "nowhere"
FACES = (1, 2, 3, 4, 5, 6)


def prompt(state: State) -> Prompt | None:
    if state.status == "finished":
        return None
    if state.status == "setup_turn_order":
        due = _due_to_roll(state)
        return Prompt(
            None,
            "roll_turn_order",
            f"Enter the turn-order roll of {', '.join(due)}.",
            ("roll_turn_order",),
            {"players": list(due)},
        )
    if state.status == "setup_homelands":
        return Prompt(state.next_picker, "pick_homeland", "Pick a homeland.", ("pick_homeland",))
    if state.status == "setup_deck":
        return Prompt(None, "shuffle_deck", "Shuffle the deck.", ("shuffle_deck",))
    battle = state.battle
    active = state.active
    if battle is not None:
        step = battle.step
        if step == "choose_controller":
            return Prompt(active, step, "Choose who plays the rebels.", ("choose_rebel_controller",))
        if step.startswith("draw_"):
            side = B.side_of(battle, step.removeprefix("draw_"))
            return Prompt(side.player, step, f"Discard and draw for the {step[5:]}.", ("discard_and_draw",))
        step_kinds = {
            "deal": "deal_battle",
            "resolve": "resolve_battle",
            "city_destruction": "roll_city_destruction",
        }
        return Prompt(None, step, f"Battle in {battle.province}: {step}.", (step_kinds[step],))
    if state.city_roll is not None:
        return Prompt(None, "city_roll", f"Roll the City Table for {state.city_roll}.", ("roll_city",))
    if state.phase in ("city", "province") and state.to_roll:
        kind = "roll_city" if state.phase == "city" else "roll_province"
        seat = active if state.mode == "digital" else None
        return Prompt(
            seat,
            kind,
            f"Roll for {', '.join(state.to_roll)}.",
            (kind,),
            {
                "to_roll": list(state.to_roll),
                "first_die_color": state.opts.first_die_color,
                "second_die_color": state.opts.second_die_color,
            },
        )
    kinds = ("move_army", "end_phase") if state.phase == "expansion" else ("end_phase",)
    return Prompt(active, str(state.phase), f"Round {state.round}: {state.phase} phase.", kinds)


def pending(state: State) -> tuple[Prompt, ...]:
    p = prompt(state)
    return () if p is None else (p,)


def _pile(state: State, k: int, reverse: bool = False) -> tuple[tuple[str, ...], bool]:
    """Cards a physical table could draw next, respecting 4.3, and whether a reshuffle is due."""
    first = canonical(state.draw)
    if reverse:
        first = tuple(reversed(first))
    if len(first) >= k:
        return first, False
    rest = canonical(state.discard)
    return first + (tuple(reversed(rest)) if reverse else rest), True


def _deals(state: State) -> list[Action]:
    battle = state.current_battle
    a, d = battle.attacker.hand_size, battle.defender.hand_size
    seq = B.deal_sequence(a, d, state.opts.deal_order == "block")
    out: list[Action] = []
    for reverse in (False, True):
        if state.opts.deck_exhaustion == "fresh_deck_each_battle":
            pile, reshuffle, fresh = (tuple(reversed(DECK)) if reverse else DECK), False, True
        else:
            pile, reshuffle = _pile(state, a + d, reverse)
            fresh = False
        ac = tuple(c for c, s in zip(pile, seq, strict=False) if s == "attacker")
        dc = tuple(c for c, s in zip(pile, seq, strict=False) if s == "defender")
        out.append(DealBattle(ac, dc, reshuffle, fresh))
    return out


def _discard_options(state: State, side_name: str) -> list[tuple[str, ...]]:
    battle = state.current_battle
    side = B.side_of(battle, side_name)
    if side.kind == "rebels" and state.opts.rebel_control == "automatic":
        return [B.rebel_policy(side, state)]
    hidden = [c for c in side.cards if c != side.face_up or state.opts.face_up_discardable]
    if state.mode == "digital":
        return [combo for k in range(len(hidden) + 1) for combo in combinations(hidden, k)]
    counts: dict[int, int] = {}
    for c in side.cards:
        counts[VALUE[c]] = counts.get(VALUE[c], 0) + 1
    options = {(), tuple(hidden), tuple(c for c in hidden if counts[VALUE[c]] == 1)}
    options.update((c,) for c in hidden)
    return sorted(options, key=lambda o: (len(o), o))


def _draws(state: State, side_name: str) -> list[Action]:
    out: list[Action] = []
    for discard in _discard_options(state, side_name):
        if state.mode == "digital":
            out.append(DiscardAndDraw(side_name, discard))
        else:
            pile, reshuffle = _pile(state, len(discard))
            out.append(DiscardAndDraw(side_name, discard, pile[: len(discard)], reshuffle))
    return out


def _moves(state: State) -> list[Action]:
    board = state.map
    ids = board.ids
    provs = state.provs
    movable = _movable(state)
    out: list[Action] = []
    for t, target in enumerate(provs):
        if target.blocked_by is not None:
            continue
        nb = board.neighbours[t]
        sources = [i for i in movable if nb >> i & 1]
        for i in sources:
            m = movable[i]
            for count in sorted({1, (m + 1) // 2, m}):
                out.append(MoveArmy(ids[t], (Source(ids[i], count),)))
        if len(sources) > 1:
            out.append(MoveArmy(ids[t], tuple(Source(ids[i], movable[i]) for i in sources)))
    return out


def _movable(state: State) -> dict[int, int]:
    """Armies each of the active player's provinces may still send (4.5 and its variants)."""
    player = state.active
    again = state.opts.moved_armies_may_move_again
    original = state.opts.last_army_rule == "original_armies"
    movable: dict[int, int] = {}
    for i, p in enumerate(state.provs):
        if p.owner != player or p.blocked_by is not None:
            continue
        m = p.armies - 1 if not original else p.start_armies - 1 - p.sent_out
        if not again:
            m = min(m, p.armies - p.moved)
        m = min(m, p.armies - 1)
        if m > 0:
            movable[i] = m
    return movable


def legal_templates(state: State, seat: str | None) -> tuple[str, ...]:
    """Every move of the expansion phase as templates: per target, each group of adjacent
    provinces with armies to send, each sending 1 to all its movable armies."""
    p = prompt(state)
    if p is None or (seat is not None and seat != p.seat) or state.phase != "expansion":
        return ()
    if state.status != "playing" or state.battle is not None or state.city_roll is not None:
        return ()
    if not any(isinstance(a, MoveArmy) for a in legal_actions(state, seat)):
        return ()
    ids, board, movable = state.map.ids, state.map, _movable(state)
    by: Actor = "seat" if seat is not None else "recorder"
    out: list[str] = []
    for t, target in enumerate(state.provs):
        if target.blocked_by is not None:
            continue
        sources = [i for i in movable if board.neighbours[t] >> i & 1]
        for size in range(1, len(sources) + 1):
            for group in combinations(sources, size):
                # the rules judge a move by its target and group, so both ends stand for all
                fewest = MoveArmy(ids[t], tuple(Source(ids[i], 1) for i in group))
                most = MoveArmy(ids[t], tuple(Source(ids[i], movable[i]) for i in group))
                if all(check(state, a, Command(a, seat, by)) is None for a in (fewest, most)):
                    out.append(" ".join(["move", ids[t], *(f"{ids[i]}:1..{movable[i]}" for i in group)]))
    return tuple(out)


def candidates(state: State) -> list[Action]:
    status = state.status
    if status == "setup_turn_order":
        return [RollTurnOrder(p, v) for p in _due_to_roll(state) for v in FACES]
    if status == "setup_homelands":
        return [PickHomeland(pid) for pid in state.map.ids if homeland_problem(state, pid) is None]
    if status == "setup_deck":
        return [ShuffleDeck()]
    if status != "playing":
        return []
    battle = state.battle
    digital = state.mode == "digital"
    if battle is not None:
        step = battle.step
        if step == "choose_controller":
            return [ChooseRebelController(s) for s in state.seats if s != state.active]
        if step == "deal":
            return _deals(state)
        if step.startswith("draw_"):
            return _draws(state, step.removeprefix("draw_"))
        if step == "resolve":
            return [ResolveBattle(), ResolveBattle(B.showdown(state).winner)]
        return [RollCityDestruction(v) for v in FACES]
    if state.city_roll is not None:
        return [RollCity(state.city_roll, v) for v in FACES]
    if state.phase == "city" and state.to_roll:
        if digital:
            return [RollCity(p) for p in state.to_roll]
        return [RollCity(p, v) for p in state.to_roll for v in FACES]
    if state.phase == "province" and state.to_roll:
        if digital:
            return [RollProvince(p) for p in state.to_roll]
        return [RollProvince(state.to_roll[0], a, b) for a in FACES for b in FACES]
    if state.phase == "expansion":
        return [*_moves(state), EndPhase("expansion")]
    return [EndPhase(str(state.phase))]


def legal_actions(state: State, seat: str | None) -> tuple[Action, ...]:
    p = prompt(state)
    if p is None or (seat is not None and seat != p.seat):
        return ()
    by: Actor = "seat" if seat is not None else "recorder"
    return tuple(a for a in candidates(state) if check(state, a, Command(a, seat, by)) is None)


def probe_actions(state: State) -> tuple[Action, ...]:
    out: list[Action] = list(legal_actions(state, None))
    board = state.map
    seats = state.seats
    out += [RollTurnOrder(s, v) for s in (*seats, "zz") for v in (0, 7)]
    out += [PickHomeland(UNKNOWN)]
    out += [PickHomeland(p.id) for p in board.provinces if p.barbarian]
    out += [PickHomeland(p.homeland) for p in state.players if p.homeland is not None]
    out += [RollCity(UNKNOWN, 1), RollProvince(UNKNOWN, 1, 1), RollCityDestruction(7), RollCityDestruction(0)]
    out += [RollCity(p, 7) for p in state.to_roll] + [RollProvince(p, 7, 1) for p in state.to_roll]
    value = None if state.mode == "digital" else 3
    out += [RollCity(p, value) for p in state.rolled] + [RollProvince(p, value, value) for p in state.rolled]
    out += [EndPhase(ph) for ph in (*PHASES, "bogus") if EndPhase(ph) not in out]
    out += [ChooseRebelController(s) for s in (*seats, "zz") if ChooseRebelController(s) not in out]
    out += [DealBattle(("2C",), ("3C",)), ResolveBattle("nobody")]
    player = state.active
    for i, prov in enumerate(state.provs):
        if prov.owner != player or prov.armies == 0:
            continue
        pid = board.ids[i]
        nb = board.neighbours[i]
        near = next((board.ids[j] for j in range(len(board.ids)) if nb >> j & 1), None)
        far = next((board.ids[j] for j in range(len(board.ids)) if j != i and not nb >> j & 1), None)
        if near is not None:
            out.append(MoveArmy(near, (Source(pid, prov.armies),)))
            out.append(MoveArmy(near, (Source(pid, 0),)))
        if far is not None:
            out.append(MoveArmy(far, (Source(pid, 1),)))
    battle = state.battle
    if battle is not None and battle.step.startswith("draw_"):
        name = battle.step.removeprefix("draw_")
        other = "defender" if name == "attacker" else "attacker"
        out.append(DiscardAndDraw(other, (), ()))
        side = B.side_of(battle, name)
        if side.face_up is not None and not state.opts.face_up_discardable:
            out.append(
                DiscardAndDraw(name, (side.face_up,), None if state.mode == "digital" else (side.face_up,))
            )
    return tuple(out)
