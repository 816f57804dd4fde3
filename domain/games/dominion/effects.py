"""Card effects of Dominion (1st-edition base game): dominion.md 5.1 and 5.2.

Each card's "+" bonuses are data (`cards-v1.json`) applied by `engine.card_frame`; what is left
of its instructions is a small function here, registered in `engine.EFFECTS` under the card
name and run from step 1 of the card's frame, plus the answer handlers of the decisions those
cards open (`engine.ANSWERS`). Rulings:

- Mine, Moneylender and Throne Room are mandatory when possible (1st edition, 8.14; optional
  under `base_second_edition_wording`, where Moneylender asks yes/no); Mine and
  Remodel gain a card "costing up to" the trashed card's coins + 3 / + 2 with its debt as the
  debt bound (0, 8.8); a mandatory gain with no eligible pile does nothing.
- Feast trashes itself only if this play still has it in play; Throne Room's second play of a
  Feast therefore only gains (5.2). The frame's `gone` flag carries that from the first play.
- Spy reveals the attacker's own top card first, then each non-immune opponent's (5.2);
  Thief's attacker chooses which revealed Treasure the victim trashes, the victim discards the
  rest, and at the end the attacker may gain any of the trashed cards still in the trash.
- Library: a drawn Action may be set aside (face up, public); a kept one stays hidden in hand.
  The choice is asked about the card just drawn, which is the last card of the hand.
- Bureaucrat's victims and Militia's discards are opened together, one decision per victim
  (4.3 rule 1); a victim whose answer is forced answers at once. A victim with no Victory card
  reveals the whole hand.
- Chancellor's "put your deck into your discard pile" moves the deck without anyone seeing it;
  only its size is public.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games.dominion.data import DATA
from domain.games.dominion.engine import (
    ANSWERS,
    EFFECTS,
    WAIT,
    Ctx,
    ask,
    draw,
    gain,
    gain_from_trash,
    identify,
    in_play,
    left_play,
    peek,
    play,
    settle,
    targets,
    this,
    trash,
)
from domain.games.dominion.events import (
    Chose,
    DeckDiscarded,
    Discarded,
    Drew,
    Moved,
    Plus,
    Reacted,
    Revealed,
)
from domain.games.dominion.state import Decision, Frame
from domain.games.dominion.unseen import could_hold


def _gain_prompt(
    p: int, source: str, cost: tuple[int, int], purpose: str = "gain", types: tuple[str, ...] = ()
) -> Decision:
    return Decision(p, "pile", purpose, source=source, verb="gain", lo=1, hi=1, cost=cost, types=types)


# --- cards ------------------------------------------------------------------------------------


def adventurer(ctx: Ctx, f: Frame) -> None:
    while f.n < 2:
        top = peek(ctx, f.p, "reveal")
        if top is None:
            break
        if top == WAIT:
            return
        ctx.emit(Revealed(ctx.seat(f.p), (top,), "deck", "aside"))
        if top in DATA.treasures:
            f = ctx.set(replace(f, n=f.n + 1))
    ctx.frames.pop()
    aside = ctx.state.players[f.p].aside
    found = tuple(c for c in aside if c in DATA.treasures)
    rest = tuple(c for c in aside if c not in DATA.treasures)
    if found:
        ctx.emit(Moved(ctx.seat(f.p), found, "aside", "hand"))
    if rest:
        ctx.emit(Discarded(ctx.seat(f.p), rest, "aside", len(rest), rest[-1], public=True))


def bureaucrat(ctx: Ctx, f: Frame) -> None:
    for t in targets(ctx, f):
        # A victim reveals a Victory card or else the whole hand: unseen cards of a hand with
        # no Victory card seen are named first, whichever it turns out to be.
        hand = ctx.state.players[t].hand
        if not any(c in DATA.victories for c in hand) and not identify(ctx, t, "hand"):
            return
    ctx.frames.pop()
    gain(ctx, f.p, "Silver", "deck")
    for t in targets(ctx, f):
        hand = ctx.state.players[t].hand
        if any(c in DATA.victories for c in hand):
            ask(ctx, Decision(t, "select", "topdeck", "Bureaucrat", "topdeck", 1, 1, types=("Victory",)))
        else:
            ctx.emit(Revealed(ctx.seat(t), hand, "hand", "hand"))


def cellar(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    hand = len(ctx.state.players[f.p].hand)
    ask(ctx, Decision(f.p, "select", "cellar", "Cellar", "discard", 0, hand))


def chancellor(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    ask(ctx, Decision(f.p, "choose", "chancellor", "Chancellor", options=("yes", "no")))


def chapel(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    ask(ctx, Decision(f.p, "select", "trash", "Chapel", "trash", 0, 4))


def council_room(ctx: Ctx, f: Frame) -> None:
    each_draws_one(ctx, f, ctx.state.others(f.p))


def each_draws_one(ctx: Ctx, f: Frame, players: tuple[int, ...]) -> None:
    """Each of these players draws a card in turn order, then the frame ends; `n` counts the
    players done, so a physical game's observation resumes with the next one."""
    while f.n < len(players):
        f = ctx.set(replace(f, n=f.n + 1))
        if not draw(ctx, players[f.n - 1], 1):
            return
    ctx.frames.pop()


