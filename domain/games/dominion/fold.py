"""`evolve` of Dominion (1st-edition base game): applies one fact to the state (design.md 2).

Pure and total: it never validates and never draws. Zones are tuples of card names; a
multiset removal takes the first copy of each name (same-named cards are interchangeable,
dominion.md 0).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.games.dominion import events as ev
from domain.games.dominion.state import Player, Result, State, with_player


def take(zone: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    if len(cards) == 1:
        i = zone.index(cards[0])
        return zone[:i] + zone[i + 1 :]
    rest = list(zone)
    for card in cards:
        rest.remove(card)
    return tuple(rest)


def _remove(player: Player, zone: str, cards: tuple[str, ...]) -> Player:
    if zone == "deck":
        return replace(player, deck=player.deck[len(cards) :])
    if zone == "hand":
        return replace(player, hand=take(player.hand, cards))
    if zone == "play":
        return replace(player, play=take(player.play, cards))
    return replace(player, aside=take(player.aside, cards))


def _add(player: Player, zone: str, cards: tuple[str, ...]) -> Player:
    if zone == "deck":
        return replace(player, deck=tuple(reversed(cards)) + player.deck)
    if zone == "hand":
        return replace(player, hand=player.hand + cards)
    if zone == "discard":
        return replace(player, discard=player.discard + cards)
    if zone == "play":
        return replace(player, play=player.play + cards)
    return replace(player, aside=player.aside + cards)


def _update(state: State, seat: str, fn: Callable[[Player], Player], **fields: Any) -> State:
    p = state.seats.index(seat)
    return replace(state, players=with_player(state.players, p, fn(state.players[p])), **fields)


def _kingdom(state: State, f: ev.KingdomChosen) -> State:
    return replace(state, kingdom=f.piles, method=f.method)


def _supply(state: State, f: ev.SupplyBuilt) -> State:
    return replace(state, supply={name: (name,) * count for name, count in f.piles.items()})


def _first(state: State, f: ev.FirstPlayerChosen) -> State:
    p = state.seats.index(f.player)
    return replace(state, first=p, current=p)


def _dealt(state: State, f: ev.Dealt) -> State:
    return _update(state, f.player, lambda pl: replace(pl, discard=pl.discard + f.cards))


def _shuffled(state: State, f: ev.Shuffled) -> State:
    def apply(pl: Player) -> Player:
        if f.order is not None:
            n = pl.shuffles if f.n is None else f.n + 1
            return replace(pl, deck=pl.deck + f.order, discard=(), shuffles=n)
        return replace(pl, unknown=tuple(sorted(pl.unknown + pl.discard)), discard=())

    return _update(state, f.player, apply)


def _observed(state: State, f: ev.Observed) -> State:
    return _update(
        state, f.player, lambda pl: replace(pl, unknown=take(pl.unknown, f.cards), deck=pl.deck + f.cards)
    )


def _drew(state: State, f: ev.Drew) -> State:
    k = len(f.cards)
    return _update(state, f.player, lambda pl: replace(pl, deck=pl.deck[k:], hand=pl.hand + f.cards))


def _turn(state: State, f: ev.TurnStarted) -> State:
    p = state.seats.index(f.player)
    pl = state.players[p]
    players = with_player(state.players, p, replace(pl, turns=pl.turns + 1))
    return replace(
        state,
        players=players,
        status="playing",
        turn=f.turn,
        current=p,
        phase="action",
        actions=1,
        buys=1,
        coins=0,
        window=False,
        gained=(),
    )


def _phase(state: State, f: ev.PhaseChanged) -> State:
    return replace(state, phase=f.phase, window=f.phase == "buy")


def _played(state: State, f: ev.Played) -> State:
    actions = state.actions - 1 if f.action else state.actions
    if f.again:
        return replace(state, actions=actions)
    card = (f.card,)
    return _update(
        state,
        f.player,
        lambda pl: replace(pl, hand=take(pl.hand, card), play=pl.play + card),
        actions=actions,
    )


def _treasures(state: State, f: ev.TreasuresPlayed) -> State:
    return _update(
        state,
        f.player,
        lambda pl: replace(pl, hand=take(pl.hand, f.cards), play=pl.play + f.cards),
        coins=state.coins + f.coins,
    )


def _plus(state: State, f: ev.Plus) -> State:
    return replace(
        state, actions=state.actions + f.actions, buys=state.buys + f.buys, coins=state.coins + f.coins
    )


def _bought(state: State, f: ev.Bought) -> State:
    return _update(
        state,
        f.player,
        lambda pl: replace(pl, debt=pl.debt + f.debt) if f.debt else pl,
        buys=state.buys - 1,
        coins=state.coins - f.coins,
        window=False,
    )


def _gained(state: State, f: ev.Gained) -> State:
    card = (f.card,)
    if f.source == "trash":
        extra: dict[str, Any] = {"trash": take(state.trash, card)}
    else:
        supply = dict(state.supply)
        pile = f.pile or f.card
        supply[pile] = supply[pile][1:]
        extra = {"supply": supply}
    if state.status == "playing" and state.seats.index(f.player) == state.current:
        extra["gained"] = state.gained + card
    return _update(state, f.player, lambda pl: _add(pl, f.to, card), **extra)


def _trashed(state: State, f: ev.Trashed) -> State:
    return _update(state, f.player, lambda pl: _remove(pl, f.source, f.cards), trash=state.trash + f.cards)


def _discarded(state: State, f: ev.Discarded) -> State:
    return _update(state, f.player, lambda pl: _add(_remove(pl, f.source, f.cards), "discard", f.cards))


def _revealed(state: State, f: ev.Revealed) -> State:
    if f.source != "deck" or f.to == "deck":
        return state
    return _update(state, f.player, lambda pl: _add(_remove(pl, "deck", f.cards), f.to, f.cards))


def _moved(state: State, f: ev.Moved) -> State:
    return _update(state, f.player, lambda pl: _add(_remove(pl, f.source, f.cards), f.to, f.cards))


def _deck_discarded(state: State, f: ev.DeckDiscarded) -> State:
    return _update(
        state,
        f.player,
        lambda pl: replace(pl, discard=pl.discard + pl.deck + pl.unknown, deck=(), unknown=()),
    )


def _cleaned(state: State, f: ev.CleanedUp) -> State:
    return _update(
        state,
        f.player,
        lambda pl: replace(pl, discard=pl.discard + pl.play + pl.hand, play=(), hand=()),
        phase="cleanup",
        window=False,
    )


def _saved(state: State, f: ev.StackSaved) -> State:
    return replace(state, frames=f.frames, prompts=f.prompts)


def _ended(state: State, f: ev.GameEnded) -> State:
    seats = state.seats
    result = Result(
        scores=tuple(f.scores[s] for s in seats),
        card_vp=tuple(f.card_vp[s] for s in seats),
        tokens=tuple(f.tokens[s] for s in seats),
        turns=tuple(f.turns[s] for s in seats),
        ranks=tuple(f.ranks[s] for s in seats),
        winners=tuple(seats.index(w) for w in f.winners),
        reason=f.reason,
    )
    return replace(state, status="over", phase="over", result=result, frames=(), prompts=())


def _same(state: State, f: Any) -> State:
    return state


FOLDS: dict[type[Any], Callable[[State, Any], State]] = {
    ev.KingdomChosen: _kingdom,
    ev.SupplyBuilt: _supply,
    ev.FirstPlayerChosen: _first,
    ev.Dealt: _dealt,
    ev.Shuffled: _shuffled,
    ev.Observed: _observed,
    ev.Drew: _drew,
    ev.TurnStarted: _turn,
    ev.PhaseChanged: _phase,
    ev.Played: _played,
    ev.TreasuresPlayed: _treasures,
    ev.Plus: _plus,
    ev.Bought: _bought,
    ev.Gained: _gained,
    ev.Trashed: _trashed,
    ev.Discarded: _discarded,
    ev.Revealed: _revealed,
    ev.Moved: _moved,
    ev.DeckDiscarded: _deck_discarded,
    ev.Reacted: _same,
    ev.Chose: _same,
    ev.CleanedUp: _cleaned,
    ev.StackSaved: _saved,
    ev.GameEnded: _ended,
}


def evolve(state: State, fact: ev.Fact) -> State:
    return FOLDS[type(fact)](state, fact)
