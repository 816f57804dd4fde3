"""Battles of Dynasties & Kingdoms (rules version dk-1): dynasties-kingdoms.md section 4
(hand sizes 4.2, the shared deck and reshuffles 4.3, the deal 4.4, the draw round 4.5, ranking
and ties 4.6-4.7 via `cards.py`, the outcome 4.8, city destruction 4.9, rebels 4.10, the
steps 4.11) and the battle actions of 5.3.

Digital mode: the deal, the automatic rebels' draw, the showdown and the city destruction roll
are derived steps (`auto_step`), drawn from the ordered draw pile and the `deck` / `dice`
streams. Physical mode: the recorder enters the observed cards; impossible ones (not in the
draw pile, breaking the reshuffle order of 4.3) are refused with `CARD_UNAVAILABLE`.
"""

from __future__ import annotations

from domain.games.dynasties.actions import (
    ChooseRebelController,
    DealBattle,
    DiscardAndDraw,
    ResolveBattle,
    RollCityDestruction,
)
from domain.games.dynasties.cards import (
    CATEGORIES,
    DECK,
    VALUE,
    canonical,
    compare,
    evaluate,
    is_card,
    tie_card,
)
from domain.games.dynasties.engine import Ctx, reject, table_only
from domain.games.dynasties.events import (
    BattleDealt,
    BattleResolved,
    CardsReplaced,
    CityDestructionRolled,
    RebelControllerChosen,
    Reshuffle,
)
from domain.games.dynasties.state import Battle, Side, State
from domain.ruleset import Command, Rejection

SIDES = ("attacker", "defender")


def deal_sequence(a: int, d: int, block: bool) -> list[str]:
    """Which side receives each dealt card, in order (4.4, D20)."""
    if block:
        return ["attacker"] * a + ["defender"] * d
    out: list[str] = []
    ia = idd = 0
    while ia < a or idd < d:
        if ia < a:
            out.append("attacker")
            ia += 1
        if idd < d:
            out.append("defender")
            idd += 1
    return out


def dealt_in_order(
    battle: Battle, a_cards: tuple[str, ...], d_cards: tuple[str, ...], block: bool
) -> list[str]:
    seq = deal_sequence(len(a_cards), len(d_cards), block)
    ia = iter(a_cards)
    idd = iter(d_cards)
    return [next(ia) if s == "attacker" else next(idd) for s in seq]


def side_of(battle: Battle, name: str) -> Side:
    return battle.attacker if name == "attacker" else battle.defender


def _battle_gate(state: State, step: str) -> Rejection | None:
    if state.status != "playing":
        return reject("WRONG_STATUS", "Battles belong to play.", "5.2")
    if state.battle is None:
        return reject("NO_BATTLE", "No battle is in progress.", "4.11")
    if state.battle.step != step:
        return reject("PENDING_STEP", f"The battle is at step {state.battle.step}.", "4.11")
    return None


def _cards_ok(*lists: tuple[str, ...]) -> Rejection | None:
    flat = [c for lst in lists for c in lst]
    if not all(is_card(c) for c in flat) or len(set(flat)) != len(flat):
        return reject(
            "BAD_PARAMETER", "Cards are written rank then suit (e.g. TC), each at most once.", "5.2"
        )
    return None


# -- choose_rebel_controller ------------------------------------------------------------------


def check_choose(state: State, a: ChooseRebelController, command: Command) -> Rejection | None:
    if a.controller not in state.seats:
        return reject("BAD_PARAMETER", f"There is no player {a.controller!r}.", "5.2")
    if state.status != "playing":
        return reject("WRONG_STATUS", "Battles belong to play.", "5.2")
    if state.battle is None:
        return reject("NO_BATTLE", "No battle is in progress.", "4.11")
    if command.seat is not None and command.seat != state.active:
        return reject("NOT_YOUR_TURN", "The active player chooses who plays the rebels.", "4.10")
    if state.battle.step != "choose_controller":
        return reject("PENDING_STEP", f"The battle is at step {state.battle.step}.", "4.11")
    if a.controller == state.active:
        return reject("CONTROLLER_INVALID", "Choose another player to play the rebels.", "4.10")
    return None


def do_choose(ctx: Ctx, a: ChooseRebelController) -> None:
    ctx.emit(RebelControllerChosen(a.controller))


