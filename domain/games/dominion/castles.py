"""The Castles of Empires (dominion.md 1.7, 5.4).

Humble Castle is a plain Treasure (+$1) and Humble and King's Castle are scored by rule
(`turns.card_vp`); the rest is here. Only the top Castle of the pile can be gained (`pile_of`).
Rulings:

- Small Castle (8.17): the options are `this` (only while this Small Castle is still in play),
  each Castle name in hand, and `none` only when the hand holds no Castle. Option names are
  written in lower case with underscores ("humble_castle"), as the notation reads them.
- Haunted Castle (8.25): only a gain on the gainer's own turn counts; each other player with
  5 or more cards in hand puts 2 of them onto their deck, in the order named (the last one
  named ends on top). Not an Attack: Moat does not help.
- Crumbling Castle gives +1 VP and a Silver when gained and again when trashed.
- Grand Castle counts the Victory cards in hand and those in play (a Humble Castle played as a
  Treasure, a Small or Opulent Castle, an Overlord acting as a Small Castle).
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games.dominion.data import DATA
from domain.games.dominion.engine import (
    ANSWERS,
    EFFECTS,
    HANDLERS,
    OWN_GAIN,
    OWN_TRASH,
    Ctx,
    ask,
    gain,
    identify,
    left_play,
    this,
    tokens,
    trash,
)
from domain.games.dominion.events import Chose, Discarded, Plus, Revealed, Topdecked
from domain.games.dominion.state import UNSEEN, Decision, Frame, acting
from domain.games.dominion.unseen import at_most

PILE = "Castles"


def option(card: str) -> str:
    return card.lower().replace(" ", "_")


def _crumbling(ctx: Ctx, p: int, card: str, *_: Any) -> None:
    tokens(ctx, "Crumbling Castle", p, vp=1)
    gain(ctx, p, "Silver")


def small_castle(ctx: Ctx, f: Frame) -> None:
    token = this(f)
    pl = ctx.state.players[f.p]
    if f.step == 1:
        # The options name the Castles in hand: unseen cards that might be one are named first.
        maybe = UNSEEN in pl.hand and any(c in DATA.castles for c in pl.pool)
        if maybe and not identify(ctx, f.p, "hand"):
            return
        pl = ctx.state.players[f.p]
        ctx.set(replace(f, step=2))
        options: list[str] = []
        if not f.gone and token in pl.play:
            options.append("this")
        held = sorted({c for c in pl.hand if c in DATA.castles})
        options.extend(option(c) for c in held)
        if not held:
            options.append("none")
        ask(ctx, Decision(f.p, "choose", "small_castle", "Small Castle", options=tuple(options)))
        return
    ctx.frames.pop()
    chosen = f.cards[0] if f.cards else "none"
    if chosen == "none":
        return
    if chosen == "this":
        left_play(ctx, f, popped=True)
        trash(ctx, f.p, (token,), "play")
    else:
        card = next(c for c in pl.hand if c in DATA.castles and option(c) == chosen)
        trash(ctx, f.p, (card,))
    gain(ctx, f.p, PILE)


def _haunted(ctx: Ctx, p: int, card: str, to: str) -> None:
    state = ctx.state
    if state.status != "playing" or p != state.current:
        return
    gain(ctx, p, "Gold")
    for t in ctx.state.others(p):
        if len(ctx.state.players[t].hand) >= 5:
            ask(ctx, Decision(t, "select", "haunted", "Haunted Castle", "topdeck", 2, 2))


def opulent_castle(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    pl = ctx.state.players[f.p]
    n = at_most(pl, pl.hand, lambda c: c in DATA.victories)
    if n:
        ask(ctx, Decision(f.p, "select", "opulent", "Opulent Castle", "discard", 0, n, types=("Victory",)))


def _sprawling(ctx: Ctx, p: int, card: str, to: str) -> None:
    ask(ctx, Decision(p, "choose", "sprawling", "Sprawling Castle", options=("duchy", "estates")))


def _grand(ctx: Ctx, p: int, card: str, to: str) -> None:
    if UNSEEN in ctx.state.players[p].hand:
        ctx.frames.append(Frame("grand_castle", p))  # the revealed hand is named first (6.4)
        return
    _grand_vp(ctx, p)


def _grand_frame(ctx: Ctx, f: Frame) -> None:
    if not identify(ctx, f.p, "hand"):
        return
    ctx.frames.pop()
    _grand_vp(ctx, f.p)


HANDLERS["grand_castle"] = _grand_frame


def _grand_vp(ctx: Ctx, p: int) -> None:
    pl = ctx.state.players[p]
    if pl.hand:
        ctx.emit(Revealed(ctx.seat(p), pl.hand, "hand", "hand"))
    n = sum(1 for c in pl.hand if c in DATA.victories)
    n += sum(1 for c in pl.play if acting(c) in DATA.victories)
    if n:
        tokens(ctx, "Grand Castle", p, vp=n)


EFFECTS.update({"Small Castle": small_castle, "Opulent Castle": opulent_castle})
OWN_GAIN.update({"Crumbling Castle": _crumbling, "Haunted Castle": _haunted})
OWN_GAIN.update({"Sprawling Castle": _sprawling, "Grand Castle": _grand})
OWN_TRASH["Crumbling Castle"] = _crumbling


# --- answers ----------------------------------------------------------------------------------


def _small_castle(ctx: Ctx, d: Decision, chosen: Any) -> None:
    ctx.emit(Chose(ctx.seat(d.p), chosen, d.source))
    top = ctx.frames[-1]
    ctx.set(replace(top, cards=(chosen,)))


def _opulent(ctx: Ctx, d: Decision, cards: Any) -> None:
    if cards:
        ctx.emit(Discarded(ctx.seat(d.p), tuple(cards), "hand", len(cards), cards[-1], public=True))
        ctx.emit(Plus(ctx.seat(d.p), "Opulent Castle", coins=2 * len(cards)))


def _sprawling_answer(ctx: Ctx, d: Decision, chosen: Any) -> None:
    ctx.emit(Chose(ctx.seat(d.p), chosen, d.source))
    if chosen == "duchy":
        gain(ctx, d.p, "Duchy")
        return
    for _ in range(3):
        if not gain(ctx, d.p, "Estate"):
            break


def _haunted_answer(ctx: Ctx, d: Decision, cards: Any) -> None:
    """The victim's two cards go onto the deck unrevealed (6.5: others see only the count)."""
    ctx.emit(Topdecked(ctx.seat(d.p), tuple(cards), len(cards)))


ANSWERS.update(
    {
        "small_castle": _small_castle,
        "opulent": _opulent,
        "sprawling": _sprawling_answer,
        "haunted": _haunted_answer,
    }
)
