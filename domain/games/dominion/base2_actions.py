"""The seven kingdom cards new in the 2nd edition of the base set (dominion-2e.md 2): Artisan,
Bandit, Harbinger, Merchant, Poacher, Sentry and Vassal. Throne Room, Moneylender and Mine keep
their first-edition effects in `effects`, made optional by `base_second_edition_wording`, which
`base_edition` 2 implies (dominion-2e.md 3).

Their "+" bonuses are data; what is left is here. Rulings:

- What stays private (dominion.md 6.5): the two cards Sentry looks at sit in the owner's
  `looking` zone (a `Looked` fact, seen by its owner; the others see how many), and Sentry's
  three choices among them are hidden from the others but for what their facts show: the
  trashed cards, how many are discarded with the new top card of the discard pile, how many go
  back. Harbinger's look through the discard pile shows its player what they already know of
  it; the card put back is seen by them alone, as is Artisan's card put from the hand onto the
  deck (nobody reveals it: like Haunted Castle, 6.5). Bandit's and Vassal's cards are revealed.
- Sentry's cards go back in the order given, the last named on top; the order is asked
  whenever the cards left could have two names (`decisions.ORDERED`).
- Merchant: each play sets up +$1 (`State.merchants`), all paid on the turn's first Silver,
  i.e. a Silver played while no other Silver is in play (a Silver never leaves play during a
  turn in these sets, so one in play is one played earlier this turn). A Merchant played after
  the first Silver sets up nothing; a Crown's second play of a Silver is not a first play.
- Poacher counts the empty Supply piles at the time it resolves: a split pile only once both
  halves are gone (its pile id holds both), the Castles once every Castle is gone.
- Vassal's Action card is played from the discard pile without using an Action; it cannot be
  an enchanted play (Vassal was already the turn's first Action). If it is an Attack the
  reaction window opens as for any Attack.
- Bandit's victims reveal and decide one after the other, in turn order; a victim whose choice
  is one name (a Silver and a Copper, two Golds) trashes it at once.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games.dominion.data import DATA
from domain.games.dominion.decisions import HIDDEN_SELECTIONS
from domain.games.dominion.effects import discard_aside, reveal_two_aside
from domain.games.dominion.engine import (
    ANSWERS,
    EFFECTS,
    HANDLERS,
    ON_TREASURES,
    WAIT,
    Ctx,
    ask,
    card_frame,
    gain,
    observe,
    peek,
    reaction_window,
    settle,
    shuffle,
    targets,
    trash,
)
from domain.games.dominion.events import Chose, Discarded, Looked, Played, Plus, Topdecked
from domain.games.dominion.fold import take
from domain.games.dominion.state import PRIVATE_LOOK, Decision, Frame

CARDS = ("Artisan", "Bandit", "Harbinger", "Merchant", "Poacher", "Sentry", "Vassal")


# --- cards ------------------------------------------------------------------------------------


def artisan(ctx: Ctx, f: Frame) -> None:
    if f.step == 1:
        ctx.set(replace(f, step=2))
        gain_prompt = Decision(f.p, "pile", "artisan_gain", "Artisan", "gain", 1, 1, cost=(5, 0))
        if not ask(ctx, gain_prompt):
            return
    ctx.frames.pop()
    ask(ctx, Decision(f.p, "select", "artisan", "Artisan", "topdeck", 1, 1))


def bandit(ctx: Ctx, f: Frame) -> None:
    if f.step == 1:
        f = ctx.set(replace(f, step=2))
        gain(ctx, f.p, "Gold")
        if ctx.prompts or ctx.frames[-1] is not f:
            return  # a when-gain ability asks first (Empires)
    victims = targets(ctx, f)
    while f.n < len(victims):
        t = victims[f.n]
        if f.step == 2:
            if not reveal_two_aside(ctx, t):
                return
            f = ctx.set(replace(f, step=3))
            found = tuple(c for c in ctx.state.players[t].aside if c in DATA.treasures and c != "Copper")
            choice = Decision(t, "select", "bandit", "Bandit", "trash", 1, 1, cards=found)
            if found and not ask(ctx, choice):
                return
        discard_aside(ctx, t)
        f = ctx.set(replace(f, step=2, n=f.n + 1))
    ctx.frames.pop()


def harbinger(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    ask(ctx, Decision(f.p, "select", "harbinger", "Harbinger", "topdeck", 0, 1, zone="discard"))


def merchant(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    if ctx.state.current == f.p and "Silver" not in ctx.state.players[f.p].play:
        ctx.emit(Plus(ctx.seat(f.p), "Merchant", merchants=1))


def poacher(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    empty = sum(1 for cards in ctx.state.supply.values() if not cards)
    n = min(empty, len(ctx.state.players[f.p].hand))
    if n:
        ask(ctx, Decision(f.p, "select", "poacher", "Poacher", "discard", n, n))


def sentry(ctx: Ctx, f: Frame) -> None:
    seat = ctx.seat(f.p)
    if f.step == 1:
        while len(ctx.state.players[f.p].looking) < 2:
            pl = ctx.state.players[f.p]
            if pl.deck:  # the known top cards, at once
                cards = pl.deck[: 2 - len(pl.looking)]
                ctx.emit(Looked(seat, cards, len(cards)))
                continue
            if not pl.unknown:
                if not pl.discard:
                    break
                shuffle(ctx, f.p)
                continue
            # a physical table: the recorder enters what the player looked at, `?` for a card
            # only the player saw (6.5); the cards then join the known top of the deck
            if not observe(ctx, f.p, 2 - len(pl.looking), PRIVATE_LOOK):
                return
        f = ctx.set(replace(f, step=2))
        looking = ctx.state.players[f.p].looking
        if looking and not ask(ctx, _sentry(f.p, "sentry_trash", "trash", looking, 0)):
            return
    if f.step == 2:
        f = ctx.set(replace(f, step=3))
        looking = ctx.state.players[f.p].looking
        if looking and not ask(ctx, _sentry(f.p, "sentry_discard", "discard", looking, 0)):
            return
    ctx.frames.pop()
    looking = ctx.state.players[f.p].looking
    if looking:
        ask(ctx, _sentry(f.p, "sentry_topdeck", "topdeck", looking, len(looking)))


def _sentry(p: int, purpose: str, verb: str, cards: tuple[str, ...], lo: int) -> Decision:
    return Decision(p, "select", purpose, "Sentry", verb, lo, len(cards), cards=tuple(sorted(cards)))


def vassal(ctx: Ctx, f: Frame) -> None:
    if f.step == 1:
        top = peek(ctx, f.p)
        if top == WAIT:
            return
        if top is None:
            ctx.frames.pop()
            return
        ctx.emit(Discarded(ctx.seat(f.p), (top,), "deck", 1, top, public=True))
        if top not in DATA.actions:
            ctx.frames.pop()
            return
        ctx.set(replace(f, step=2, cards=(top,)))
        ask(ctx, Decision(f.p, "choose", "vassal", "Vassal", options=("play", "no")))
        return
    ctx.frames.pop()
    if f.n and ctx.state.players[f.p].discard[-1:] == f.cards:
        card = f.cards[0]
        ctx.emit(Played(ctx.seat(f.p), card, source="discard"))
        ctx.frames.append(Frame(card, f.p))
        reaction_window(ctx, f.p, card)


EFFECTS.update(
    {
        "Artisan": artisan,
        "Bandit": bandit,
        "Harbinger": harbinger,
        "Merchant": merchant,
        "Poacher": poacher,
        "Sentry": sentry,
        "Vassal": vassal,
    }
)


# --- Merchant's bonus on the first Silver -----------------------------------------------------


def _pay_merchants(ctx: Ctx, p: int, silvers: int) -> None:
    """`silvers` Silvers were just played: if they are the turn's first, the bonuses waiting
    are paid (all of them, on that first Silver)."""
    state = ctx.state
    if not silvers or state.merchants <= 0 or p != state.current:
        return
    if state.players[p].play.count("Silver") != silvers:
        return  # a Silver was played earlier this turn
    k = state.merchants
    ctx.emit(Plus(ctx.seat(p), "Merchant", coins=k, merchants=-k))


def _treasures(ctx: Ctx, p: int, batch: tuple[str, ...]) -> None:
    _pay_merchants(ctx, p, batch.count("Silver"))


def _silver_frame(ctx: Ctx, f: Frame) -> None:
    """A Silver played on its own (by Crown): its coins, then Merchant's bonus on a first play."""
    card_frame(ctx, f)
    if not f.again:
        _pay_merchants(ctx, f.p, 1)