# -- deal_battle ------------------------------------------------------------------------------


def check_deal(state: State, a: DealBattle, command: Command) -> Rejection | None:
    bad = _cards_ok(a.attacker_cards, a.defender_cards)
    if bad:
        return bad
    if state.mode == "digital":
        return reject("BAD_PARAMETER", "The server deals in a digital game.", "5.4")
    fresh = state.opts.deck_exhaustion == "fresh_deck_each_battle"
    if a.shuffle and not fresh:
        return reject(
            "BAD_PARAMETER", "A fresh shuffle belongs to deck_exhaustion = fresh_deck_each_battle.", "5.3"
        )
    bad = _battle_gate(state, "deal") or table_only(state, command)
    if bad:
        return bad
    battle = state.current_battle
    if (
        len(a.attacker_cards) != battle.attacker.hand_size
        or len(a.defender_cards) != battle.defender.hand_size
    ):
        sizes = f"{battle.attacker.hand_size} and {battle.defender.hand_size}"
        return reject("HAND_SIZE", f"The hands have {sizes} cards.", "4.2")
    if fresh:
        if not a.shuffle:
            return reject("RESHUFFLE_REQUIRED", "Every battle starts with a fresh shuffle (D22).", "D22")
        if a.reshuffle:
            return reject("RESHUFFLE_NOT_ALLOWED", "A fresh deck needs no reshuffle.", "D22")
        return None
    need = len(a.attacker_cards) + len(a.defender_cards)
    short = len(state.draw) < need
    if short and not a.reshuffle:
        return reject("RESHUFFLE_REQUIRED", "The draw pile is too small: reshuffle the discards.", "4.3")
    if a.reshuffle and not short:
        return reject("RESHUFFLE_NOT_ALLOWED", "The draw pile is large enough.", "4.3")
    pool = set(state.draw) | (set(state.discard) if short else set())
    dealt = dealt_in_order(battle, a.attacker_cards, a.defender_cards, state.opts.deal_order == "block")
    if any(c not in pool for c in dealt):
        return reject("CARD_UNAVAILABLE", "A dealt card is not in the draw pile.", "4.4")
    if short and set(dealt[: len(state.draw)]) != set(state.draw):
        return reject("CARD_UNAVAILABLE", "The cards left in the draw pile are dealt first.", "4.3")
    return None


def do_deal(ctx: Ctx, a: DealBattle) -> None:
    state = ctx.state
    battle = state.current_battle
    reshuffle = None
    if a.shuffle:
        reshuffle = Reshuffle("fresh", 52, observed=True)
    elif a.reshuffle:
        reshuffle = Reshuffle("discards", len(state.discard), observed=True)
    ctx.emit(
        BattleDealt(
            a.attacker_cards,
            a.defender_cards,
            battle.attacker.player,
            battle.defender.player,
            reshuffle,
            True,
        )
    )


def _digital_pile(ctx: Ctx, need: int, fresh: bool) -> tuple[tuple[str, ...], Reshuffle | None]:
    state = ctx.state
    n = state.n_deck
    if fresh:
        order = tuple(ctx.rng.shuffle("deck", n, DECK))
        return order, Reshuffle("fresh", 52, order, "deck", n)
    if len(state.draw) >= need:
        return state.draw, None
    order = tuple(ctx.rng.shuffle("deck", n, canonical(state.discard)))
    return state.draw + order, Reshuffle("discards", len(order), order, "deck", n)


def auto_deal(ctx: Ctx) -> None:
    state = ctx.state
    battle = state.current_battle
    a, d = battle.attacker.hand_size, battle.defender.hand_size
    pile, reshuffle = _digital_pile(ctx, a + d, state.opts.deck_exhaustion == "fresh_deck_each_battle")
    seq = deal_sequence(a, d, state.opts.deal_order == "block")
    a_cards = tuple(c for c, s in zip(pile, seq, strict=False) if s == "attacker")
    d_cards = tuple(c for c, s in zip(pile, seq, strict=False) if s == "defender")
    ctx.emit(BattleDealt(a_cards, d_cards, battle.attacker.player, battle.defender.player, reshuffle))


# -- discard_and_draw -------------------------------------------------------------------------


