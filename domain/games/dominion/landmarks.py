"""The 21 Landmarks of Empires (dominion.md 5.6).

Token landmarks are triggered abilities registered in the engine's ON_BUY / ON_GAIN / ON_TRASH
tables (run in the canonical order of 4.7) and turn hooks (Arena at the start of a Buy phase,
Baths at the end of a turn); each checks that its landmark is in the game. Scoring landmarks
are functions of the final state (`SCORING`, 7.2 step 3). Mountain Pass queues its bidding
when the first Province is gained; the bidding itself is the `mountain_pass` frame that the
between-turns step pushes (3.7).

Rulings:
- "Take N VP from here" takes what is left, possibly nothing (5.6, 8.22).
- Aqueduct and Defiled Shrine move a token from the gained card's home pile (a split pile's
  id; the Castle pile never holds any). A gained Crown feeds both; with exactly 1 VP on its
  pile the gainer chooses which landmark gets it (4.7 exception), so Defiled Shrine leaves
  that token alone while the choice is open.
- Defiled Shrine pays out for a bought Curse; under `defiled_shrine_gain_in_buy_phase` for a
  Curse gained in the gainer's own Buy phase instead (8.13).
- Labyrinth counts the gains of the current player's turn in order: the one that makes
  `gained_this_turn` two cards long pays, so it pays at most once per turn.
- Colonnade compares names in play as they act (an Overlord acting as a Village is a Village);
  the two halves of a split pile are different names.
- Mountain Pass: each player bids once, from the gainer's left to the gainer; a bid must beat
  the high bid and be at most 40, so after a 40 every later player can only pass (8.28). The
  high bidder gets +8 VP and takes the bid in debt.
- Scoring counts "cards you have" (`Player.owned`, Archive's sets included). Keep pays every
  player tied for the most copies of a Treasure name (at least one). Tower counts non-Victory
  cards whose home pile is empty (Curses too). Obelisk counts both halves of a split pile.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from msgspec.structs import replace

from domain.games.dominion.data import DATA
from domain.games.dominion.engine import (
    ANSWERS,
    HANDLERS,
    ON_BUY,
    ON_BUY_PHASE,
    ON_END_OF_TURN,
    ON_GAIN,
    ON_TRASH,
    SCORING,
    Ctx,
    ask,
    take_vp,
    tokens,
)
from domain.games.dominion.events import Bid, Chose, Discarded, MountainPassQueued
from domain.games.dominion.state import Decision, Frame, State, acting

MOUNTAIN_PASS_MAX = 40
CROWN_CHOICE = "aqueduct_or_shrine"


def _in(ctx: Ctx, landmark: str) -> bool:
    return landmark in ctx.state.landmarks


def _feed(ctx: Ctx, landmark: str, pile: str) -> None:
    """Move 1 VP from a pile to a landmark (Aqueduct, Defiled Shrine)."""
    tokens(ctx, landmark, pile=pile, pile_vp=-1, landmark=landmark, landmark_vp=1)


# --- token landmarks ---------------------------------------------------------------------------


def _aqueduct(ctx: Ctx, p: int, card: str, to: str) -> None:
    if not _in(ctx, "Aqueduct"):
        return
    if card in DATA.treasures:
        pile = DATA.home[card]
        left = ctx.state.pile_vp.get(pile, 0)
        if left == 1 and card in DATA.actions and _in(ctx, "Defiled Shrine"):
            options = ("aqueduct", "defiled_shrine")
            ask(ctx, Decision(p, "choose", CROWN_CHOICE, "Aqueduct", options=options, cards=(pile,)))
        elif left > 0:
            _feed(ctx, "Aqueduct", pile)
    if card in DATA.victories:
        take_vp(ctx, p, "Aqueduct", landmark="Aqueduct")


def _crown_choice(ctx: Ctx, d: Decision, option: Any) -> None:
    ctx.emit(Chose(ctx.seat(d.p), option, "Aqueduct"))
    pile = d.cards[0]
    if ctx.state.pile_vp.get(pile, 0) > 0:
        _feed(ctx, "Aqueduct" if option == "aqueduct" else "Defiled Shrine", pile)


def _arena(ctx: Ctx, p: int) -> None:
    if ctx.state.landmark_vp.get("Arena", 0) <= 0:
        return
    ask(ctx, Decision(p, "select", "arena", "Arena", "discard", 0, 1, types=("Action",)))


def _arena_discard(ctx: Ctx, d: Decision, cards: Any) -> None:
    if not cards:
        return
    chosen = tuple(cards)
    ctx.emit(Discarded(ctx.seat(d.p), chosen, "hand", len(chosen), chosen[-1], public=True))
    take_vp(ctx, d.p, "Arena", 2, landmark="Arena")


def _basilica(ctx: Ctx, p: int, card: str) -> None:
    # Runs after the Bought fact: the coins are already paid.
    if _in(ctx, "Basilica") and ctx.state.coins >= 2:
        take_vp(ctx, p, "Basilica", 2, landmark="Basilica")


def _baths(ctx: Ctx, p: int) -> None:
    if _in(ctx, "Baths") and not ctx.state.gained:
        take_vp(ctx, p, "Baths", 2, landmark="Baths")


def _battlefield(ctx: Ctx, p: int, card: str, to: str) -> None:
    if _in(ctx, "Battlefield") and card in DATA.victories:
        take_vp(ctx, p, "Battlefield", 2, landmark="Battlefield")


def _colonnade(ctx: Ctx, p: int, card: str) -> None:
    if not _in(ctx, "Colonnade") or card not in DATA.actions:
        return
    if any(acting(c) == card for c in ctx.state.players[p].play):
        take_vp(ctx, p, "Colonnade", 2, landmark="Colonnade")


def _shrine_gain(ctx: Ctx, p: int, card: str, to: str) -> None:
    state = ctx.state
    if not _in(ctx, "Defiled Shrine"):
        return
    if card in DATA.actions:
        pile = DATA.home[card]
        choosing = any(d.purpose == CROWN_CHOICE and d.p == p for d in ctx.prompts)
        if state.pile_vp.get(pile, 0) > 0 and not choosing:
            _feed(ctx, "Defiled Shrine", pile)
    in_buy_phase = p == state.current and state.phase == "buy"
    if card == "Curse" and state.variants.defiled_shrine_gain_in_buy_phase and in_buy_phase:
        take_vp(ctx, p, "Defiled Shrine", landmark="Defiled Shrine")


def _shrine_buy(ctx: Ctx, p: int, card: str) -> None:
    if (
        _in(ctx, "Defiled Shrine")
        and card == "Curse"
        and not ctx.state.variants.defiled_shrine_gain_in_buy_phase
    ):
        take_vp(ctx, p, "Defiled Shrine", landmark="Defiled Shrine")


def _labyrinth(ctx: Ctx, p: int, card: str, to: str) -> None:
    state = ctx.state
    if _in(ctx, "Labyrinth") and p == state.current and len(state.gained) == 2:
        take_vp(ctx, p, "Labyrinth", 2, landmark="Labyrinth")


def _tomb(ctx: Ctx, p: int, card: str) -> None:
    if _in(ctx, "Tomb"):
        tokens(ctx, "Tomb", p, vp=1)


# --- Mountain Pass ---------------------------------------------------------------------------


def _mountain_pass_gain(ctx: Ctx, p: int, card: str, to: str) -> None:
    if _in(ctx, "Mountain Pass") and card == "Province" and not ctx.state.province_gained:
        ctx.emit(MountainPassQueued(ctx.seat(p)))


def _bidding(ctx: Ctx, f: Frame) -> None:
    """`step` counts the bids made, `n` is the high bid and `cards` the high bidder's seat."""
    n = ctx.state.n
    if f.step < n:
        bidder = (f.p + 1 + f.step) % n
        f = ctx.set(replace(f, step=f.step + 1))
        ask(ctx, Decision(bidder, "bid", "mountain_pass", "Mountain Pass", lo=f.n + 1, hi=MOUNTAIN_PASS_MAX))
        return
    ctx.frames.pop()
    if f.cards:
        tokens(ctx, "Mountain Pass", ctx.state.index(f.cards[0]), vp=8, debt=f.n)
    ctx.emit(MountainPassQueued(None))