ON_TREASURES.append(_treasures)
HANDLERS["Silver"] = _silver_frame


# --- answers ----------------------------------------------------------------------------------


def _artisan_gain(ctx: Ctx, d: Decision, pile: Any) -> None:
    if pile is not None:
        gain(ctx, d.p, pile, "hand")


def _topdeck(source: str) -> Any:
    def answer(ctx: Ctx, d: Decision, cards: Any) -> None:
        if not cards:
            return
        if source == "looking":  # a card named where the table saw only `?` (6.4)
            settle(ctx, d.p, "looking", tuple(cards))
        top = None
        if source == "discard":  # the discard pile's new top card shows (6.5)
            rest = take(ctx.state.players[d.p].discard[::-1], tuple(cards))
            top = rest[0] if rest else None
        ctx.emit(Topdecked(ctx.seat(d.p), tuple(cards), len(cards), source, top))

    return answer


def _bandit(ctx: Ctx, d: Decision, cards: Any) -> None:
    trash(ctx, d.p, tuple(cards), "aside")


def _sentry_trash(ctx: Ctx, d: Decision, cards: Any) -> None:
    settle(ctx, d.p, "looking", tuple(cards))
    trash(ctx, d.p, tuple(cards), "looking")


def _sentry_discard(ctx: Ctx, d: Decision, cards: Any) -> None:
    settle(ctx, d.p, "looking", tuple(cards))
    if cards:
        public = ctx.state.variants.all_discards_public
        ctx.emit(Discarded(ctx.seat(d.p), tuple(cards), "looking", len(cards), cards[-1], public))


