"""Empires Treasures and the cards that bend a turn (dominion.md 5.3): Capital, Charm, Crown,
Fortune, Plunder, Rocks, Archive, Enchantress, Overlord and Villa.

Rulings:

- Capital's 6D comes when it is discarded from play, once per card however often Crown played
  it; the offer to pay is a `debt` decision from 0 up to what the coins and debt allow.
- Charm's extra gains are when-buy abilities: they wait above the bought card's gain, so they
  come first (S4). One buy uses up every waiting Charm, each asking on its own. Under
  `charm_on_gain` (8.11) the next gain of any kind uses them up, right after that card's own
  when-gain ability; the Charms are spent before their own gains, which therefore never
  trigger them again.
- Crown follows the phase it is played in: an Action in the Action phase, a Treasure in the
  Buy phase, optional either way; it stays in play with a Duration it played (3.9).
- Fortune doubles the coins once per turn, even $0 (S3 part B).
- Rocks: "your Buy phase" is read when the gain or trash happens (8.32).
- Archive and Enchantress keep a `Lasting` record per play, linked to the Throne Rooms and
  Crowns that played them (walking the frames that played this very card outward); a second
  play by the same Throne Room or Crown adds to that record. Archive's face-down sets are only
  the owner's to see.
- Overlord (original printing) becomes the chosen card: its frame is replaced by the chosen
  card's frame whose token is `Overlord>Card`, so "this" is the Overlord. The Throne Room or
  Crown playing it remembers the identity (second entry of its `cards`) for the next play. An
  enchanted Overlord chooses nothing. Under `overlord_command` (8.12) each play chooses anew,
  nothing becomes anything, and the chosen card's frame is marked `gone` so "this" is never
  found; a Duration it resolves keeps the Overlord in play as a Throne Room would be.
- Villa gained goes to the hand wherever it was gained to, gives +1 Action, and in its
  gainer's Buy phase sends the turn back to the Action phase (3.4).
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games.dominion.data import DATA
from domain.games.dominion.effects import play_twice
from domain.games.dominion.engine import (
    ANSWERS,
    DURATION_START,
    EFFECTS,
    HANDLERS,
    ON_BUY,
    ON_DISCARD_FROM_PLAY,
    ON_GAIN,
    OWN_GAIN,
    OWN_TRASH,
    PLAYS_TWICE,
    Ctx,
    ask,
    draw,
    gain,
    observe,
    reaction_window,
    shuffle,
    this,
    tokens,
)
from domain.games.dominion.events import (
    ArchiveFilled,
    ArchiveTaken,
    Became,
    Chose,
    DebtPaid,
    DurationStarted,
    Enchanted,
    EnchantressCharged,
    Moved,
    PhaseChanged,
    Plus,
)
from domain.games.dominion.state import AS, Decision, Frame, acting, physical

ARCHIVE_SIZE = 3


def _command(ctx: Ctx, f: Frame) -> bool:
    """Is this frame a card resolved by an Overlord under `overlord_command`?"""
    return ctx.state.variants.overlord_command and physical(this(f)) == "Overlord" and f.gone


def links(ctx: Ctx, f: Frame) -> tuple[str, ...]:
    """The Throne Rooms and Crowns (outermost first) that played the card of the top frame,
    and under `overlord_command` the Overlord that resolved it."""
    out: list[str] = []
    current = physical(this(f))
    if _command(ctx, f):
        out.append("Overlord")
        current = "Overlord"
    i = len(ctx.frames) - 2
    while i >= 0:
        below = ctx.frames[i]
        if below.op not in PLAYS_TWICE or below.cards[:1] != (current,):
            break
        token = this(below)
        out.insert(0, token)
        current = physical(token)
        i -= 1
    return tuple(out)


def _start_record(ctx: Ctx, f: Frame) -> None:
    """The first resolution of a Duration's play starts its record; a second play by the same
    Throne Room or Crown adds to that record."""
    if not f.again or _command(ctx, f):
        ctx.emit(DurationStarted(ctx.seat(f.p), this(f), links(ctx, f)))


# --- Treasures ---------------------------------------------------------------------------------


def _capital_discarded(ctx: Ctx, p: int, card: str) -> None:
    tokens(ctx, "Capital", p, debt=6)
    debt = ctx.state.players[p].debt
    most = min(ctx.state.coins, debt)
    ask(ctx, Decision(p, "debt", "capital", source="Capital", verb="pay", lo=0, hi=most))


def _capital_paid(ctx: Ctx, d: Decision, amount: Any) -> None:
    if amount:
        ctx.emit(DebtPaid(ctx.seat(d.p), amount))


def charm(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    ask(ctx, Decision(f.p, "choose", "charm", "Charm", options=("coins", "extra_gain")))


def _charm_chosen(ctx: Ctx, d: Decision, option: Any) -> None:
    ctx.emit(Chose(ctx.seat(d.p), option, d.source))
    if option == "coins":
        ctx.emit(Plus(ctx.seat(d.p), "Charm", buys=1, coins=2))
    else:
        ctx.emit(Plus(ctx.seat(d.p), "Charm", charms=1))


def _charm_gains(ctx: Ctx, f: Frame) -> None:
    """Each spent Charm offers a card costing exactly what the bought (or gained) card costs,
    with another name."""
    card = f.cards[0]
    while f.n > 0:
        f = ctx.set(replace(f, n=f.n - 1))
        d = Decision(
            f.p,
            "pile",
            "gain",
            source="Charm",
            verb="gain",
            lo=0,
            hi=1,
            cost=DATA.cost[card],
            exact=True,
            exclude=(card,),
        )
        if not ask(ctx, d):
            return
    ctx.frames.pop()


def _spend_charms(ctx: Ctx, p: int, card: str) -> None:
    n = ctx.state.charms
    if not n or p != ctx.state.current:
        return
    ctx.emit(Plus(ctx.seat(p), "Charm", charms=-n))
    frame = Frame("charm_gains", p, n=n, cards=(card,))
    ctx.frames.append(frame)
    _charm_gains(ctx, frame)


def _charm_on_buy(ctx: Ctx, buyer: int, card: str) -> None:
    if not ctx.state.variants.charm_on_gain:
        _spend_charms(ctx, buyer, card)


def _charm_on_gain(ctx: Ctx, gainer: int, card: str, to: str) -> None:
    if ctx.state.variants.charm_on_gain:
        _spend_charms(ctx, gainer, card)


def crown(ctx: Ctx, f: Frame) -> None:
    kind = "Treasure" if ctx.state.phase == "buy" else "Action"
    play_twice(ctx, f, Decision(f.p, "select", "throne", "Crown", "play", 0, 1, types=(kind,)))


def fortune(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    if not ctx.state.fortune:
        ctx.emit(Plus(ctx.seat(f.p), "Fortune", coins=ctx.state.coins, doubled=True))


def _fortune_gained(ctx: Ctx, gainer: int, card: str, to: str) -> None:
    gladiators = sum(1 for c in ctx.state.players[gainer].play if acting(c) == "Gladiator")
    for _ in range(gladiators):
        gain(ctx, gainer, "Gold")


def plunder(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    tokens(ctx, "Plunder", f.p, vp=1)


def _rocks(ctx: Ctx, p: int) -> None:
    state = ctx.state
    buy_phase = p == state.current and state.phase == "buy"
    gain(ctx, p, "Silver", "deck" if buy_phase else "hand")


def _rocks_gained(ctx: Ctx, gainer: int, card: str, to: str) -> None:
    _rocks(ctx, gainer)


def _rocks_trashed(ctx: Ctx, p: int, card: str) -> None:
    _rocks(ctx, p)


# --- Durations --------------------------------------------------------------------------------


def archive(ctx: Ctx, f: Frame) -> None:
    if f.step == 1:
        f = ctx.set(replace(f, step=2))
        _start_record(ctx, f)
    if f.step == 2:
        p = f.p
        shuffled = False
        while True:
            pl = ctx.state.players[p]
            if len(pl.deck) >= ARCHIVE_SIZE:
                break
            if pl.unknown:
                # Set aside face down: the table may not see them (`?`).
                if not observe(ctx, p, ARCHIVE_SIZE - len(pl.deck), "aside"):
                    return  # the step runs again once the recorder named the cards
                continue
            if pl.discard and not shuffled:
                shuffle(ctx, p)
                shuffled = True
                continue
            break
        cards = ctx.state.players[p].deck[:ARCHIVE_SIZE]
        ctx.frames.pop()
        if not cards:
            return
        ctx.emit(ArchiveFilled(ctx.seat(p), cards, len(cards)))
        ask(ctx, Decision(p, "select", "archive", "Archive", "take", 1, 1, cards=cards))


def _archive_taken(ctx: Ctx, d: Decision, cards: Any) -> None:
    i = ctx.state.players[d.p].newest("Archive")
    sets = ctx.state.players[d.p].lasting[i].sets
    ctx.emit(ArchiveTaken(ctx.seat(d.p), cards[0], i, len(sets) - 1))


def _archive_start(ctx: Ctx, p: int, record: int) -> None:
    ctx.frames.append(Frame("archive_start", p, n=record))


def _archive_turn(ctx: Ctx, f: Frame) -> None:
    """Start of turn: one card from each set of the record that still has cards. `n` is the
    record, `step` the next set to look at."""
    sets = ctx.state.players[f.p].lasting[f.n].sets
    while f.step < len(sets):
        j = f.step
        f = ctx.set(replace(f, step=j + 1))
        if sets[j]:
            d = Decision(f.p, "select", "archive_take", "Archive", "take", 1, 1, cards=sets[j])
            if not ask(ctx, d):
                return
            sets = ctx.state.players[f.p].lasting[f.n].sets
    ctx.frames.pop()


def _archive_take(ctx: Ctx, d: Decision, cards: Any) -> None:
    f = ctx.frames[-1]
    ctx.emit(ArchiveTaken(ctx.seat(d.p), cards[0], f.n, f.step - 1))


def enchantress(ctx: Ctx, f: Frame) -> None:
    _start_record(ctx, f)  # while this frame is on top: its links are the frames below
    ctx.frames.pop()
    victims = tuple(ctx.seat(t) for t in ctx.state.others(f.p) if t not in f.immune)
    if victims:
        ctx.emit(Enchanted(ctx.seat(f.p), victims))
    ctx.emit(EnchantressCharged(ctx.seat(f.p)))


def _enchantress_start(ctx: Ctx, p: int, record: int) -> None:
    draw(ctx, p, ctx.state.players[p].lasting[record].draws)


# --- Overlord ---------------------------------------------------------------------------------


def overlord(ctx: Ctx, f: Frame) -> None:
    command = ctx.state.variants.overlord_command
    if f.again and not command and len(ctx.frames) >= 2:
        below = ctx.frames[-2]
        if below.op in PLAYS_TWICE and below.cards[:1] == ("Overlord",) and len(below.cards) > 1:
            token = below.cards[1]
            chosen = acting(token)
            ctx.set(Frame(chosen, f.p, card=token, again=True, gone=f.gone))
            reaction_window(ctx, f.p, chosen)
            return
    if f.step == 1:
        ctx.set(replace(f, step=2))
        d = Decision(
            f.p,
            "pile",
            "overlord",
            source="Overlord",
            verb="choose",
            lo=1,
            hi=1,
            cost=(5, 0),
            types=("Action",),
        )
        ask(ctx, d)
        return
    ctx.frames.pop()  # no Action pile qualified: nothing happens


def _overlord_chosen(ctx: Ctx, d: Decision, pile: Any) -> None:
    f = ctx.frames[-1]
    if pile is None:
        ctx.frames.pop()
        return
    chosen = ctx.state.supply[pile][0]
    token = f"Overlord{AS}{chosen}"
    if ctx.state.variants.overlord_command:
        ctx.emit(Chose(ctx.seat(d.p), chosen, "Overlord"))
        ctx.set(Frame(chosen, f.p, card=token, gone=True))
    else:
        ctx.emit(Became(ctx.seat(d.p), "Overlord", chosen))
        ctx.set(Frame(chosen, f.p, card=token, gone=f.gone))
        if len(ctx.frames) >= 2:
            below = ctx.frames[-2]
            if below.op in PLAYS_TWICE and below.cards[:1] == ("Overlord",):
                ctx.frames[-2] = replace(below, cards=("Overlord", token))
    reaction_window(ctx, f.p, chosen)


# --- Villa ------------------------------------------------------------------------------------


def _villa_gained(ctx: Ctx, gainer: int, card: str, to: str) -> None:
    seat = ctx.seat(gainer)
    if to != "hand":
        ctx.emit(Moved(seat, ("Villa",), to, "hand"))
    state = ctx.state
    if gainer != state.current:
        return  # its +1 Action would belong to another player's turn: unusable
    ctx.emit(Plus(seat, "Villa", actions=1))
    if state.phase == "buy":
        ctx.emit(PhaseChanged(seat, "action"))


EFFECTS.update(
    {
        "Charm": charm,
        "Crown": crown,
        "Fortune": fortune,
        "Plunder": plunder,
        "Archive": archive,
        "Enchantress": enchantress,
        "Overlord": overlord,
    }
)
HANDLERS.update({"charm_gains": _charm_gains, "archive_start": _archive_turn})
ANSWERS.update(
    {
        "capital": _capital_paid,
        "charm": _charm_chosen,
        "archive": _archive_taken,
        "archive_take": _archive_take,
        "overlord": _overlord_chosen,
    }
)
ON_DISCARD_FROM_PLAY["Capital"] = _capital_discarded
ON_BUY["Charm"] = _charm_on_buy
ON_GAIN["Charm"] = _charm_on_gain
OWN_GAIN.update({"Fortune": _fortune_gained, "Rocks": _rocks_gained, "Villa": _villa_gained})
OWN_TRASH["Rocks"] = _rocks_trashed
DURATION_START.update({"Archive": _archive_start, "Enchantress": _enchantress_start})
