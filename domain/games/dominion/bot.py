"""The simple bot of Dominion (1st-edition base game and Empires) for `chronicle simulate`: Big
Money with a taste for kingdom cards, mixed with random legal choices.

Action phase: play a random Action card (villages first). Buy phase: play every Treasure, pay
off as much debt as it can, then buy a Province at $8 (Dominate at $14), a Gold at $6-7
(sometimes a kingdom card), a Duchy at $5-7 late, a random kingdom card or Silver at $3-5, an
Estate at $2 very late; now and then it buys an Event it can afford instead (Donate and Annex
only rarely, as they slow the game); otherwise it ends the phase. In debt it buys nothing.
Decisions are answered at random, except that a Moat is always revealed, a Chapel trashes only
Curses and Estates, gains usually take the dearest card allowed, a Thief takes everything and
debt is paid off as far as possible and Mountain Pass gets a small bid or a pass; Vassal plays
the Action card it discarded, Sentry trashes Curses and Estates like Chapel and discards what it
would not draw, and Harbinger puts back the dearest card of the discard pile. Big Money
buys a Province every few turns, so games end;
should a game still drag on (past turn 120) the bot buys from the smallest piles to end it on
piles.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.games.dominion.actions import (
    Action,
    Bid,
    BuyCard,
    BuyEvent,
    Choose,
    EndPhase,
    PayDebt,
    PlayCard,
    PlayTreasures,
    React,
    SelectCards,
    SelectPile,
)
from domain.games.dominion.data import DATA
from domain.games.dominion.state import State

LONG_GAME = 120
JUNK = frozenset({"Curse", "Estate"})
SLOW_EVENTS = frozenset({"Donate", "Annex"})
ACTION_GIVERS = frozenset(
    {
        "Village",
        "Festival",
        "Laboratory",
        "Market",
        "Cellar",
        "Spy",
        "Harbinger",
        "Merchant",
        "Poacher",
        "Sentry",
    }
)
# The 2nd edition's decisions (dominion-2e.md 2) the bot answers by a rule rather than at random.
KEEP_ON_DECK = frozenset({"Gold", "Province", "Duchy", "Laboratory", "Market", "Festival", "Smithy"})


def choose(state: State, legal: tuple[Action, ...], draw: Callable[[int], int]) -> Action:
    if state.prompts:
        return _answer(state, legal, draw)
    if state.phase == "action":
        plays = [a for a in legal if isinstance(a, PlayCard)]
        if plays and draw(10) < 9:
            first = [a for a in plays if a.card in ACTION_GIVERS]
            pool = first or plays
            return pool[draw(len(pool))]
        return EndPhase()
    for action in legal:
        if isinstance(action, PlayTreasures):
            return action
    debts = [a for a in legal if isinstance(a, PayDebt)]
    if debts:
        return max(debts, key=lambda a: a.amount)
    buys = {a.pile: a for a in legal if isinstance(a, BuyCard) and a.pile in state.supply}
    if not buys:
        return EndPhase()
    coins = state.coins
    if state.turn > LONG_GAME:
        return min(buys.values(), key=lambda a: (len(state.supply[a.pile]), a.pile))
    provinces = len(state.supply.get("Province", ()))
    events = {a.event: a for a in legal if isinstance(a, BuyEvent)}
    if "Dominate" in events and coins >= 14 and provinces:
        return events["Dominate"]
    if "Province" in buys and coins >= 8:
        return buys["Province"]
    event = _event(events, draw)
    if event is not None:
        return event
    if "Duchy" in buys and provinces <= 4 and coins >= 5:
        return buys["Duchy"]
    if "Estate" in buys and provinces <= 2 and coins >= 2:
        return buys["Estate"]
    kingdom = [
        buys[k]
        for k in state.kingdom
        if k in buys and DATA.cost[state.supply[k][0]][0] >= 2 and k != "Gardens"
    ]
    if "Gold" in buys and coins >= 6:
        if kingdom and draw(4) == 0:
            return kingdom[draw(len(kingdom))]
        return buys["Gold"]
    if coins >= 3:
        if kingdom and draw(3) == 0:
            return kingdom[draw(len(kingdom))]
        if "Silver" in buys:
            return buys["Silver"]
    return EndPhase()


def _event(events: dict[str, BuyEvent], draw: Callable[[int], int]) -> BuyEvent | None:
    """Now and then an affordable Event; Donate and Annex very rarely."""
    if not events or draw(6) != 0:
        return None
    pool = [a for name, a in sorted(events.items()) if name not in SLOW_EVENTS or draw(20) == 0]
    return pool[draw(len(pool))] if pool else None


def _dearest(action: Action) -> tuple[int, int]:
    cards = action.cards if isinstance(action, SelectCards) else ()
    return max((DATA.cost[c] for c in cards if c is not None), default=(-1, 0))


def _answer(state: State, legal: tuple[Action, ...], draw: Callable[[int], int]) -> Action:
    first = legal[0]
    if isinstance(first, React):
        reveal = [a for a in legal if isinstance(a, React) and a.card]
        return reveal[0] if reveal else first
    if isinstance(first, Choose) and any(isinstance(a, Choose) and a.option == "play" for a in legal):
        return Choose("play") if draw(10) < 9 else legal[draw(len(legal))]
    purpose = state.prompts[0].purpose if state.prompts else ""
    if purpose == "sentry_discard":
        rest = [a for a in legal if isinstance(a, SelectCards) and not set(a.cards) & KEEP_ON_DECK]
        return max(rest, key=lambda a: len(a.cards)) if rest else first
    if purpose == "harbinger" and draw(4) > 0:
        return max(legal, key=lambda a: _dearest(a))
    if isinstance(first, SelectCards):
        if first.verb == "trash" and len(legal) > 1:
            junk = [a for a in legal if isinstance(a, SelectCards) and all(c in JUNK for c in a.cards)]
            if junk:
                return max(junk, key=lambda a: len(a.cards))
        if first.verb == "gain":
            return max(legal, key=lambda a: len(a.cards) if isinstance(a, SelectCards) else 0)
    if isinstance(first, PayDebt):
        return max(legal, key=lambda a: a.amount if isinstance(a, PayDebt) else -1)
    if isinstance(first, Bid):
        cheap = [a for a in legal if isinstance(a, Bid) and a.amount is not None and a.amount <= 5]
        return cheap[0] if cheap and draw(2) == 0 else Bid(None)
    if isinstance(first, SelectPile) and draw(10) < 7:
        piles = [a for a in legal if isinstance(a, SelectPile) and state.supply.get(a.pile or "")]
        if piles:
            return max(piles, key=lambda a: (DATA.cost[state.supply[a.pile or ""][0]], a.pile or ""))
    return legal[draw(len(legal))]