def _poacher(ctx: Ctx, d: Decision, cards: Any) -> None:
    """A discard from the hand, hidden as Militia's: how many, and the new top card."""
    if cards:
        public = ctx.state.variants.all_discards_public
        ctx.emit(Discarded(ctx.seat(d.p), tuple(cards), "hand", len(cards), cards[-1], public))


def _vassal(ctx: Ctx, d: Decision, option: Any) -> None:
    ctx.emit(Chose(ctx.seat(d.p), option, d.source))
    if option == "play":
        top = ctx.frames[-1]
        ctx.set(replace(top, n=1))


ANSWERS.update(
    {
        "artisan_gain": _artisan_gain,
        "artisan": _topdeck("hand"),
        "bandit": _bandit,
        "harbinger": _topdeck("discard"),
        "sentry_trash": _sentry_trash,
        "sentry_discard": _sentry_discard,
        "sentry_topdeck": _topdeck("looking"),
        "vassal": _vassal,
        "poacher": _poacher,
    }
)
# Answers that put cards onto the deck unseen name none of them to the other seats; Sentry's
# discard shows, like any hidden discard, how many and the new top card (6.5).
HIDDEN_SELECTIONS.update(
    {"artisan": "all", "harbinger": "all", "sentry_topdeck": "all", "sentry_discard": "top", "poacher": "top"}
)
