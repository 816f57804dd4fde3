"""Prompts and legal actions of Dominion (1st-edition base game): who must answer what now, and
with which actions (dominion.md 4.2-4.4).

Answers come from `decisions.answers`, the same source `decide` checks against, so the two
cannot disagree. Turn actions list each distinct card once (same-named cards are the same
action), `play_treasures` with every Treasure in hand, and each affordable non-empty pile.
`probe_actions` adds near misses (unknown names, wrong verbs, one card too many) for the
contract suite to prove that `decide` refuses them.
"""

from __future__ import annotations

from typing import Any

from domain.games.dominion.actions import (
    KIND_TAG,
    Action,
    Bid,
    BuyCard,
    BuyEvent,
    Choose,
    ChooseFirstPlayer,
    ChooseKingdom,
    EndPhase,
    ObserveCards,
    PayDebt,
    PlayCard,
    PlayTreasure,
    PlayTreasures,
    React,
    SelectCards,
    SelectPile,
)
from domain.games.dominion.data import DATA
from domain.games.dominion.decisions import answers, offered_presets
from domain.games.dominion.rules import ENDS_ACTION_PHASE, after_action_phase
from domain.games.dominion.state import RECORDER, UNSEEN, UNSEEN_VERBS, Decision, State
from domain.games.dominion.view import PRIVATE_CHOICES
from domain.ruleset import Prompt

BOGUS = "Bogus"
ALL_NAMES = tuple(sorted(DATA.cards))


def as_action(d: Decision, value: Any) -> Action:
    kind = d.kind
    if kind == "select":
        return SelectCards(d.verb, value)
    if kind == "choose":
        return Choose(value)
    if kind == "pile":
        return SelectPile(value)
    if kind == "react":
        return React(value)
    if kind == "observe":
        return ObserveCards(value)
    if kind == "kingdom":
        return ChooseKingdom(*value)
    if kind == "bid":
        return Bid(value)
    if kind == "debt":
        return PayDebt(value)
    return ChooseFirstPlayer(value)


def _party(state: State, seat: str | None) -> int | None:
    """Whose answers `seat` gives now: RECORDER, a seat index, or None (nobody)."""
    asked = [d.p for d in state.prompts]
    if RECORDER in asked:
        return RECORDER if seat is None else None
    if seat is None:
        distinct = set(asked)
        return distinct.pop() if len(distinct) == 1 else None
    p = state.index(seat) if seat in state.seats else None
    return p if p in asked else None


def turn_actions(state: State) -> tuple[Action, ...]:
    pl = state.players[state.current]
    out: list[Action] = []
    # An unseen card in hand may be any name of the pool (unseen.py): each may be played.
    names = sorted(set(pl.hand + pl.pool) - {UNSEEN}) if UNSEEN in pl.hand else sorted(set(pl.hand))
    if state.phase == "action":
        if state.actions >= 1:
            out.extend(PlayCard(c) for c in names if c in DATA.actions)
        # At a table a Treasure played or a buy ends the Action phase first
        # (rules.ENDS_ACTION_PHASE), unless the Buy phase would open with a decision.
        after = after_action_phase(state) if state.mode == "physical" else None
        if after is not None:
            out.extend(a for a in turn_actions(after) if isinstance(a, ENDS_ACTION_PHASE))
    elif state.phase == "buy":
        if state.window:
            treasures = sorted(c for c in pl.hand if c in DATA.treasures)
            out.extend(PlayTreasure(c) for c in names if c in DATA.treasures)
            if treasures:
                out.append(PlayTreasures(tuple(treasures)))
        if state.buys >= 1 and not pl.debt:
            cost = DATA.cost
            coins = state.coins
            affordable = [
                (pile, cards[0])
                for pile, cards in state.supply.items()
                if cards and cost[cards[0]][0] <= coins
            ]
            out.extend(BuyCard(pile) for pile, _ in affordable)
            # A pile may also be named by its top card (4.1): that is accepted, so it is listed.
            out.extend(BuyCard(top) for pile, top in affordable if top != pile)
            out.extend(BuyEvent(e) for e in state.events if DATA.events[e][0] <= coins)
    payable = min(state.coins, pl.debt)
    if payable and (state.phase == "buy" or state.variants.pay_debt_any_time):
        out.extend(PayDebt(n) for n in range(1, payable + 1))
    out.append(EndPhase())
    return tuple(out)


