"""The 13 Events of Empires (dominion.md 5.5), bought with buy_event.

`rules.apply_turn` pays for an Event (`EventBought`) and calls `EVENTS[name]`, which pushes a
frame named for the Event. Its steps run one per call of the handler, so a gain or trash whose
abilities open a decision resumes at the next step once answered. Rulings:

- "If you did" (Dominate, Ritual, Triumph) means the gain happened: an empty pile gives nothing.
- Conquest and Triumph count `gained_this_turn`, which holds cards only (Events never count).
- Salt the Earth must pick a pile whose top card is a Victory card while one exists; the player
  who bought it trashes that card (Tomb, Crumbling Castle's ability). Tax may pick any Supply
  pile, an empty one too; the debt on a pile is taken only when its card is bought.
- Annex keeps up to 5 cards of the discard pile, in their order; the rest joins the deck and the
  whole deck is shuffled (nothing to shuffle: no shuffle). The Duchy comes after the shuffle.
- Donate resolves in the between-turns step (or at the next start of turn under
  `donate_start_of_next_turn`): the hand, the deck and the discard pile become one hand, any
  number of it is trashed, and the rest is shuffled into the deck (a card a when-trash ability
  put onto the deck is shuffled with it) before drawing 5.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.games.dominion.data import DATA
from domain.games.dominion.engine import (
    ANSWERS,
    EVENTS,
    HANDLERS,
    ON_BUY,
    Ctx,
    ask,
    draw,
    gain,
    tokens,
    trash,
    trash_from_supply,
)
from domain.games.dominion.events import Donated, Plus, Reshuffled
from domain.games.dominion.state import Decision, Frame

Step = Callable[[Ctx, Frame], None]


def _gainer(pile: str, to: str = "discard") -> Step:
    def step(ctx: Ctx, f: Frame) -> None:
        gain(ctx, f.p, pile, to)

    return step


def _gain_then(pile: str, then: Callable[[Ctx, int], None]) -> Step:
    """Gain a card; if that happened, `then` (the "if you did" of Dominate and Triumph)."""

    def step(ctx: Ctx, f: Frame) -> None:
        if gain(ctx, f.p, pile):
            then(ctx, f.p)

    return step


def _vp(n: int, source: str) -> Callable[[Ctx, int], None]:
    def give(ctx: Ctx, p: int) -> None:
        tokens(ctx, source, p, vp=n)

    return give


# --- the Events, step by step ----------------------------------------------------------------


def _advance_trash(ctx: Ctx, f: Frame) -> None:
    ask(ctx, Decision(f.p, "select", "advance", "Advance", "trash", 0, 1, types=("Action",)))


def _advance_gain(ctx: Ctx, f: Frame) -> None:
    if f.n:
        prompt = Decision(f.p, "pile", "gain", "Advance", "gain", 1, 1, types=("Action",), cost=(6, 0))
        ask(ctx, prompt)


def _annex_keep(ctx: Ctx, f: Frame) -> None:
    ask(ctx, Decision(f.p, "select", "annex", "Annex", "keep", 0, 5, zone="discard"))


def _banquet_gain(ctx: Ctx, f: Frame) -> None:
    prompt = Decision(f.p, "pile", "gain", "Banquet", "gain", 1, 1, cost=(5, 0), not_types=("Victory",))
    ask(ctx, prompt)


def _conquest_vp(ctx: Ctx, f: Frame) -> None:
    silvers = ctx.state.gained.count("Silver")
    if silvers:
        tokens(ctx, "Conquest", f.p, vp=silvers)


def _delve_buy(ctx: Ctx, f: Frame) -> None:
    ctx.emit(Plus(ctx.seat(f.p), "Delve", buys=1))


def _ritual(ctx: Ctx, f: Frame) -> None:
    if ctx.state.supply.get("Curse"):
        ctx.set(replace(f, n=1))  # marked first: the gain's abilities may stack frames
    gain(ctx, f.p, "Curse")


def _ritual_trash(ctx: Ctx, f: Frame) -> None:
    if f.n and ctx.state.players[f.p].hand:
        ask(ctx, Decision(f.p, "select", "ritual", "Ritual", "trash", 1, 1))


def _salt_vp(ctx: Ctx, f: Frame) -> None:
    tokens(ctx, "Salt the Earth", f.p, vp=1)


def _salt_pick(ctx: Ctx, f: Frame) -> None:
    ask(ctx, Decision(f.p, "pile", "salt", "Salt the Earth", "trash", 1, 1, types=("Victory",)))


def _wedding_vp(ctx: Ctx, f: Frame) -> None:
    tokens(ctx, "Wedding", f.p, vp=1)


def _tax_pick(ctx: Ctx, f: Frame) -> None:
    ask(ctx, Decision(f.p, "pile", "tax", "Tax", "tax", 1, 1, empty_ok=True))


def _triumph_vp(ctx: Ctx, p: int) -> None:
    tokens(ctx, "Triumph", p, vp=len(ctx.state.gained))


def _windfall(ctx: Ctx, f: Frame) -> None:
    pl = ctx.state.players[f.p]
    if not (pl.deck or pl.unknown or pl.discard):
        for _ in range(3):
            gain(ctx, f.p, "Gold")


SCRIPTS: dict[str, tuple[Step, ...]] = {
    "Advance": (_advance_trash, _advance_gain),
    "Annex": (_annex_keep, _gainer("Duchy")),
    "Banquet": (_gainer("Copper"), _gainer("Copper"), _banquet_gain),
    "Conquest": (_gainer("Silver"), _gainer("Silver"), _conquest_vp),
    "Delve": (_delve_buy, _gainer("Silver")),
    "Dominate": (_gain_then("Province", _vp(9, "Dominate")),),
    "Donate": (),  # resolved later, by the "donate" frame of the between-turns step
    "Ritual": (_ritual, _ritual_trash),
    "Salt the Earth": (_salt_vp, _salt_pick),
    "Tax": (_tax_pick,),
    "Triumph": (_gain_then("Estate", _triumph_vp),),
    "Wedding": (_wedding_vp, _gainer("Gold")),
    "Windfall": (_windfall,),
}


def _event(ctx: Ctx, f: Frame) -> None:
    """One step of an Event's frame; the frame leaves once its steps are done."""
    steps = SCRIPTS[f.op]
    if f.step >= len(steps):
        ctx.frames.pop()
        return
    f = ctx.set(replace(f, step=f.step + 1))
    steps[f.step - 1](ctx, f)


