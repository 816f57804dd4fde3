"""Empires Action cards (dominion.md 5.3): City Quarter, Catapult, Chariot Race, Encampment,
Engineer, Farmers' Market, Forum, Gladiator, Groundskeeper, Legionary, Patrician, Emporium,
Royal Blacksmith, Sacrifice, Settlers, Bustling Village, Temple and Wild Hunt.

Their "+" bonuses are data; what is left is here. Rulings:

- "This" card is the frame's token in play (`Frame.card`, or the name it was played as): an
  Overlord acting as Encampment, Engineer or Farmers' Market moves or trashes the Overlord.
  A card that already left play (set aside, trashed) is not found again by a second play from
  Throne Room: the Throne Room's frame is marked `gone`, as for Feast.
- Catapult curses on a coin cost of $3 or more (debt is ignored, 0); its discarding and
  Legionary's are opened together, one decision per victim (4.3 rule 1). Legionary's victims
  draw only once every victim has discarded, in turn order.
- Chariot Race compares costs with the partial order of 0: a tie or incomparable costs give
  nothing.
- Gladiator: the player to the left may decline to reveal a copy even while holding one; a
  Fortune on top of the pile is not trashed.
- The gathering cards keep their VP on their pile (`pile_vp`, by pile id); Temple and Wild
  Hunt add theirs even when the pile is empty.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games.dominion.data import DATA
from domain.games.dominion.effects import each_draws_one
from domain.games.dominion.engine import (
    ANSWERS,
    EFFECTS,
    ON_GAIN,
    OWN_BUY,
    OWN_GAIN,
    WAIT,
    Ctx,
    Handler,
    ask,
    draw,
    gain,
    identify,
    in_play,
    left_play,
    peek,
    take_vp,
    targets,
    this,
    tokens,
    trash,
    trash_from_supply,
)
from domain.games.dominion.events import Chose, Discarded, Moved, Plus, Revealed
from domain.games.dominion.state import Decision, Frame, acting

GATHERING_PILE = {name: DATA.home[name] for name in ("Farmers' Market", "Temple", "Wild Hunt")}


def _store(ctx: Ctx, cards: tuple[str, ...], n: int | None = None) -> None:
    """An answer handler's result, kept on the card's frame (the top frame)."""
    top = ctx.frames[-1]
    ctx.set(replace(top, cards=cards, n=top.n if n is None else n))


def _gain_prompt(p: int, source: str, purpose: str = "gain") -> Decision:
    return Decision(p, "pile", purpose, source=source, verb="gain", lo=1, hi=1, cost=(4, 0))


def more_costly(a: str, b: str) -> bool:
    """Does a cost more than b (the strict partial order of 0)?"""
    (ac, ad), (bc, bd) = DATA.cost[a], DATA.cost[b]
    return ac >= bc and ad >= bd and (ac, ad) != (bc, bd)


# --- cards ------------------------------------------------------------------------------------


def city_quarter(ctx: Ctx, f: Frame) -> None:
    if not identify(ctx, f.p, "hand"):
        return  # the revealed hand is named first (6.4)
    ctx.frames.pop()
    hand = ctx.state.players[f.p].hand
    if not hand:
        return
    ctx.emit(Revealed(ctx.seat(f.p), hand, "hand", "hand"))
    n = sum(1 for c in hand if c in DATA.actions)
    if n:
        draw(ctx, f.p, n)


def _trashed(ctx: Ctx, f: Frame, choice: str, source: str) -> str | None:
    """A card that trashes one from its player's hand, then acts on what was trashed
    (Catapult, Sacrifice): first the choice is asked, when the hand holds a card; then the
    frame ends and the card trashed, if any, is returned. None means there is nothing more to
    do now (the answer is awaited, or nothing was trashed)."""
    if f.step == 1:
        f = ctx.set(replace(f, step=2))
        if ctx.state.players[f.p].hand:
            ask(ctx, Decision(f.p, "select", choice, source, "trash", 1, 1))
            return None
    ctx.frames.pop()
    return f.cards[0] if f.cards else None


def catapult(ctx: Ctx, f: Frame) -> None:
    card = _trashed(ctx, f, "catapult", "Catapult")
    if card is None:
        return
    victims = targets(ctx, f)
    if DATA.cost[card][0] >= 3:
        for t in victims:
            gain(ctx, t, "Curse")
    if card in DATA.treasures:
        discard_down(ctx, victims, 3, "Catapult")


def discard_down(ctx: Ctx, victims: tuple[int, ...], n: int, source: str) -> None:
    for t in victims:
        excess = len(ctx.state.players[t].hand) - n
        if excess > 0:
            ask(ctx, Decision(t, "select", "discard", source, "discard", excess, excess))


def chariot_race(ctx: Ctx, f: Frame) -> None:
    seat = ctx.seat(f.p)
    if f.step == 1:
        top = peek(ctx, f.p, "reveal")
        if top == WAIT:
            return
        mine: tuple[str, ...] = ()
        if top is not None:
            mine = (top,)
            ctx.emit(Revealed(seat, mine, "deck", "hand"))
        f = ctx.set(replace(f, step=2, cards=mine))
    left = ctx.state.others(f.p)[0]
    theirs = peek(ctx, left, "reveal")
    if theirs == WAIT:
        return
    ctx.frames.pop()
    if theirs is None:
        return
    ctx.emit(Revealed(ctx.seat(left), (theirs,), "deck", "deck"))
    if f.cards and more_costly(f.cards[0], theirs):
        ctx.emit(Plus(seat, "Chariot Race", coins=1))
        tokens(ctx, "Chariot Race", f.p, vp=1)


def encampment(ctx: Ctx, f: Frame) -> None:
    if f.step == 1:
        f = ctx.set(replace(f, step=2))
        ask(
            ctx,
            Decision(f.p, "select", "encampment", "Encampment", "reveal", 0, 1, names=("Gold", "Plunder")),
        )
        return
    if f.n == 0 and in_play(ctx, f):
        left_play(ctx, f)
        ctx.emit(Moved(ctx.seat(f.p), (this(f),), "play", "encampment"))
    ctx.frames.pop()


def engineer(ctx: Ctx, f: Frame) -> None:
    if f.step == 1:
        ctx.set(replace(f, step=2))
        ask(ctx, _gain_prompt(f.p, "Engineer"))
        return
    if f.step == 2:
        if not in_play(ctx, f):
            ctx.frames.pop()
            return
        ctx.set(replace(f, step=3))
        ask(ctx, Decision(f.p, "choose", "engineer", "Engineer", options=("trash_this", "keep")))
        return
    if f.cards == ("trash_this",) and in_play(ctx, f):
        left_play(ctx, f)
        ctx.frames.pop()
        trash(ctx, f.p, (this(f),), "play")
        ask(ctx, _gain_prompt(f.p, "Engineer"))
        return
    ctx.frames.pop()


def farmers_market(ctx: Ctx, f: Frame) -> None:
    pile = GATHERING_PILE["Farmers' Market"]
    have = ctx.state.pile_vp.get(pile, 0)
    if have >= 4:
        take_vp(ctx, f.p, "Farmers' Market", pile=pile)
        if in_play(ctx, f):
            left_play(ctx, f)
            ctx.frames.pop()
            trash(ctx, f.p, (this(f),), "play")
            return
    else:
        tokens(ctx, "Farmers' Market", pile=pile, pile_vp=1)
        ctx.emit(Plus(ctx.seat(f.p), "Farmers' Market", coins=have + 1))
    ctx.frames.pop()


def forum(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    ask(ctx, Decision(f.p, "select", "discard", "Forum", "discard", 2, 2))


def _forum_bought(ctx: Ctx, buyer: int, card: str) -> None:
    ctx.emit(Plus(ctx.seat(buyer), "Forum", buys=1))


def gladiator(ctx: Ctx, f: Frame) -> None:
    if f.step == 1:
        f = ctx.set(replace(f, step=2))
        if ctx.state.players[f.p].hand:
            ask(ctx, Decision(f.p, "select", "gladiator", "Gladiator", "reveal", 1, 1))
            return
    if f.step == 2:
        f = ctx.set(replace(f, step=3))
        left = ctx.state.others(f.p)[0]
        if f.cards:
            # Asked whenever the player to the left might hold a copy; one who cannot declines
            # at once, logged like a voluntary decline.
            ask(
                ctx,
                Decision(left, "select", "gladiator_copy", "Gladiator", "reveal", 0, 1, names=f.cards[:1]),
            )
            return
        ctx.emit(Chose(ctx.seat(left), "no_copy", "Gladiator"))
    ctx.frames.pop()
    if f.n:
        return
    ctx.emit(Plus(ctx.seat(f.p), "Gladiator", coins=1))
    pile = DATA.home["Gladiator"]
    if ctx.state.supply.get(pile, ())[:1] == ("Gladiator",):
        trash_from_supply(ctx, f.p, pile)


def _groundskeeper(ctx: Ctx, gainer: int, card: str, to: str) -> None:
    if card not in DATA.victories:
        return
    n = sum(1 for c in ctx.state.players[gainer].play if acting(c) == "Groundskeeper")
    if n:
        tokens(ctx, "Groundskeeper", gainer, vp=n)


def legionary(ctx: Ctx, f: Frame) -> None:
    if f.step == 1:
        f = ctx.set(replace(f, step=2))
        ask(ctx, Decision(f.p, "select", "legionary", "Legionary", "reveal", 0, 1, names=("Gold",)))
        return
    victims = targets(ctx, f)
    if f.step == 2:
        if not f.n:
            ctx.frames.pop()
            return
        f = ctx.set(replace(f, step=3, n=0))
        discard_down(ctx, victims, 2, "Legionary")
        if ctx.prompts:
            return
    each_draws_one(ctx, f, victims)


def patrician(ctx: Ctx, f: Frame) -> None:
    top = peek(ctx, f.p, "reveal")
    if top == WAIT:
        return
    ctx.frames.pop()
    if top is None:
        return
    to = "hand" if DATA.cost[top][0] >= 5 else "deck"
    ctx.emit(Revealed(ctx.seat(f.p), (top,), "deck", to))


def _emporium_gained(ctx: Ctx, gainer: int, card: str, to: str) -> None:
    actions = sum(1 for c in ctx.state.players[gainer].play if acting(c) in DATA.actions)
    if actions >= 5:
        tokens(ctx, "Emporium", gainer, vp=2)


def royal_blacksmith(ctx: Ctx, f: Frame) -> None:
    if not identify(ctx, f.p, "hand"):
        return  # the revealed hand is named first (6.4)
    ctx.frames.pop()
    seat = ctx.seat(f.p)
    hand = ctx.state.players[f.p].hand
    if not hand:
        return
    ctx.emit(Revealed(seat, hand, "hand", "hand"))
    coppers = tuple(c for c in hand if c == "Copper")
    if coppers:
        ctx.emit(Discarded(seat, coppers, "hand", len(coppers), "Copper", public=True))


def sacrifice(ctx: Ctx, f: Frame) -> None:
    card = _trashed(ctx, f, "sacrifice", "Sacrifice")
    if card is None:
        return
    action, treasure = card in DATA.actions, card in DATA.treasures
    if action or treasure:
        ctx.emit(Plus(ctx.seat(f.p), "Sacrifice", actions=2 if action else 0, coins=2 if treasure else 0))
    if card in DATA.victories:
        tokens(ctx, "Sacrifice", f.p, vp=2)
    if action:
        draw(ctx, f.p, 2)


def _take_from_discard(card: str, source: str) -> Handler:
    def effect(ctx: Ctx, f: Frame) -> None:
        ctx.frames.pop()
        ask(ctx, Decision(f.p, "select", "take_discard", source, "take", 0, 1, names=(card,), zone="discard"))

    return effect


def temple(ctx: Ctx, f: Frame) -> None:
    if f.step == 1:
        f = ctx.set(replace(f, step=2))
        tokens(ctx, "Temple", f.p, vp=1)
        if ctx.state.players[f.p].hand:
            ask(ctx, Decision(f.p, "select", "temple", "Temple", "trash", 1, 3))
            return
    ctx.frames.pop()
    tokens(ctx, "Temple", pile=GATHERING_PILE["Temple"], pile_vp=1)


def _temple_gained(ctx: Ctx, gainer: int, card: str, to: str) -> None:
    take_vp(ctx, gainer, "Temple", pile=GATHERING_PILE["Temple"])


def wild_hunt(ctx: Ctx, f: Frame) -> None:
    if f.step == 1:
        ctx.set(replace(f, step=2))
        ask(ctx, Decision(f.p, "choose", "wild_hunt", "Wild Hunt", options=("draw", "estate")))
        return
    pile = GATHERING_PILE["Wild Hunt"]
    if f.cards == ("draw",):
        if f.step == 2:
            ctx.set(replace(f, step=3))
            if not draw(ctx, f.p, 3):
                return
        ctx.frames.pop()
        tokens(ctx, "Wild Hunt", pile=pile, pile_vp=1)
        return
    ctx.frames.pop()
    if gain(ctx, f.p, "Estate"):
        take_vp(ctx, f.p, "Wild Hunt", pile=pile)


EFFECTS.update(
    {
        "City Quarter": city_quarter,
        "Catapult": catapult,
        "Chariot Race": chariot_race,
        "Encampment": encampment,
        "Engineer": engineer,
        "Farmers' Market": farmers_market,
        "Forum": forum,
        "Gladiator": gladiator,
        "Legionary": legionary,
        "Patrician": patrician,
        "Royal Blacksmith": royal_blacksmith,
        "Sacrifice": sacrifice,
        "Settlers": _take_from_discard("Copper", "Settlers"),
        "Bustling Village": _take_from_discard("Settlers", "Bustling Village"),
        "Temple": temple,
        "Wild Hunt": wild_hunt,
    }
)
OWN_BUY["Forum"] = _forum_bought
OWN_GAIN["Emporium"] = _emporium_gained
OWN_GAIN["Temple"] = _temple_gained
ON_GAIN["Groundskeeper"] = _groundskeeper


# --- answers ----------------------------------------------------------------------------------


def _trash_kept(ctx: Ctx, d: Decision, cards: Any) -> None:
    """Catapult, Sacrifice: trash the card and remember it for the rest of the play."""
    trash(ctx, d.p, cards)
    _store(ctx, tuple(cards))


def _revealed(ctx: Ctx, d: Decision, cards: Any) -> None:
    """Encampment, Legionary: a card revealed from the hand, or none (n = 1 if revealed)."""
    if cards:
        ctx.emit(Revealed(ctx.seat(d.p), tuple(cards), "hand", "hand"))
    _store(ctx, tuple(cards), 1 if cards else 0)


def _gladiator(ctx: Ctx, d: Decision, cards: Any) -> None:
    ctx.emit(Revealed(ctx.seat(d.p), tuple(cards), "hand", "hand"))
    _store(ctx, tuple(cards))


def _gladiator_copy(ctx: Ctx, d: Decision, cards: Any) -> None:
    if cards:
        ctx.emit(Revealed(ctx.seat(d.p), tuple(cards), "hand", "hand"))
        top = ctx.frames[-1]
        ctx.set(replace(top, n=1))
    else:
        ctx.emit(Chose(ctx.seat(d.p), "no_copy", d.source))


def _chosen(ctx: Ctx, d: Decision, option: Any) -> None:
    ctx.emit(Chose(ctx.seat(d.p), option, d.source))
    _store(ctx, (option,))


def _take_discard(ctx: Ctx, d: Decision, cards: Any) -> None:
    if cards:
        ctx.emit(Moved(ctx.seat(d.p), tuple(cards), "discard", "hand"))


def _temple(ctx: Ctx, d: Decision, cards: Any) -> None:
    trash(ctx, d.p, tuple(cards))


ANSWERS.update(
    {
        "catapult": _trash_kept,
        "sacrifice": _trash_kept,
        "encampment": _revealed,
        "gladiator": _gladiator,
        "legionary": _revealed,
        "gladiator_copy": _gladiator_copy,
        "engineer": _chosen,
        "wild_hunt": _chosen,
        "take_discard": _take_discard,
        "temple": _temple,
    }
)