def legal_actions(state: State, seat: str | None) -> tuple[Action, ...]:
    if state.status == "over":
        return ()
    if state.prompts:
        party = _party(state, seat)
        if party is None:
            return ()
        d = next(d for d in state.prompts if d.p == party)
        return tuple(as_action(d, v) for v in answers(state, d))
    if state.status != "playing":
        return ()
    if seat is not None and seat != state.seats[state.current]:
        return ()
    return turn_actions(state)


def probe_actions(state: State) -> tuple[Action, ...]:
    names = (*ALL_NAMES, BOGUS)
    out: list[Action] = [EndPhase()]
    out.extend(PlayCard(c) for c in names)
    out.extend(PlayTreasure(c) for c in names)
    out.extend(BuyCard(c) for c in (*names, *DATA.pile_types))
    out.extend(BuyEvent(e) for e in (*DATA.events, BOGUS))
    out.extend((PayDebt(0), PayDebt(1), PayDebt(state.coins + 1)))
    if state.players:
        hand = state.players[state.current].hand
        treasures = tuple(sorted(c for c in hand if c in DATA.treasures))
        out.extend(
            (PlayTreasures(treasures), PlayTreasures((*treasures, "Gold")), PlayTreasures(("Estate",)))
        )
    for d in state.prompts:
        legal = [as_action(d, v) for v in answers(state, d)]
        out.extend(legal)
        if d.kind == "select":
            out.append(SelectCards("bogus", ()))
            pool = state.players[d.p].discard if d.zone == "discard" else state.players[d.p].hand
            most = tuple(sorted(d.cards or pool))
            out.append(SelectCards(d.verb, (*most, "Copper")))
            out.append(SelectCards(d.verb, (BOGUS,)))
        elif d.kind == "choose":
            out.append(Choose(BOGUS))
        elif d.kind == "pile":
            out.extend(SelectPile(c) for c in (*state.supply, BOGUS))
            out.append(SelectPile(None))
        elif d.kind == "react":
            out.extend((React("Moat"), React(None), React("Village")))
        elif d.kind == "observe":
            out.extend(ObserveCards((c,)) for c in names)
        elif d.kind in ("debt", "bid"):
            out.extend((PayDebt(d.lo - 1), PayDebt(d.hi + 1), Bid(d.lo - 1), Bid(41), Bid(None)))
        elif d.kind == "kingdom":
            out.append(ChooseKingdom(DATA.kingdom[:9]))
            out.append(ChooseKingdom((*DATA.kingdom[:9], BOGUS)))
        else:
            out.extend(ChooseFirstPlayer(s) for s in (*state.seats, "p9"))
    return tuple(out)


def _bounds(state: State, d: Decision) -> dict[str, Any]:
    out: dict[str, Any] = {"purpose": d.purpose}
    if d.source:
        out["source"] = d.source
    if d.kind == "select":
        out.update({"verb": d.verb, "min": d.lo, "max": d.hi})
        if d.types:
            out["types"] = list(d.types)
        if d.cards and d.purpose not in PRIVATE_CHOICES:  # the owner's legal actions name them
            out["cards"] = list(d.cards)
    elif d.kind == "pile":
        out["optional"] = d.lo == 0
        if d.cost is not None:
            out["max_cost"] = list(d.cost)
        if d.types:
            out["types"] = list(d.types)
    elif d.kind == "choose":
        out["options"] = list(d.options)
    elif d.kind in ("debt", "bid"):
        out.update({"min": d.lo, "max": d.hi})
    elif d.kind == "observe":
        # How many cards this step takes (a Clean-up draw of 5 takes 5, or what the deck's
        # unseen part still holds before a shuffle): naming more is refused.
        out.update({"player": state.seats[d.target], "min": d.lo, "max": d.hi, "verb": d.verb})
        out["unseen_allowed"] = d.purpose != "identify" and d.verb in UNSEEN_VERBS
        if d.zone:
            out["zone"] = d.zone
    elif d.kind == "kingdom":
        out["presets"] = {k: list(v) for k, v in offered_presets(state).items()}
    elif d.kind == "first_player":
        out["seats"] = list(state.seats)
    return out