def rebel_policy(side: Side, state: State) -> tuple[str, ...]:
    """The automatic rebels' discards (4.10)."""
    cards = side.cards
    value = evaluate(cards, state.opts.ace_low_straight)
    if CATEGORIES.index(value.category) >= CATEGORIES.index("straight"):
        return ()
    hidden = [c for c in cards if c != side.face_up]
    counts: dict[int, int] = {}
    for c in cards:
        counts[VALUE[c]] = counts.get(VALUE[c], 0) + 1
    paired = {v for v, k in counts.items() if k >= 2}
    if paired:
        out = [c for c in hidden if VALUE[c] not in paired]
    else:
        keep = max(hidden, key=lambda c: VALUE[c], default=None)
        out = [c for c in hidden if c != keep]
    if state.opts.card_limit == "total_7":
        room = max(0, 7 - side.hand_size)
        out = sorted(out, key=lambda c: VALUE[c])[:room]
        out = [c for c in hidden if c in out]
    return tuple(out)


def check_draw(state: State, a: DiscardAndDraw, command: Command) -> Rejection | None:
    if a.side not in SIDES:
        return reject("BAD_PARAMETER", "side is attacker or defender.", "5.2")
    bad = _cards_ok(a.discard, a.draw or ())
    if bad:
        return bad
    if state.mode == "digital" and a.reshuffle:
        return reject("BAD_PARAMETER", "The server reshuffles in a digital game.", "5.4")
    if state.mode == "physical" and a.draw is None:
        return reject("BAD_PARAMETER", "Enter the cards drawn.", "5.3")
    bad = _battle_gate(state, "draw_" + a.side)
    if bad:
        return bad
    battle = state.current_battle
    side = side_of(battle, a.side)
    if side.player is None:
        bad = table_only(state, command)
        if bad:
            return bad
    elif command.seat is not None and command.seat != side.player:
        return reject("NOT_YOUR_TURN", f"{side.player} plays the {a.side}'s hand.", "4.5")
    if any(c not in side.cards for c in a.discard):
        return reject("NOT_IN_HAND", "A discarded card is not in that hand.", "4.5")
    if side.face_up in a.discard and not state.opts.face_up_discardable:
        return reject("FACE_UP_CARD", "The face-up card cannot be discarded.", "4.5")
    if state.opts.card_limit == "total_7" and len(a.discard) > 7 - side.hand_size:
        return reject("DRAW_LIMIT", f"At most {7 - side.hand_size} replacements (total_7).", "D15")
    if a.draw is not None and len(a.draw) != len(a.discard):
        return reject("DRAW_COUNT", "Draw as many cards as were discarded.", "4.5")
    k = len(a.discard)
    short = len(state.draw) < k
    if state.mode == "physical":
        assert a.draw is not None
        if short and not a.reshuffle:
            return reject("RESHUFFLE_REQUIRED", "The draw pile is too small: reshuffle the discards.", "4.3")
        if a.reshuffle and not short:
            return reject("RESHUFFLE_NOT_ALLOWED", "The draw pile is large enough.", "4.3")
        pool = set(state.draw) | (set(state.discard) if short else set())
        if any(c not in pool for c in a.draw):
            return reject("CARD_UNAVAILABLE", "A drawn card is not in the draw pile.", "4.5")
        if short and set(a.draw[: len(state.draw)]) != set(state.draw):
            return reject("CARD_UNAVAILABLE", "The cards left in the draw pile are drawn first.", "4.3")
    automatic = side.kind == "rebels" and state.opts.rebel_control == "automatic"
    if automatic and set(a.discard) != set(rebel_policy(side, state)):
        return reject("RESULT_MISMATCH", "The automatic rebels discard by the policy of 4.10.", "4.10")
    return None


def do_draw(ctx: Ctx, a: DiscardAndDraw) -> Rejection | None:
    state = ctx.state
    battle = state.current_battle
    side = side_of(battle, a.side)
    # Discards keep the hand's order, whatever order they were listed in.
    discard = tuple(c for c in side.cards if c in a.discard)
    if state.mode == "physical":
        assert a.draw is not None
        reshuffle = (
            Reshuffle("discards", len(state.discard), observed=True)
            if len(state.draw) < len(discard)
            else None
        )
        ctx.emit(CardsReplaced(a.side, side.player, discard, a.draw, reshuffle, True))
        return None
    pile, reshuffle = _digital_pile(ctx, len(discard), False)
    drawn = pile[: len(discard)]
    if a.draw is not None and tuple(a.draw) != drawn:
        return reject("RESULT_MISMATCH", "The drawn cards are the top of the draw pile.", "4.5")
    ctx.emit(CardsReplaced(a.side, side.player, discard, drawn, reshuffle))
    return None


