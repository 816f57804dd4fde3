"""`evolve` for `any`: applies one fact, never validates, never draws.

Taking a named card out of a hand takes a known card of that name when the hand holds one,
else one of the hand's unknown cards of the card's deck, which names it: the card leaves the
pile's known contents (state.py). `decide` accepted the card under the same rule.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.any.events import (
    CardDiscarded,
    CardPassed,
    CardRevealed,
    CardsDrawn,
    DeckShuffled,
    DiceRolled,
    Fact,
    GameEnded,
    Noted,
    RoundEnded,
    Scored,
    TurnEnded,
)
from domain.games.any.state import State


def _without(items: tuple[str, ...], card: str) -> tuple[str, ...]:
    at = items.index(card)
    return items[:at] + items[at + 1 :]


def canonical(cards: tuple[str, ...]) -> tuple[str, ...]:
    """Cards in the canonical order of their deck (definition.py): names sorted."""
    return tuple(sorted(cards))


def take_from_hand(state: State, seat: str, card: str, deck: str) -> State:
    """`state` with `card` out of `seat`'s hand (module docstring)."""
    hand = state.hands[seat]
    if card in hand.cards:
        hands = {**state.hands, seat: replace(hand, cards=_without(hand.cards, card))}
        return replace(state, hands=hands)
    unknown = {**hand.unknown, deck: hand.unknown.get(deck, 0) - 1}
    unknown = {d: n for d, n in unknown.items() if n > 0}
    pile = state.decks[deck]
    named = replace(pile, pile=_without(pile.pile, card), unknown_out=pile.unknown_out - 1)
    return replace(
        state, hands={**state.hands, seat: replace(hand, unknown=unknown)}, decks={**state.decks, deck: named}
    )


def _give(state: State, seat: str, cards: tuple[str, ...]) -> State:
    hand = state.hands[seat]
    return replace(state, hands={**state.hands, seat: replace(hand, cards=hand.cards + cards)})


def _drawn(state: State, fact: CardsDrawn) -> State:
    deck = state.decks[fact.deck]
    if fact.unknown:
        deck = replace(deck, unknown_out=deck.unknown_out + fact.count)
        hand = state.hands[fact.to]
        unknown = {**hand.unknown, fact.deck: hand.unknown.get(fact.deck, 0) + fact.count}
        hands = {**state.hands, fact.to: replace(hand, unknown=unknown)}
        return replace(state, decks={**state.decks, fact.deck: deck}, hands=hands)
    if state.mode == "digital":
        pile = deck.pile[fact.count :]
    else:
        pile = deck.pile
        for card in fact.cards:
            pile = _without(pile, card)
    state = replace(state, decks={**state.decks, fact.deck: replace(deck, pile=pile)})
    if fact.to == "table":
        return replace(state, table=state.table + fact.cards)
    return _give(state, fact.to, fact.cards)


def _shuffled(state: State, fact: DeckShuffled) -> State:
    deck = state.decks[fact.deck]
    pile = canonical(deck.pile + deck.discard) if fact.observed else fact.order
    return replace(state, decks={**state.decks, fact.deck: replace(deck, pile=pile, discard=())})


def _scored(state: State, fact: Scored) -> State:
    if fact.seat is None:
        return replace(state, table_tracks={**state.table_tracks, fact.track: fact.total})
    track = {**state.player_tracks[fact.track], fact.seat: fact.total}
    state = replace(state, player_tracks={**state.player_tracks, fact.track: track})
    spec = state.definition.track(fact.track)
    if spec is not None and spec.once:
        filled = (*state.filled.get(fact.track, ()), fact.seat)
        state = replace(state, filled={**state.filled, fact.track: filled})
    return state


def _apply(state: State, fact: Fact) -> State:
    if isinstance(fact, DiceRolled):
        counters = (
            state.counters
            if fact.stream is None
            else {**state.counters, fact.stream: state.counter(fact.stream) + 1}
        )
        return replace(state, last_roll=fact, counters=counters)
    if isinstance(fact, DeckShuffled):
        if fact.stream is not None:
            state = replace(state, counters={**state.counters, fact.stream: state.counter(fact.stream) + 1})
        return _shuffled(state, fact)
    if isinstance(fact, CardsDrawn):
        return _drawn(state, fact)
    if isinstance(fact, CardRevealed):
        state = take_from_hand(state, fact.seat, fact.card, fact.deck)
        return replace(state, table=(*state.table, fact.card))
    if isinstance(fact, CardDiscarded):
        if fact.source == "table":
            state = replace(state, table=_without(state.table, fact.card))
        else:
            state = take_from_hand(state, fact.source, fact.card, fact.deck)
        deck = state.decks[fact.deck]
        return replace(
            state, decks={**state.decks, fact.deck: replace(deck, discard=(*deck.discard, fact.card))}
        )
    if isinstance(fact, CardPassed):
        return _give(take_from_hand(state, fact.seat, fact.card, fact.deck), fact.to, (fact.card,))
    if isinstance(fact, Scored):
        return _scored(state, fact)
    if isinstance(fact, TurnEnded):
        return replace(state, turn=fact.turn)
    if isinstance(fact, RoundEnded):
        return replace(state, round=fact.round)
    if isinstance(fact, GameEnded):
        return replace(state, ended=fact)
    assert isinstance(fact, Noted)
    return state


def evolve(state: State, fact: Fact) -> State:
    return replace(_apply(state, fact), facts=state.facts + 1)
