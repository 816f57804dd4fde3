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
from domain.games.dominion import decisions
from domain.games.dominion.data import DATA
from domain.games.dominion.events import (
    Drew,
    Fact,
    Gained,
    Played,
    Plus,
    Reacted,
    Shuffled,
    StackSaved,
    Trashed,
)
from domain.games.dominion.fold import evolve
from domain.games.dominion.state import RECORDER, Decision, Frame, State
from domain.rng import Rng

WAIT = "?wait"  # peek(): the recorder must first say which card it is


class Ctx(Collector[State, Fact]):
    """The facts of one input so far, the state they lead to, and the live continuation."""

    __slots__ = ("frames", "prompts")

    def __init__(self, state: State, rng: Rng) -> None:
        super().__init__(state, rng, evolve)
        self.frames: list[Frame] = list(state.frames)
        self.prompts: list[Decision] = list(state.prompts)

    def seat(self, p: int) -> str:
        return self.state.seats[p]

    def set(self, frame: Frame) -> Frame:
        self.frames[-1] = frame
        return frame


Handler = Callable[[Ctx, Frame], None]
Answer = Callable[[Ctx, Decision, Any], None]

HANDLERS: dict[str, Handler] = {}
ANSWERS: dict[str, Answer] = {}
EFFECTS: dict[str, Handler] = {}  # a card's own instructions, after its "+" bonuses (step >= 1)
# Triggered abilities (dominion.md 4.7, 5.7) subscribe here in their canonical order; the base
# game has none. They run for whoever buys, gains or trashes, on any player's turn.
ON_BUY: list[Callable[[Ctx, int, str], None]] = []
ON_GAIN: list[Callable[[Ctx, int, str, str], None]] = []
ON_TRASH: list[Callable[[Ctx, int, str], None]] = []


def run(ctx: Ctx) -> None:
    frames = ctx.frames
    while frames and not ctx.prompts:
        frame = frames[-1]
        handler = HANDLERS.get(frame.op, card_frame)
        handler(ctx, frame)


def finish(ctx: Ctx) -> list[Fact]:
    frames, prompts = tuple(ctx.frames), tuple(ctx.prompts)
    if frames != ctx.state.frames or prompts != ctx.state.prompts:
        ctx.emit(StackSaved(frames, prompts))
    return ctx.facts


def ask(ctx: Ctx, d: Decision) -> bool:
    """Open `d`, or answer it at once when the answer is forced (4.3 rule 3). True when it
    was answered (or skipped for want of any legal answer)."""
    value = decisions.forced(ctx.state, d)
    if value is decisions.NONE:
        return True
    explicit = ctx.state.variants.explicit_forced_choices and d.p != RECORDER
    if value is decisions.MANY or explicit:
        ctx.prompts.append(d)
        return False
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


def observe(ctx: Ctx, p: int) -> bool:
    """Ask the recorder for the next card(s) of p's deck; True if that was forced."""
    unknown = ctx.state.players[p].unknown
    return ask(ctx, Decision(RECORDER, "observe", "observe", lo=1, hi=len(unknown), target=p))


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
            if not observe(ctx, p):
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


def peek(ctx: Ctx, p: int) -> str | None:
    """The top card of p's deck, shuffling if needed; None if there is none; WAIT while the
    recorder has to name it."""
    pl = ctx.state.players[p]
    if not pl.deck and not pl.unknown:
        if not pl.discard:
            return None
        shuffle(ctx, p)
        pl = ctx.state.players[p]
    if pl.deck:
        return pl.deck[0]
    observe(ctx, p)
    pl = ctx.state.players[p]
    return pl.deck[0] if pl.deck else WAIT


# --- moving cards (4.6) -----------------------------------------------------------------------


def gain(ctx: Ctx, p: int, pile: str, to: str = "discard") -> bool:
    cards = ctx.state.supply.get(pile)
    if not cards:
        return False
    card = cards[0]
    ctx.emit(Gained(ctx.seat(p), card, "supply", to, None if pile == card else pile))
    for trigger in ON_GAIN:
        trigger(ctx, p, card, to)
    return True


def gain_from_trash(ctx: Ctx, p: int, card: str) -> None:
    ctx.emit(Gained(ctx.seat(p), card, "trash", "discard"))
    for trigger in ON_GAIN:
        trigger(ctx, p, card, "discard")


def trash(ctx: Ctx, p: int, cards: tuple[str, ...], source: str = "hand") -> None:
    if not cards:
        return
    ctx.emit(Trashed(ctx.seat(p), cards, source))
    for card in cards:
        for trigger in ON_TRASH:
            trigger(ctx, p, card)


def play(
    ctx: Ctx, p: int, card: str, *, again: bool = False, action: bool = False, gone: bool = False
) -> None:
    """Put a card into play and start its instructions (3.1). An Attack first opens the
    reaction window (4.6): every other player holding a Moat may reveal it, all at once."""
    ctx.emit(Played(ctx.seat(p), card, again, action))
    ctx.frames.append(Frame(card, p, gone=gone))
    if card in DATA.attacks:
        for t in ctx.state.others(p):
            if "Moat" in ctx.state.players[t].hand:
                ask(ctx, Decision(t, "react", "react", source=card))
            else:
                # Shown exactly like a voluntary decline (4.3 rule 4).
                ctx.emit(Reacted(ctx.seat(t), None, card))


def targets(ctx: Ctx, f: Frame) -> tuple[int, ...]:
    """The other players affected by this play of an Attack, in turn order (4.6)."""
    return tuple(t for t in ctx.state.others(f.p) if t not in f.immune)


def card_frame(ctx: Ctx, f: Frame) -> None:
    """A played card: its "+" bonuses (step 0), then its own effect (step 1 on)."""
    if f.step == 0:
        f = ctx.set(replace(f, step=1))
        plus = DATA.plus.get(f.op)
        if plus is not None:
            if plus.actions or plus.buys or plus.coins:
                ctx.emit(Plus(ctx.seat(f.p), f.op, plus.actions, plus.buys, plus.coins))
            if plus.cards and not draw(ctx, f.p, plus.cards):
                return
    effect = EFFECTS.get(f.op)
    if effect is None:
        ctx.frames.pop()
    else:
        effect(ctx, f)