def _bid(ctx: Ctx, d: Decision, amount: Any) -> None:
    seat = ctx.seat(d.p)
    ctx.emit(Bid(seat, amount))
    if amount is not None:
        f = ctx.frames[-1]
        ctx.set(replace(f, n=amount, cards=(seat,)))


# --- scoring landmarks (7.2 step 3) ----------------------------------------------------------


def _have(state: State, p: int) -> Counter[str]:
    return Counter(state.players[p].owned())


def bandit_fort(state: State, p: int) -> int:
    have = _have(state, p)
    return -2 * (have["Silver"] + have["Gold"])


def fountain(state: State, p: int) -> int:
    return 15 if _have(state, p)["Copper"] >= 10 else 0


def keep(state: State, p: int) -> int:
    counts = [_have(state, q) for q in range(state.n)]
    mine = counts[p]
    won = 0
    for name, k in mine.items():
        if name in DATA.treasures and k >= max(c[name] for c in counts):
            won += 1
    return 5 * won


def museum(state: State, p: int) -> int:
    return 2 * len(_have(state, p))


def obelisk(state: State, p: int) -> int:
    if state.obelisk is None:
        return 0
    return 2 * sum(k for name, k in _have(state, p).items() if DATA.home.get(name) == state.obelisk)


def orchard(state: State, p: int) -> int:
    return 4 * sum(1 for name, k in _have(state, p).items() if name in DATA.actions and k >= 3)