def feast(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    if in_play(ctx, f):
        # A Throne Room or Crown playing this Feast must not find it in play for its second play.
        left_play(ctx, f, popped=True)
        trash(ctx, f.p, (this(f),), "play")
    ask(ctx, _gain_prompt(f.p, "Feast", (5, 0)))


def library(ctx: Ctx, f: Frame) -> None:
    seat = ctx.seat(f.p)
    while len(ctx.state.players[f.p].hand) < 7:
        top = peek(ctx, f.p, "look")
        if top is None:
            break
        if top == WAIT:
            return
        ctx.emit(Drew(seat, (top,), 1))
        if top in DATA.actions:
            ask(ctx, Decision(f.p, "choose", "library", "Library", options=("keep", "set_aside")))
            return
    ctx.frames.pop()
    aside = ctx.state.players[f.p].aside
    if aside:
        ctx.emit(Discarded(seat, aside, "aside", len(aside), aside[-1], public=True))


def militia(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    for t in targets(ctx, f):
        excess = len(ctx.state.players[t].hand) - 3
        if excess > 0:
            ask(ctx, Decision(t, "select", "discard", "Militia", "discard", excess, excess))


def _must(ctx: Ctx) -> int:
    """1 where the 1st edition makes a choice mandatory, 0 under the 2nd-edition wording."""
    return 0 if ctx.state.variants.base_second_edition_wording else 1


def mine(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    ask(ctx, Decision(f.p, "select", "mine", "Mine", "trash", _must(ctx), 1, types=("Treasure",)))


def moneylender(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    pl = ctx.state.players[f.p]
    if not could_hold(pl, pl.hand, lambda c: c == "Copper"):
        return
    if _must(ctx) and "Copper" in pl.hand:
        _moneylender(ctx, Decision(f.p, "choose", "moneylender", "Moneylender"), "yes")
    else:
        ask(ctx, Decision(f.p, "choose", "moneylender", "Moneylender", options=("yes", "no")))


def remodel(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    ask(ctx, Decision(f.p, "select", "remodel", "Remodel", "trash", 1, 1))


def spy(ctx: Ctx, f: Frame) -> None:
    order = (f.p, *targets(ctx, f))
    while f.n < len(order):
        t = order[f.n]
        top = peek(ctx, t, "reveal")
        if top == WAIT:
            return
        f = ctx.set(replace(f, n=f.n + 1))
        if top is None:
            continue
        ctx.emit(Revealed(ctx.seat(t), (top,), "deck", "deck"))
        ask(ctx, Decision(f.p, "choose", "spy", "Spy", options=("discard", "keep"), target=t))
        return
    ctx.frames.pop()


def reveal_two_aside(ctx: Ctx, t: int) -> bool:
    """Reveals the top cards of t's deck into its set-aside zone until two are there or none is
    left (Thief, Bandit); False while the recorder has to name one."""
    while len(ctx.state.players[t].aside) < 2:
        top = peek(ctx, t, "reveal")
        if top is None:
            break
        if top == WAIT:
            return False
        ctx.emit(Revealed(ctx.seat(t), (top,), "deck", "aside"))
    return True


def discard_aside(ctx: Ctx, p: int) -> None:
    """p discards its set-aside cards, face up."""
    rest = ctx.state.players[p].aside
    if rest:
        ctx.emit(Discarded(ctx.seat(p), rest, "aside", len(rest), rest[-1], public=True))


def thief(ctx: Ctx, f: Frame) -> None:
    victims = targets(ctx, f)
    while f.n < len(victims):
        t = victims[f.n]
        if f.step == 1:
            if not reveal_two_aside(ctx, t):
                return
            f = ctx.set(replace(f, step=2))
            found = tuple(c for c in ctx.state.players[t].aside if c in DATA.treasures)
            if found:
                ask(
                    ctx, Decision(f.p, "select", "thief_trash", "Thief", "trash", 1, 1, cards=found, target=t)
                )
                return
        discard_aside(ctx, t)
        f = ctx.set(replace(f, step=1, n=f.n + 1))
    ctx.frames.pop()
    stolen: list[str] = []
    pool = list(ctx.state.trash)
    for card in f.cards:
        if card in pool:
            pool.remove(card)
            stolen.append(card)
    if stolen:
        ask(ctx, Decision(f.p, "select", "thief_gain", "Thief", "gain", 0, len(stolen), cards=tuple(stolen)))


def throne_room(ctx: Ctx, f: Frame) -> None:
    play_twice(
        ctx, f, Decision(f.p, "select", "throne", "Throne Room", "play", _must(ctx), 1, types=("Action",))
    )


def play_twice(ctx: Ctx, f: Frame, choice: Decision) -> None:
    """Throne Room and Crown: choose a card (step 1), play it (2), then play it again (3),
    even if it has left play."""
    if f.step == 1:
        ctx.set(replace(f, step=2))
        ask(ctx, choice)
        return
    if f.step == 2 and f.cards:
        ctx.set(replace(f, step=3))
        play(ctx, f.p, f.cards[0])
        return
    if f.step == 3:
        ctx.set(replace(f, step=4))
        play(ctx, f.p, f.cards[0], again=True, gone=f.gone)
        return
    ctx.frames.pop()


def witch(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    for t in targets(ctx, f):
        gain(ctx, t, "Curse")


def workshop(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    ask(ctx, _gain_prompt(f.p, "Workshop", (4, 0)))


EFFECTS.update(
    {
        "Adventurer": adventurer,
        "Bureaucrat": bureaucrat,
        "Cellar": cellar,
        "Chancellor": chancellor,
        "Chapel": chapel,
        "Council Room": council_room,
        "Feast": feast,
        "Library": library,
        "Militia": militia,
        "Mine": mine,
        "Moneylender": moneylender,
        "Remodel": remodel,
        "Spy": spy,
        "Thief": thief,
        "Throne Room": throne_room,
        "Witch": witch,
        "Workshop": workshop,
    }
)


def _public(ctx: Ctx) -> bool:
    return ctx.state.variants.all_discards_public


# --- answers ----------------------------------------------------------------------------------


def _react(ctx: Ctx, d: Decision, card: Any) -> None:
    ctx.emit(Reacted(ctx.seat(d.p), card, d.source))
    if card is not None:
        top = ctx.frames[-1]
        ctx.set(replace(top, immune=(*top.immune, d.p)))


def _trash(ctx: Ctx, d: Decision, cards: Any) -> None:
    trash(ctx, d.p, cards)


def _discard(ctx: Ctx, d: Decision, cards: Any) -> None:
    if cards:
        ctx.emit(Discarded(ctx.seat(d.p), cards, "hand", len(cards), cards[-1], _public(ctx)))


def _cellar(ctx: Ctx, d: Decision, cards: Any) -> None:
    if cards:
        ctx.emit(Discarded(ctx.seat(d.p), cards, "hand", len(cards), cards[-1], _public(ctx)))
        draw(ctx, d.p, len(cards))


def _gain(ctx: Ctx, d: Decision, pile: Any) -> None:
    if pile is not None:
        gain(ctx, d.p, pile)


def _gain_hand(ctx: Ctx, d: Decision, pile: Any) -> None:
    if pile is not None:
        gain(ctx, d.p, pile, "hand")


def _chancellor(ctx: Ctx, d: Decision, option: Any) -> None:
    ctx.emit(Chose(ctx.seat(d.p), option, d.source))
    pl = ctx.state.players[d.p]
    if option == "yes" and (pl.deck or pl.unknown):
        moved = pl.deck + pl.unknown
        ctx.emit(DeckDiscarded(ctx.seat(d.p), len(moved), moved[-1]))


def _library(ctx: Ctx, d: Decision, option: Any) -> None:
    ctx.emit(Chose(ctx.seat(d.p), option, d.source))
    if option == "set_aside":
        ctx.emit(Moved(ctx.seat(d.p), (ctx.state.players[d.p].hand[-1],), "hand", "aside"))


def _spy(ctx: Ctx, d: Decision, option: Any) -> None:
    ctx.emit(Chose(ctx.seat(d.p), option, d.source))
    if option == "discard":
        top = ctx.state.players[d.target].deck[:1]
        ctx.emit(Discarded(ctx.seat(d.target), top, "deck", 1, top[0], public=True))


def _topdeck(ctx: Ctx, d: Decision, cards: Any) -> None:
    ctx.emit(Moved(ctx.seat(d.p), cards, "hand", "deck"))


def _moneylender(ctx: Ctx, d: Decision, option: Any) -> None:
    if d.options:
        ctx.emit(Chose(ctx.seat(d.p), option, d.source))
    if option == "yes":
        settle(ctx, d.p, "hand", ("Copper",))
        trash(ctx, d.p, ("Copper",))
        ctx.emit(Plus(ctx.seat(d.p), "Moneylender", coins=3))


def more_than(ctx: Ctx, card: str, extra: int) -> tuple[int, int]:
    """ "Costing up to $N more than" a card: its debt is the debt bound (8.8), or no debt at all
    under `relative_gain_requires_zero_debt`."""
    c, debt = DATA.cost[card]
    return (c + extra, 0 if ctx.state.variants.relative_gain_requires_zero_debt else debt)


def _mine(ctx: Ctx, d: Decision, cards: Any) -> None:
    if not cards:
        return
    trash(ctx, d.p, cards)
    ask(ctx, _gain_prompt(d.p, "Mine", more_than(ctx, cards[0], 3), "gain_hand", ("Treasure",)))


def _remodel(ctx: Ctx, d: Decision, cards: Any) -> None:
    trash(ctx, d.p, cards)
    ask(ctx, _gain_prompt(d.p, "Remodel", more_than(ctx, cards[0], 2)))


def _thief_trash(ctx: Ctx, d: Decision, cards: Any) -> None:
    trash(ctx, d.target, cards, "aside")
    top = ctx.frames[-1]
    ctx.set(replace(top, cards=top.cards + tuple(cards)))


def _thief_gain(ctx: Ctx, d: Decision, cards: Any) -> None:
    for card in cards:
        gain_from_trash(ctx, d.p, card)


def _throne(ctx: Ctx, d: Decision, cards: Any) -> None:
    ctx.set(replace(ctx.frames[-1], cards=tuple(cards)))


ANSWERS.update(
    {
        "react": _react,
        "trash": _trash,
        "discard": _discard,
        "cellar": _cellar,
        "gain": _gain,
        "gain_hand": _gain_hand,
        "chancellor": _chancellor,
        "library": _library,
        "spy": _spy,
        "topdeck": _topdeck,
        "mine": _mine,
        "moneylender": _moneylender,
        "remodel": _remodel,
        "thief_trash": _thief_trash,
        "thief_gain": _thief_gain,
        "throne": _throne,
    }
)