# -- resolve_battle ---------------------------------------------------------------------------


def showdown(state: State) -> BattleResolved:
    battle = state.current_battle
    opts = state.opts
    a_cards, d_cards = battle.attacker.cards, battle.defender.cards
    av = evaluate(a_cards, opts.ace_low_straight)
    dv = evaluate(d_cards, opts.ace_low_straight)
    result = compare(av, dv, opts.missing_kickers == "ignored")
    tie = result == 0
    if result > 0:
        winner = "attacker"
    elif result < 0:
        winner = "defender"
    elif opts.tie_rule == "redeal":
        winner = "tie"
    elif opts.tie_rule == "suit_order":
        r = av.key[0]
        winner = "attacker" if tie_card(a_cards, r) > tie_card(d_cards, r) else "defender"
    else:
        winner = "defender"
    if winner == "tie":
        next_step = "deal"
    elif (
        winner == "attacker"
        and state.prov(battle.province).city
        and not (battle.context == "uprising" and opts.city_destruction_scope == "expansion_only")
    ):
        next_step = "city_destruction"
    else:
        next_step = "over"
    return BattleResolved(winner, tie, a_cards, d_cards, av, dv, next_step)


def check_resolve(state: State, a: ResolveBattle, command: Command) -> Rejection | None:
    allowed = ("attacker", "defender", "tie") if state.opts.tie_rule == "redeal" else SIDES
    if a.declared_winner is not None and a.declared_winner not in allowed:
        return reject("BAD_PARAMETER", f"declared_winner is one of {', '.join(allowed)}.", "5.3")
    bad = _battle_gate(state, "resolve") or table_only(state, command)
    if bad:
        return bad
    if a.declared_winner is not None and a.declared_winner != showdown(state).winner:
        return reject("RESULT_MISMATCH", f"The hands say {showdown(state).winner} wins.", "4.7")
    return None


def do_resolve(ctx: Ctx, a: ResolveBattle) -> None:
    ctx.emit(showdown(ctx.state))


# -- roll_city_destruction --------------------------------------------------------------------


def check_destruction(state: State, a: RollCityDestruction, command: Command) -> Rejection | None:
    if a.value is not None and not 1 <= a.value <= 6:
        return reject("BAD_PARAMETER", f"A six-sided die shows 1 to 6, not {a.value}.", "5.2")
    if state.mode == "digital":
        return reject("BAD_PARAMETER", "The server rolls in a digital game.", "5.4")
    if a.value is None:
        return reject("BAD_PARAMETER", "Enter the die as the table rolled it.", "5.2")
    return _battle_gate(state, "city_destruction") or table_only(state, command)


def do_destruction(ctx: Ctx, a: RollCityDestruction) -> None:
    battle = ctx.state.battle
    assert battle is not None and a.value is not None
    ctx.emit(CityDestructionRolled(battle.province, a.value, a.value <= 3, observed=True))


# -- digital derived steps --------------------------------------------------------------------


def auto_step(ctx: Ctx) -> bool:
    """Run one derived battle step of a digital game; False when a player must act."""
    state = ctx.state
    battle = state.battle
    if battle is None:
        return False
    step = battle.step
    if step == "deal":
        auto_deal(ctx)
        return True
    if step in ("draw_attacker", "draw_defender"):
        name = step.removeprefix("draw_")
        side = side_of(battle, name)
        if side.kind == "rebels" and state.opts.rebel_control == "automatic":
            do_draw(ctx, DiscardAndDraw(name, rebel_policy(side, state)))
            return True
        return False
    if step == "resolve":
        ctx.emit(showdown(state))
        return True
    if step == "city_destruction":
        n = state.n_dice
        (value,) = ctx.rng.roll("dice", n, 6, 1)
        ctx.emit(CityDestructionRolled(battle.province, value, value <= 3, "dice", n))
        return True
    return False