def palace(state: State, p: int) -> int:
    have = _have(state, p)
    return 3 * min(have["Copper"], have["Silver"], have["Gold"])


def tower(state: State, p: int) -> int:
    empty = {pile for pile, cards in state.supply.items() if not cards}
    return sum(
        k
        for name, k in _have(state, p).items()
        if name not in DATA.victories and DATA.home.get(name) in empty
    )


def triumphal_arch(state: State, p: int) -> int:
    counts = sorted((k for name, k in _have(state, p).items() if name in DATA.actions), reverse=True)
    return 3 * counts[1] if len(counts) >= 2 else 0


def wall(state: State, p: int) -> int:
    return -max(0, len(state.players[p].owned()) - 15)


def wolf_den(state: State, p: int) -> int:
    return -3 * sum(1 for k in _have(state, p).values() if k == 1)


ON_GAIN["Aqueduct"] = _aqueduct
ON_GAIN["Battlefield"] = _battlefield
ON_GAIN["Defiled Shrine"] = _shrine_gain
ON_GAIN["Labyrinth"] = _labyrinth
ON_GAIN["Mountain Pass"] = _mountain_pass_gain
ON_BUY["Basilica"] = _basilica
ON_BUY["Colonnade"] = _colonnade
ON_BUY["Defiled Shrine"] = _shrine_buy
ON_TRASH["Tomb"] = _tomb
ON_BUY_PHASE["Arena"] = _arena
ON_END_OF_TURN["Baths"] = _baths
HANDLERS["mountain_pass"] = _bidding
ANSWERS["mountain_pass"] = _bid
ANSWERS["arena"] = _arena_discard
ANSWERS[CROWN_CHOICE] = _crown_choice
SCORING.update(
    {
        "Bandit Fort": bandit_fort,
        "Fountain": fountain,
        "Keep": keep,
        "Museum": museum,
        "Obelisk": obelisk,
        "Orchard": orchard,
        "Palace": palace,
        "Tower": tower,
        "Triumphal Arch": triumphal_arch,
        "Wall": wall,
        "Wolf Den": wolf_den,
    }
)
