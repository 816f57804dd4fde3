"""Views and redaction of Dominion (1st-edition base game and Empires): dominion.md 6.5.

Public: the Supply, the trash, Events and Landmarks with their tokens and the tokens on piles,
Obelisk's pile, who is enchanted, every hand's size, VP tokens, debt, the top card of each
discard pile, cards in play (an Overlord as what it became) and set aside, how many cards each
Archive set holds, the turn counters, open decisions. Archive's face-down cards and the cards a
Sentry looks at are the owner's alone. A seat also sees its own hand, its own deck and discard
sizes and what its discard pile holds, as a set of cards (its order may keep a deck's unseen
order: Chancellor, 6.5). Nobody but the omniscient viewer (recorder, audit) sees any deck order;
a physical game's known top cards are shown to the omniscient viewer only as well. `open_counts`
shows every deck and discard size to all. Once the game is over every view is the omniscient
one.

Redaction: draws and observations keep only their count for other seats, hidden discards (from
the hand, unless `all_discards_public` or the discard was public by rule) keep their count and
the resulting top card, Clean-up hides the discarded hand, and every shuffle loses its order.

Mutants judged equivalent (bench/mutation.py): `strict=False` (or no `strict`) in the zips of
the result's scores and ranks (a result holds one of each per seat), and the omniscient
shortcut at the head of `redact_action` (`and` for `or`, or the viewer kind misspelt: an
omniscient viewer sees every seat, so the checks below return the action unchanged anyway).
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.games.dominion import events as ev
from domain.games.dominion.actions import Action, ObserveCards, SelectCards, card_names
from domain.games.dominion.decisions import HIDDEN_SELECTIONS
from domain.games.dominion.state import RECORDER, SEATS, Decision, State
from domain.ruleset import Prompt, Viewer


def _player(state: State, p: int, viewer: Viewer, everything: bool) -> dict[str, Any]:
    pl = state.players[p]
    seat = state.seats[p]
    own = everything or viewer.sees_seat(seat)
    counts = own or state.variants.open_counts
    out: dict[str, Any] = {
        "hand_count": len(pl.hand),
        "discard_top": pl.discard[-1] if pl.discard else None,
        "in_play": list(pl.play),
        "set_aside": list(pl.aside + pl.camp),
        "vp_tokens": pl.vp,
        "debt": pl.debt,
        "turns": pl.turns,
        "durations": [
            {"card": r.card, "links": list(r.links), "turn": r.turn, "set_sizes": [len(s) for s in r.sets]}
            | ({"sets": [list(s) for s in r.sets]} if own and r.sets else {})
            for r in pl.lasting
        ],
    }
    if own:
        out["hand"] = sorted(pl.hand)
        if pl.pool:
            # `?` in a zone is a card the table did not see; these are the names they stand
            # for (6.4), in no place in particular.
            out["unseen"] = list(pl.pool)
        # The owner knows what the pile holds, not always in what order: a deck Chancellor
        # moved there keeps its unseen order (6.5), so only the omniscient view lists it.
        out["discard"] = list(pl.discard) if everything else sorted(pl.discard)
        if pl.looking:  # the cards a Sentry looks at (dominion-2e.md 2)
            out["looking"] = sorted(pl.looking)
    if counts:
        out["deck_count"] = len(pl.deck) + len(pl.unknown)
        out["discard_count"] = len(pl.discard)
    if everything:
        out["deck"] = list(pl.deck)
        out["deck_unknown"] = list(pl.unknown)
    return out


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    everything = viewer.kind == "omniscient" or state.status == "over"
    out: dict[str, Any] = {
        "status": state.status,
        "mode": state.mode,
        "kingdom": list(state.kingdom),
        "kingdom_method": state.method,
        "supply": {pile: len(cards) for pile, cards in state.supply.items()},
        "supply_top": {pile: cards[0] if cards else None for pile, cards in state.supply.items()},
        "trash": list(state.trash),
        "events": list(state.events),
        "landmarks": list(state.landmarks),
        "landmark_vp": dict(state.landmark_vp),
        "pile_vp": {k: v for k, v in state.pile_vp.items() if v},
        "pile_debt": {k: v for k, v in state.pile_debt.items() if v},
        "obelisk": state.obelisk,
        "enchanted": sorted({state.seats[t] for _, ts in state.enchantments for t in ts}),
        "first_player": state.seats[state.first] if state.status != "setup" else None,
        "turn": state.turn,
        "current": state.seats[state.current] if state.status == "playing" else None,
        "phase": state.phase,
        "actions": state.actions,
        "buys": state.buys,
        "coins": state.coins,
        "gained_this_turn": list(state.gained),
        "players": {state.seats[p]: _player(state, p, viewer, everything) for p in range(state.n)},
        "decisions": [
            {
                "seat": None if d.p == RECORDER else state.seats[d.p],
                **msgspec.to_builtins(_seen(d, state, viewer)),
            }
            for d in state.prompts
        ],
    }
    if state.result is not None:
        r = state.result
        out["result"] = {
            "reason": r.reason,
            "scores": dict(zip(state.seats, r.scores, strict=True)),
            "ranks": dict(zip(state.seats, r.ranks, strict=True)),
            "winners": [state.seats[p] for p in r.winners],
        }
    return out


# Decisions whose candidate cards are listed from a zone only their owner sees: Archive's
# face-down sets. (Other private decisions name no card: they filter the hand by type or name.)
# Sentry's choices list the cards its player looked at (dominion-2e.md 2).
PRIVATE_CHOICES = frozenset({"archive", "archive_take", "sentry_trash", "sentry_discard", "sentry_topdeck"})


def _seen(d: Decision, state: State, viewer: Viewer) -> Decision:
    if d.purpose not in PRIVATE_CHOICES or viewer.kind == "omniscient":
        return d
    if d.p >= 0 and viewer.sees_seat(state.seats[d.p]):
        return d
    return replace(d, cards=())


def redact(fact: ev.Fact, viewer: Viewer) -> ev.Fact:
    if viewer.kind == "omniscient":
        return fact
    if isinstance(fact, ev.StackSaved) and any(d.purpose in PRIVATE_CHOICES for d in fact.prompts):
        prompts = tuple(
            d
            if d.purpose not in PRIVATE_CHOICES or (d.p >= 0 and viewer.sees_seat(SEATS[d.p]))
            else replace(d, cards=())
            for d in fact.prompts
        )
        return replace(fact, prompts=prompts)
    if isinstance(fact, ev.Shuffled):
        return replace(fact, order=None) if fact.order is not None else fact
    if isinstance(fact, ev.Reshuffled):
        kept = fact.kept if viewer.sees_seat(fact.player) else ()
        return replace(fact, order=None, kept=kept)
    if isinstance(fact, ev.Drew | ev.Observed | ev.ArchiveFilled | ev.Topdecked | ev.Identified | ev.Looked):
        return fact if viewer.sees_seat(fact.player) else replace(fact, cards=())
    if isinstance(fact, ev.ArchiveTaken):
        return fact if viewer.sees_seat(fact.player) else replace(fact, card="")
    if isinstance(fact, ev.Discarded):
        hidden = not (fact.public or viewer.sees_seat(fact.player))
        return replace(fact, cards=()) if hidden else fact
    if isinstance(fact, ev.CleanedUp):
        return fact if fact.public or viewer.sees_seat(fact.player) else replace(fact, hand=())
    return fact


UNSEEN = "?"  # a card the viewer did not see, in an action's notation


def redact_action(action: Action, seat: str | None, state: State, viewer: Viewer) -> Action:
    """An answer names to another seat only the cards its facts show: a hidden discard shows
    how many and the new top card, Haunted Castle's and Annex's cards and Archive's take show
    nothing, and the recorder's entry of an unseen draw shows how many cards were seen."""
    if viewer.kind == "omniscient" or not state.prompts:
        return action
    if isinstance(action, ObserveCards):
        d = next((d for d in state.prompts if d.kind == "observe"), None)
        if d is None or viewer.sees_seat(state.seats[d.target]):
            return action
        return ObserveCards((UNSEEN,) * len(action.cards))
    if not isinstance(action, SelectCards) or seat is None or viewer.sees_seat(seat):
        return action
    p = state.index(seat) if seat in state.seats else None
    d = next((d for d in state.prompts if d.p == p and d.kind == "select"), None)
    hidden = HIDDEN_SELECTIONS.get(d.purpose) if d is not None else None
    cards = card_names(action.cards)
    if hidden is None or not cards or (hidden == "top" and state.variants.all_discards_public):
        return action
    shown = (UNSEEN,) * (len(cards) - 1) + (cards[-1],) if hidden == "top" else (UNSEEN,) * len(cards)
    return replace(action, cards=shown)


OBSERVE_TEXT = "Enter the next card(s) of {player}'s deck."
IDENTIFY_TEXT = "Name the unseen cards of {player} the table now sees."


def redact_prompt(prompt: Prompt, state: State, viewer: Viewer) -> Prompt:
    """Prompts name no hidden card (their candidates are public, or omitted as in the state's
    view); how many cards a step takes from a deck tells how many it still hides, which is
    the recorder's to know."""
    if viewer.kind == "omniscient" or prompt.kind not in ("observe", "identify"):
        return prompt
    bounds = {k: v for k, v in prompt.bounds.items() if k not in ("max", "min")}
    text = OBSERVE_TEXT if prompt.kind == "observe" else IDENTIFY_TEXT
    return replace(prompt, bounds=bounds, text=text.format(player=bounds.get("player", "")))