PROMPT_TEXT = {
    "react": "You may reveal a Moat against {source}.",
    "cellar": "Discard any number of cards (Cellar); you draw as many.",
    "trash": "Trash up to 4 cards (Chapel).",
    "discard": "Discard down to 3 cards (Militia).",
    "gain": "Gain a card from the Supply ({source}).",
    "gain_hand": "Gain a Treasure into your hand (Mine).",
    "chancellor": "Put your deck into your discard pile? (Chancellor)",
    "library": "Keep the Action card you drew, or set it aside? (Library)",
    "spy": "Discard the revealed card, or keep it on the deck? (Spy)",
    "topdeck": "Put a Victory card from your hand onto your deck (Bureaucrat).",
    "haunted": "Put 2 cards from your hand onto your deck, the last named on top (Haunted Castle).",
    "mine": "Trash a Treasure from your hand (Mine).",
    "moneylender": "Trash a Copper for +$3? (Moneylender)",
    "remodel": "Trash a card from your hand (Remodel).",
    "thief_trash": "Choose the revealed Treasure to trash (Thief).",
    "thief_gain": "Gain any of the Treasures your Thief trashed.",
    "throne": "Choose a card to play twice ({source}).",
    "observe": "Enter the next {count} of {player}'s deck ({verb}{unseen}).",
    "identify": "Name the {count} of {player} the table sees ({verb}).",
    "advance": "You may trash an Action card to gain an Action card costing up to $6 (Advance).",
    "annex": "Choose up to 5 cards of your discard pile to keep there (Annex).",
    "ritual": "Trash a card from your hand: +1 VP per $1 it costs (Ritual).",
    "salt": "Choose a Supply pile with a Victory card on top to trash it (Salt the Earth).",
    "tax": "Choose a Supply pile to put 2 debt on (Tax).",
    "donate": "Trash any number of cards from your hand (Donate).",
    "kingdom": "Enter the 10 kingdom piles.",
    "first_player": "Enter who plays first.",
    "arena": "You may discard an Action card for 2 VP (Arena).",
    "mountain_pass": "Bid debt for +8 VP, or pass (Mountain Pass).",
    "aqueduct_or_shrine": "Put the last VP of the pile on Aqueduct or on Defiled Shrine.",
    "artisan_gain": "Gain a card costing up to $5 into your hand (Artisan).",
    "artisan": "Put a card from your hand onto your deck (Artisan).",
    "bandit": "Choose the revealed Treasure to trash (Bandit).",
    "harbinger": "You may put a card from your discard pile onto your deck (Harbinger).",
    "sentry_trash": "Trash any of the cards you look at (Sentry).",
    "sentry_discard": "Discard any of the rest (Sentry).",
    "sentry_topdeck": "Put the rest back onto your deck, the last named on top (Sentry).",
    "vassal": "Play the discarded Action card? (Vassal)",
    "poacher": "Discard a card per empty Supply pile (Poacher).",
}


def _count(d: Decision) -> str:
    if d.purpose == "identify":
        where = "hand" if d.zone == "hand" else "top card"
        return f"{d.hi} unseen card{'s' if d.hi != 1 else ''} in the {where}"
    return f"{d.hi} card{'s' if d.hi != 1 else ''}"


def pending(state: State) -> tuple[Prompt, ...]:
    if state.status == "over":
        return ()
    if state.prompts:
        out = []
        for d in state.prompts:
            player = state.seats[d.target] if d.target >= 0 else ""
            text = PROMPT_TEXT.get(d.purpose, d.purpose).format(
                source=d.source,
                player=player,
                count=_count(d),
                verb=d.verb,
                unseen="; ? for a card not seen" if d.verb in UNSEEN_VERBS else "",
            )
            seat = None if d.p == RECORDER else state.seats[d.p]
            out.append(Prompt(seat, d.purpose, text, (KIND_TAG[d.kind],), _bounds(state, d)))
        return tuple(out)
    if state.status != "playing":
        return ()
    seat = state.seats[state.current]
    if state.phase == "action":
        kinds: tuple[str, ...] = ("play_card", "end_phase")
        if state.variants.pay_debt_any_time:
            kinds = ("play_card", "pay_debt", "end_phase")
    else:
        kinds = ("play_treasure", "play_treasures", "buy_card", "end_phase")
        if state.events:
            kinds = (*kinds[:3], "buy_event", *kinds[3:])
        if state.players[state.current].debt:
            kinds = (*kinds[:-1], "pay_debt", "end_phase")
    text = f"Turn {state.turn}: {state.phase} phase."
    bounds = {
        "phase": state.phase,
        "actions": state.actions,
        "buys": state.buys,
        "coins": state.coins,
        "debt": state.players[state.current].debt,
    }
    return (Prompt(seat, "turn", text, kinds, bounds),)
