"""The effect engine of Dominion (1st-edition base game): the running copy of the state inside
`decide`, the frame stack, decisions, and the primitives every card uses (dominion.md 3.1,
4.3, 4.6, 4.8).

`decide` works on a `Ctx`: each fact is folded as soon as it is emitted, so later steps see its
effect exactly as a replay will. Unfinished effects live in `ctx.frames` (a stack, top last):
`run` calls the handler of the top frame until a decision is open or the stack is empty, and
`finish` stores the stack and the open decisions as one `StackSaved` fact when they changed.

A handler must make progress each call (pop itself, move to another step, push a frame or open
a decision). It sets its next step *before* asking, because a forced decision is answered at
once (4.3 rule 3) and its answer handler may read or replace the top frame.

Draws and reveals follow 4.8: an empty deck shuffles the discard pile (a randomness point, one
`deck:<seat>` stream per player; the shuffled items are the card names in sorted code-point
order, index 0 becomes the top card). A physical game does not know its deck order: when the
next card is unknown the engine asks the recorder (`observe`) and the step runs again once the
card is known, so every step reads the cards it needs before it changes anything. The
recorder may name several cards at once (a whole Clean-up draw); cards named beyond what the
step needs stay on the deck as its known top cards, in the order given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.decision import Decision as Collector
from domain.games.dominion import decisions, unseen
from domain.games.dominion.data import DATA
from domain.games.dominion.events import (
    AutoResolved,
    Drew,
    Fact,
    Gained,
    Identified,
    Played,
    Plus,
    Shuffled,
    StackSaved,
    Tokens,
    Trashed,
)
from domain.games.dominion.fold import FOLDS, evolve
from domain.games.dominion.state import RECORDER, UNSEEN, Decision, Frame, State, physical
from domain.rng import Rng

WAIT = "?wait"  # peek(): the recorder must first say which card it is


class Ctx(Collector[State, Fact]):
    """The facts of one input so far, the state they lead to, and the live continuation."""

    __slots__ = ("frames", "prompts")

    def __init__(self, state: State, rng: Rng) -> None:
        # Collector's fields set here directly: one Ctx is built per action.
        self.state = state
        self.rng = rng
        self.facts = []
        self._evolve = evolve
        self.frames: list[Frame] = list(state.frames)
        self.prompts: list[Decision] = list(state.prompts)

    def emit(self, fact: Fact) -> None:
        """As `Collector.emit`, folding through `fold.FOLDS` directly (one call fewer a fact)."""
        self.facts.append(fact)
        self.state = FOLDS[type(fact)](self.state, fact)

    def emit_folded(self, facts: tuple[Fact, ...], state: State) -> None:
        """Emit facts whose folds the caller applied at once: `state` must be what folding
        them one by one gives (a replay does that)."""
        self.facts += facts
        self.state = state

    def seat(self, p: int) -> str:
        return self.state.seats[p]

    def set(self, frame: Frame) -> Frame:
        self.frames[-1] = frame
        return frame


Handler = Callable[[Ctx, Frame], None]
Answer = Callable[[Ctx, Decision, Any], None]

BuyHook = Callable[[Ctx, int, str], None]  # (ctx, buyer, card)
GainHook = Callable[[Ctx, int, str, str], None]  # (ctx, gainer, card, where it went)
TrashHook = Callable[[Ctx, int, str], None]  # (ctx, the player who trashed, card)
TurnHook = Callable[[Ctx, int], None]  # (ctx, current player)

HANDLERS: dict[str, Handler] = {}
ANSWERS: dict[str, Answer] = {}
EFFECTS: dict[str, Handler] = {}  # a card's own instructions, after its "+" bonuses (step >= 1)

# Triggered abilities (4.7, 5.7). A card's own when-buy / when-gain / when-trash ability is
# keyed by its name and runs first; then the abilities of other things (cards in play,
# Events, Landmarks) run in the canonical order of 4.7, each checking that it is in the game.
# They run for whoever buys, gains or trashes, on any player's turn.
OWN_BUY: dict[str, BuyHook] = {}
OWN_GAIN: dict[str, GainHook] = {}
OWN_TRASH: dict[str, TrashHook] = {}
BUY_ORDER = ("Tax", "Charm", "Basilica", "Colonnade", "Defiled Shrine")
GAIN_ORDER = (
    "Charm",
    "Groundskeeper",
    "Aqueduct",
    "Battlefield",
    "Defiled Shrine",
    "Labyrinth",
    "Mountain Pass",
)
TRASH_ORDER = ("Tomb",)
ON_BUY: dict[str, BuyHook] = {}
ON_GAIN: dict[str, GainHook] = {}
ON_TRASH: dict[str, TrashHook] = {}
# Turn-structure abilities keyed by the landmark or card that has them (3.2-3.7): the start
# of a Buy phase (Arena), the end of a turn (Baths), a card discarded from play (Capital), a
# Duration's start-of-turn effect (by the name it counts as; called with its record index).
ON_BUY_PHASE: dict[str, TurnHook] = {}
ON_END_OF_TURN: dict[str, TurnHook] = {}
ON_DISCARD_FROM_PLAY: dict[str, TrashHook] = {}
DURATION_START: dict[str, Callable[[Ctx, int, int], None]] = {}
# Treasures played in one batch from the hand (their coins already counted): Merchant's bonus
# on the turn's first Silver (dominion-2e.md 2).
ON_TREASURES: list[Callable[[Ctx, int, tuple[str, ...]], None]] = []
# Events bought with `buy_event` (5.5), run after the Event is paid for.
EVENTS: dict[str, TurnHook] = {}
# Scoring landmarks (5.6): VP for a player at the end of the game.
SCORING: dict[str, Callable[[State, int], int]] = {}


def run(ctx: Ctx) -> None:
    frames = ctx.frames
    while frames and not ctx.prompts:
        frame = frames[-1]
        handler = HANDLERS.get(frame.op, card_frame)
        handler(ctx, frame)


def finish(ctx: Ctx) -> list[Fact]:
    state = ctx.state
    if ctx.frames or ctx.prompts or state.frames or state.prompts:  # else nothing to store
        frames, prompts = tuple(ctx.frames), tuple(ctx.prompts)
        if frames != state.frames or prompts != state.prompts:
            ctx.emit(StackSaved(frames, prompts))
    return ctx.facts


def ask(ctx: Ctx, d: Decision) -> bool:
    """Open `d`, or answer it at once when the answer is forced (4.3 rule 3). True when it
    was answered (or skipped for want of any legal answer).

    A decision among cards only its player sees is forced only when the other players can
    tell it is (`decisions.forced_for_others`): otherwise it is asked, even with one legal
    answer, so that whether a prompt opens never shows what the player holds (4.3 rule 4)."""
    value = decisions.forced(ctx.state, d)
    if decisions.private(d):
        seen = decisions.forced_for_others(ctx.state, d)
        if seen is decisions.NONE:
            return True
        if seen is decisions.MANY:
            value = decisions.MANY
    if value is decisions.NONE:
        return True
    explicit = ctx.state.variants.explicit_forced_choices and d.p != RECORDER
    if value is decisions.MANY or explicit:
        ctx.prompts.append(d)
        return False
    # Logged as answered by the engine (4.1, 4.3 rule 3), except a forced decline among cards
    # only the player sees: it must look to the others like a voluntary one (4.3 rule 4).
    if not (decisions.private(d) and value in (None, ())):
        ctx.emit(AutoResolved(None if d.p == RECORDER else ctx.seat(d.p), d.purpose, d.source))
    ANSWERS[d.purpose](ctx, d, value)
    return True


# --- deck primitives (4.8, 6.4) -----------------------------------------------------------


def shuffle(ctx: Ctx, p: int) -> None:
    pl = ctx.state.players[p]
    seat = ctx.seat(p)
    if ctx.state.mode == "physical":
        ctx.emit(Shuffled(seat, len(pl.discard), observed=True))
        return
    stream = f"deck:{seat}"
    order = ctx.rng.shuffle(stream, pl.shuffles, tuple(sorted(pl.discard)))
    ctx.emit(Shuffled(seat, len(order), tuple(order), stream, pl.shuffles))


def observe(ctx: Ctx, p: int, n: int = 1, verb: str = "draw") -> bool:
    """Ask the recorder for the next n card(s) of p's deck's unseen part (fewer if it holds
    fewer); True if that was forced. `verb` says what the cards are for: `draw`, `aside`
    (face down) and `look privately` (Sentry) take `?` for a card not seen, `reveal` and
    `look` (the rules read the card) need its name."""
    unknown = ctx.state.players[p].unknown
    k = max(1, min(n, len(unknown)))
    return ask(ctx, Decision(RECORDER, "observe", "observe", verb=verb, lo=1, hi=k, target=p))


def identify(ctx: Ctx, p: int, zone: str, verb: str = "reveal") -> bool:
    """The table sees p's unseen cards in `zone` (`hand`, or the top card of the deck): the
    recorder names them (6.4). True when there were none or the answer was forced; False
    while the recorder is asked: the step runs again once they are named."""
    cards = ctx.state.players[p].hand if zone == "hand" else ctx.state.players[p].deck[:1]
    k = unseen.count(cards)
    if not k:
        return True
    return ask(ctx, Decision(RECORDER, "observe", "identify", verb=verb, lo=k, hi=k, target=p, zone=zone))


def settle(ctx: Ctx, p: int, zone: str, cards: tuple[str, ...]) -> None:
    """Bind the `?`s of a zone that `cards` name (an entry that names a card not seen there
    before): one `Identified` fact, before the facts that move them."""
    pl = ctx.state.players[p]
    if zone == "hand" and UNSEEN not in pl.hand:  # the common case: nothing to bind
        return
    names = unseen.settle(pl, zone, cards)
    if names:
        ctx.emit(Identified(ctx.seat(p), zone, names, len(names)))


def draw(ctx: Ctx, p: int, n: int) -> bool:
    """Draw n cards (fewer if the deck and discard pile run out). False when a physical game
    must first observe a card: a `draw` frame then finishes the rest."""
    while n > 0:
        pl = ctx.state.players[p]
        if pl.deck:
            k = min(n, len(pl.deck))
            ctx.emit(Drew(ctx.seat(p), pl.deck[:k], k))
            n -= k
        elif pl.unknown:
            if not observe(ctx, p, n):
                ctx.frames.append(Frame("draw", p, n=n))
                return False
        elif pl.discard:
            shuffle(ctx, p)
        else:
            return True
    return True


def _draw_frame(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    draw(ctx, f.p, f.n)


HANDLERS["draw"] = _draw_frame


def peek(ctx: Ctx, p: int, verb: str = "reveal") -> str | None:
    """The top card of p's deck, shuffling if needed; None if there is none; WAIT while the
    recorder has to name it. The rules read a card they peek at, so an unseen one (`?`) must
    be named, unless `verb` is `aside` (set aside face down)."""
    pl = ctx.state.players[p]
    if not pl.deck and not pl.unknown:
        if not pl.discard:
            return None
        shuffle(ctx, p)
        pl = ctx.state.players[p]
    if pl.deck:
        if pl.deck[0] == UNSEEN and verb != "aside" and not identify(ctx, p, "deck", verb):
            return WAIT
        return ctx.state.players[p].deck[0]
    observe(ctx, p, 1, verb)
    pl = ctx.state.players[p]
    return pl.deck[0] if pl.deck else WAIT


# --- piles and tokens (1.6, 5.6) --------------------------------------------------------------


def pile_of(state: State, name: str) -> str | None:
    """The Supply pile a name means: a pile id, or the card now on top of a pile (4.1)."""
    if name in state.supply:
        return name
    home = DATA.home.get(name)
    if home is not None and home in state.supply:
        cards = state.supply[home]
        if cards and cards[0] == name:
            return home
    return None


def tokens(ctx: Ctx, source: str, p: int | None = None, **change: Any) -> None:
    """One `Tokens` fact: VP/debt for player p, and/or a pile's or a landmark's tokens."""
    ctx.emit(Tokens(source, None if p is None else ctx.seat(p), **change))


def take_vp(
    ctx: Ctx, p: int, source: str, n: int | None = None, *, landmark: str = "", pile: str = ""
) -> int:
    """p takes n VP (all when n is None) from a landmark or a pile; returns how many (5.6:
    a landmark out of tokens gives nothing)."""
    if landmark:
        have = ctx.state.landmark_vp.get(landmark, 0)
        k = have if n is None else min(n, have)
        if k:
            tokens(ctx, source, p, vp=k, landmark=landmark, landmark_vp=-k)
        return k
    have = ctx.state.pile_vp.get(pile, 0)
    k = have if n is None else min(n, have)
    if k:
        tokens(ctx, source, p, vp=k, pile=pile, pile_vp=-k)
    return k


# --- moving cards (4.6) -----------------------------------------------------------------------


def hooks_live(state: State, p: int) -> bool:
    """Can anything but a card's own ability trigger? Only Landmarks and Events with a
    when-buy, when-gain or when-trash ability (Tax, Basilica, Aqueduct...), waiting Charms
    and a Groundskeeper in play have such abilities, so a base game, or an Empires game whose
    Landmarks only score, skips the hooks. Those hooks are keyed by the Landmark's or Event's
    name and each checks that it is in the game, so names without one cannot trigger. A true
    answer only runs hooks that check for themselves: one substring search over the play
    area (a Groundskeeper, or an Overlord acting as one) is enough."""
    if state.charms:
        return True
    for name in (*state.landmarks, *state.events):
        if name in ON_BUY or name in ON_GAIN or name in ON_TRASH:
            return True
    return "Groundskeeper" in "".join(state.players[p].play)


def _gained(ctx: Ctx, p: int, card: str, to: str) -> None:
    own = OWN_GAIN.get(card)
    if own is not None:
        own(ctx, p, card, to)
    if not hooks_live(ctx.state, p):
        return
    for name in GAIN_ORDER:
        hook = ON_GAIN.get(name)
        if hook is not None:
            hook(ctx, p, card, to)


def gain(ctx: Ctx, p: int, pile: str, to: str = "discard") -> bool:
    cards = ctx.state.supply.get(pile)
    if not cards:
        return False
    card = cards[0]
    ctx.emit(Gained(ctx.seat(p), card, "supply", to, None if pile == card else pile))
    _gained(ctx, p, card, to)
    return True


def gain_from_trash(ctx: Ctx, p: int, card: str) -> None:
    ctx.emit(Gained(ctx.seat(p), card, "trash", "discard"))
    _gained(ctx, p, card, "discard")


def trashed(ctx: Ctx, p: int, card: str) -> None:
    """The when-trash abilities of one trashed card: its own, then Tomb (4.7)."""
    own = OWN_TRASH.get(physical(card))
    if own is not None:
        own(ctx, p, physical(card))
    if not hooks_live(ctx.state, p):
        return
    for name in TRASH_ORDER:
        hook = ON_TRASH.get(name)
        if hook is not None:
            hook(ctx, p, physical(card))


def trash(ctx: Ctx, p: int, cards: tuple[str, ...], source: str = "hand") -> None:
    if not cards:
        return
    ctx.emit(Trashed(ctx.seat(p), cards, source))
    for card in cards:
        trashed(ctx, p, card)


def trash_from_supply(ctx: Ctx, p: int, pile: str) -> str | None:
    """p trashes the top card of a Supply pile (Gladiator, Salt the Earth); returns it."""
    cards = ctx.state.supply.get(pile)
    if not cards:
        return None
    card = cards[0]
    ctx.emit(Trashed(ctx.seat(p), (card,), "supply", None if pile == card else pile))
    trashed(ctx, p, card)
    return card


def bought(ctx: Ctx, p: int, card: str) -> None:
    """The when-buy abilities of a bought card, before it is gained (4.5 step 3)."""
    own = OWN_BUY.get(card)
    if own is not None:
        own(ctx, p, card)
    if not hooks_live(ctx.state, p):
        return
    for name in BUY_ORDER:
        hook = ON_BUY.get(name)
        if hook is not None:
            hook(ctx, p, card)


PLAYS_TWICE = ("Throne Room", "Crown")


def this(f: Frame) -> str:
    """The card a frame resolves, as it is in play (an Overlord's token when it acts as it)."""
    return f.card or f.op


def in_play(ctx: Ctx, f: Frame) -> bool:
    """Is this card still in play for this play of it? ("this" works only then, 3.1)"""
    return not f.gone and this(f) in ctx.state.players[f.p].play


def left_play(ctx: Ctx, f: Frame, *, popped: bool = False) -> None:
    """This card left play: a Throne Room or Crown about to play it again finds it gone. `f`
    is the card's frame, still on top of the stack or, with `popped`, already taken off."""
    i = len(ctx.frames) - (1 if popped else 2)
    if i < 0:
        return
    below = ctx.frames[i]
    if below.op in PLAYS_TWICE and below.cards[:1] in ((physical(this(f)),), (f.op,)):
        ctx.frames[i] = replace(below, gone=True)


def reaction_window(ctx: Ctx, p: int, card: str) -> None:
    """An Attack played: every other player who might hold a Moat may reveal it, all at once
    (4.6); a player who cannot hold one declines at once, logged like a voluntary decline."""
    if card not in DATA.attacks:
        return
    for t in ctx.state.others(p):
        ask(ctx, Decision(t, "react", "react", source=card))


def enchanted(state: State, p: int, card: str) -> bool:
    """Does an enchantment replace this play (5.3 Enchantress)? Only the first Action card
    the targeted player plays in their own turn, once however many enchantments there are."""
    if not state.enchantments or state.first_action or p != state.current or card not in DATA.actions:
        return False
    return any(p in targets for _, targets in state.enchantments)


def play(
    ctx: Ctx, p: int, card: str, *, again: bool = False, action: bool = False, gone: bool = False
) -> None:
    """Put a card into play and start its instructions (3.1). An Attack first opens the
    reaction window (4.6): every other player holding a Moat may reveal it, all at once.
    An enchanted play gives +1 Card +1 Action instead of its instructions."""
    if not again and enchanted(ctx.state, p, card):
        ctx.emit(Played(ctx.seat(p), card, False, action, enchanted=True))
        ctx.emit(Plus(ctx.seat(p), "Enchantress", actions=1))
        ctx.frames.append(Frame("draw", p, n=1))
        return
    ctx.emit(Played(ctx.seat(p), card, again, action))
    ctx.frames.append(Frame(card, p, gone=gone, again=again))
    reaction_window(ctx, p, card)


def targets(ctx: Ctx, f: Frame) -> tuple[int, ...]:
    """The other players affected by this play of an Attack, in turn order (4.6)."""
    return tuple(t for t in ctx.state.others(f.p) if t not in f.immune)


def card_frame(ctx: Ctx, f: Frame) -> None:
    """A played card: its "+" bonuses (step 0), then its own effect (step 1 on)."""
    if f.step == 0:
        f = ctx.set(replace(f, step=1))
        plus = DATA.plus.get(f.op)
        coins = DATA.coins[f.op]  # a Treasure's own coins (played by Crown or one at a time)
        if plus is not None or coins:
            actions, buys = (plus.actions, plus.buys) if plus is not None else (0, 0)
            coins += plus.coins if plus is not None else 0
            if actions or buys or coins:
                ctx.emit(Plus(ctx.seat(f.p), f.op, actions, buys, coins))
            if plus is not None and plus.cards and not draw(ctx, f.p, plus.cards):
                return
    effect = EFFECTS.get(f.op)
    if effect is None:
        ctx.frames.pop()
    else:
        effect(ctx, f)