def _bought_event(ctx: Ctx, p: int, name: str) -> None:
    if SCRIPTS[name]:
        ctx.frames.append(Frame(name, p))


def _register(name: str) -> None:
    EVENTS[name] = lambda ctx, p: _bought_event(ctx, p, name)
    HANDLERS[name] = _event


for _name in SCRIPTS:
    _register(_name)


# --- answers ----------------------------------------------------------------------------------


def _advance(ctx: Ctx, d: Decision, cards: Any) -> None:
    if cards:
        ctx.set(replace(ctx.frames[-1], n=1))  # marked first: the trash's abilities may stack frames
        trash(ctx, d.p, tuple(cards))


def _annex(ctx: Ctx, d: Decision, kept: Any) -> None:
    kept = tuple(kept)
    pl = ctx.state.players[d.p]
    moved = list(pl.discard)
    for card in kept:
        moved.remove(card)
    reshuffle(ctx, d.p, "discard", tuple(moved), kept)


def _ritual_answer(ctx: Ctx, d: Decision, cards: Any) -> None:
    card = cards[0]
    trash(ctx, d.p, (card,))
    coins = DATA.cost[card][0]
    if coins:
        tokens(ctx, "Ritual", d.p, vp=coins)


def _salt(ctx: Ctx, d: Decision, pile: Any) -> None:
    if pile is not None:
        trash_from_supply(ctx, d.p, pile)


def _tax(ctx: Ctx, d: Decision, pile: Any) -> None:
    if pile is not None:
        tokens(ctx, "Tax", None, pile=pile, pile_debt=2)


def reshuffle(ctx: Ctx, p: int, source: str, moved: tuple[str, ...], kept: tuple[str, ...] = ()) -> None:
    """Shuffle the deck together with `moved` into a new deck (Annex, Donate): a randomness
    point on the player's `deck:<seat>` stream, like `engine.shuffle`."""
    pl = ctx.state.players[p]
    seat = ctx.seat(p)
    count = len(pl.deck) + len(pl.unknown) + len(moved)
    if not count:
        return
    if ctx.state.mode == "physical":
        ctx.emit(Reshuffled(seat, source, count, kept, observed=True))
        return
    stream = f"deck:{seat}"
    order = ctx.rng.shuffle(stream, pl.shuffles, tuple(sorted(pl.deck + moved)))
    ctx.emit(Reshuffled(seat, source, count, kept, tuple(order), stream, pl.shuffles))


# --- Tax: the debt on a pile goes to whoever buys its card -----------------------------------


def _tax_on_buy(ctx: Ctx, buyer: int, card: str) -> None:
    if "Tax" not in ctx.state.events:
        return
    pile = DATA.home.get(card, card)
    n = ctx.state.pile_debt.get(pile, 0)
    if n:
        tokens(ctx, "Tax", buyer, debt=n, pile=pile, pile_debt=-n)


# --- Donate, between turns (3.7) ---------------------------------------------------------------


def _donate(ctx: Ctx, f: Frame) -> None:
    seat = ctx.seat(f.p)
    if f.step == 0:
        ctx.set(replace(f, step=1))
        pl = ctx.state.players[f.p]
        ctx.emit(Donated(seat, len(pl.deck) + len(pl.unknown) + len(pl.discard)))
        hand = ctx.state.players[f.p].hand
        ask(ctx, Decision(f.p, "select", "donate", "Donate", "trash", 0, len(hand)))
        return
    ctx.frames.pop()
    reshuffle(ctx, f.p, "hand", ctx.state.players[f.p].hand)
    draw(ctx, f.p, 5)


def _donate_trash(ctx: Ctx, d: Decision, cards: Any) -> None:
    trash(ctx, d.p, tuple(cards))


HANDLERS["donate"] = _donate
ON_BUY["Tax"] = _tax_on_buy
ANSWERS.update(
    {
        "advance": _advance,
        "annex": _annex,
        "ritual": _ritual_answer,
        "salt": _salt,
        "tax": _tax,
        "donate": _donate_trash,
    }
)
