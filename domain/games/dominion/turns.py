"""Setup, turn sequence, end of game and scoring of Dominion (1st-edition base game):
dominion.md 1.2-1.5, 1.9, 3.2, 3.5-3.8 and 7.

Setup is a frame like any effect, so a physical game can stop in it for the recorder: the
kingdom (drawn with the seeded RNG, stream `kingdom`, n 0: a shuffle of the 25 kingdom names in
sorted order, the first 10 taken; or a preset; or entered), the first player (stream
`first-player`, n 0: one roll over the seats; or entered), then in turn order each player is
dealt 7 Copper and 3 Estate into an empty discard pile, shuffles it (stream `deck:<seat>`)
and draws 5.

Rulings: the game-end check runs after Clean-up's draw (3.8); a 4-player game needs four empty
piles only under `four_piles_at_four_players`. Ties go to the fewest turns taken, then are
shared (7.3); under `tiebreak_earlier_seat_loses` the tied player latest in turn order wins and
lower places are ordered the same way.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games.dominion.data import DATA
from domain.games.dominion.engine import ANSWERS, HANDLERS, Ctx, ask, draw, shuffle
from domain.games.dominion.events import (
    CleanedUp,
    Dealt,
    FirstPlayerChosen,
    GameEnded,
    KingdomChosen,
    Observed,
    SupplyBuilt,
    TurnStarted,
)
from domain.games.dominion.state import RECORDER, Decision, Frame, State

KINGDOM_STREAM = "kingdom"
FIRST_STREAM = "first-player"
STARTING = ("Copper",) * 7 + ("Estate",) * 3


def choose_kingdom(ctx: Ctx, piles: tuple[str, ...], method: str, **random: Any) -> None:
    piles = tuple(sorted(piles))
    ctx.emit(KingdomChosen(piles, method, **random))
    n = ctx.state.n
    sizes = {name: DATA.pile_size(name, n) for name in (*DATA.basic, *piles)}
    ctx.emit(SupplyBuilt(sizes))


def _setup(ctx: Ctx, f: Frame) -> None:
    state = ctx.state
    physical = state.mode == "physical"
    if f.step == 0:
        ctx.set(replace(f, step=1))
        method = state.variants.kingdom
        if method in DATA.presets:
            choose_kingdom(ctx, DATA.presets[method], method)
        elif method == "random" and not physical:
            order = ctx.rng.shuffle(KINGDOM_STREAM, 0, DATA.kingdom)
            choose_kingdom(ctx, tuple(order[:10]), "random", stream=KINGDOM_STREAM, n=0)
        else:
            ask(ctx, Decision(RECORDER, "kingdom", "kingdom", lo=10, hi=10))
        return
    if f.step == 1:
        ctx.set(replace(f, step=2))
        if physical:
            ask(ctx, Decision(RECORDER, "first_player", "first_player"))
        else:
            roll = ctx.rng.roll(FIRST_STREAM, 0, state.n)[0]
            ctx.emit(FirstPlayerChosen(state.seats[roll - 1], FIRST_STREAM, 0, roll, state.n))
        return
    if f.n < state.n:
        p = (state.first + f.n) % state.n
        ctx.set(replace(f, n=f.n + 1))
        ctx.emit(Dealt(state.seats[p], STARTING))
        shuffle(ctx, p)
        draw(ctx, p, 5)
        return
    ctx.frames.pop()
    ctx.emit(TurnStarted(state.seats[state.first], 1))


def _kingdom(ctx: Ctx, d: Decision, piles: Any) -> None:
    method = "manual" if ctx.state.variants.kingdom == "manual" else "random"
    choose_kingdom(ctx, piles, method, observed=True)


def _first(ctx: Ctx, d: Decision, seat: Any) -> None:
    ctx.emit(FirstPlayerChosen(seat, observed=True))


def _observe(ctx: Ctx, d: Decision, cards: Any) -> None:
    ctx.emit(Observed(ctx.seat(d.target), tuple(cards), len(cards)))


def _cleanup(ctx: Ctx, f: Frame) -> None:
    """Clean-up (3.5): discard play and hand, draw 5; then the end check (3.8)."""
    if f.step == 0:
        pl = ctx.state.players[f.p]
        moved = pl.play + pl.hand
        public = ctx.state.variants.all_discards_public
        ctx.emit(
            CleanedUp(ctx.seat(f.p), pl.play, pl.hand, len(pl.hand), moved[-1] if moved else None, public)
        )
        ctx.set(replace(f, step=1))
        if not draw(ctx, f.p, 5):
            return
    ctx.frames.pop()
    end_turn(ctx, f.p)


HANDLERS["setup"] = _setup
HANDLERS["cleanup"] = _cleanup
ANSWERS["kingdom"] = _kingdom
ANSWERS["first_player"] = _first
ANSWERS["observe"] = _observe


def game_over(state: State) -> str | None:
    if not state.supply.get("Province"):
        return "province_pile_empty"
    empty = sum(1 for cards in state.supply.values() if not cards)
    needed = 4 if state.n >= 4 and state.variants.four_piles_at_four_players else 3
    return "piles_empty" if empty >= needed else None


def end_turn(ctx: Ctx, p: int) -> None:
    state = ctx.state
    reason = game_over(state)
    if reason is None:
        ctx.emit(TurnStarted(state.seats[(p + 1) % state.n], state.turn + 1))
    else:
        ctx.emit(score(state, reason))


def card_vp(cards: tuple[str, ...]) -> int:
    vp = DATA.vp
    total = sum(vp[c] for c in cards)
    gardens = cards.count("Gardens")
    return total + gardens * (len(cards) // 10)


def score(state: State, reason: str) -> GameEnded:
    seats = state.seats
    n = state.n
    cards = [card_vp(pl.owned()) for pl in state.players]
    tokens = [pl.vp for pl in state.players]
    totals = [c + t for c, t in zip(cards, tokens, strict=True)]
    turns = [pl.turns for pl in state.players]
    if state.variants.tiebreak_earlier_seat_loses:
        keys = [(-totals[p], -((p - state.first) % n)) for p in range(n)]
    else:
        keys = [(-totals[p], turns[p]) for p in range(n)]
    ranks = [1 + sum(1 for q in range(n) if keys[q] < keys[p]) for p in range(n)]
    return GameEnded(
        reason=reason,
        scores={seats[p]: totals[p] for p in range(n)},
        card_vp={seats[p]: cards[p] for p in range(n)},
        tokens={seats[p]: tokens[p] for p in range(n)},
        turns={seats[p]: turns[p] for p in range(n)},
        ranks={seats[p]: ranks[p] for p in range(n)},
        winners=tuple(seats[p] for p in range(n) if ranks[p] == 1),
    )
