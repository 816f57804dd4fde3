"""`evolve` of Dominion (1st-edition base game and Empires): applies one fact to the state
(design.md 2).

Pure and total: it never validates and never draws. Zones are tuples of card names; a
multiset removal takes the first copy of each name (same-named cards are interchangeable,
dominion.md 0), from a discard pile the newest copy. A card leaving play leaves as its
printed self (an Overlord acting as a Village goes to the discard pile as an Overlord).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.games.dominion import events as ev
from domain.games.dominion import unseen
from domain.games.dominion.data import DATA
from domain.games.dominion.state import AS, UNSEEN, Lasting, Player, Result, State, physical, with_player


def take(zone: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    if len(cards) == 1:
        i = zone.index(cards[0])
        return zone[:i] + zone[i + 1 :]
    rest = list(zone)
    for card in cards:
        rest.remove(card)
    return tuple(rest)


def _printed(cards: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(physical(c) for c in cards) if AS in "".join(cards) else cards


def _remove(player: Player, zone: str, cards: tuple[str, ...]) -> Player:
    if zone == "deck":
        return replace(player, deck=player.deck[len(cards) :])
    if zone == "hand":
        return replace(player, hand=take(player.hand, cards))
    if zone == "play":
        return replace(player, play=take(player.play, cards))
    if zone == "discard":
        rest = tuple(reversed(take(tuple(reversed(player.discard)), cards)))
        return replace(player, discard=rest)
    if zone == "encampment":
        return replace(player, camp=take(player.camp, cards))
    if zone == "looking":
        return replace(player, looking=take(player.looking, cards))
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
    if zone == "encampment":
        return replace(player, camp=player.camp + cards)
    if zone == "looking":
        return replace(player, looking=player.looking + cards)
    return replace(player, aside=player.aside + cards)


def _update(state: State, seat: str, fn: Callable[[Player], Player], **fields: Any) -> State:
    """The state with one player changed by `fn`. The folds of a plain turn (draws, Treasures,
    buys, gains, Clean-up, shuffles) run for nearly every fact of a game: they replace their
    player directly instead."""
    p = state.seats.index(seat)
    return replace(state, players=with_player(state.players, p, fn(state.players[p])), **fields)


def _kingdom(state: State, f: ev.KingdomChosen) -> State:
    return replace(state, kingdom=f.piles, method=f.method, events=f.events, landmarks=f.landmarks)


def _supply(state: State, f: ev.SupplyBuilt) -> State:
    supply = {name: f.cards.get(name) or (name,) * count for name, count in f.piles.items()}
    return replace(state, supply=supply)


def _landscapes(state: State, f: ev.LandscapesSetUp) -> State:
    return replace(
        state, landmark_vp=f.landmark_vp, pile_vp=f.pile_vp, pile_debt=f.pile_debt, obelisk=f.obelisk
    )


def _first(state: State, f: ev.FirstPlayerChosen) -> State:
    p = state.seats.index(f.player)
    return replace(state, first=p, current=p)


def _dealt(state: State, f: ev.Dealt) -> State:
    return _update(state, f.player, lambda pl: replace(pl, discard=pl.discard + f.cards))


def _shuffled(state: State, f: ev.Shuffled) -> State:
    p = state.seats.index(f.player)
    pl = state.players[p]
    if f.order is not None:
        n = pl.shuffles if f.n is None else f.n + 1
        pl = replace(pl, deck=pl.deck + f.order, discard=(), shuffles=n)
    else:
        unknown = tuple(sorted(pl.unknown + pl.discard))
        pl = replace(pl, unknown=unknown, discard=(), unannounced=pl.unannounced + 1)
    return replace(state, players=with_player(state.players, p, pl))


def _announced(state: State, f: ev.ShuffleAnnounced) -> State:
    return _update(state, f.player, lambda pl: replace(pl, unannounced=pl.unannounced - 1))


def _observed(state: State, f: ev.Observed) -> State:
    def apply(pl: Player) -> Player:
        if UNSEEN in f.cards or pl.pool:
            return unseen.observe(pl, f.cards) or pl
        return replace(pl, unknown=take(pl.unknown, f.cards), deck=pl.deck + f.cards)

    return _update(state, f.player, apply)


def _identified(state: State, f: ev.Identified) -> State:
    return _update(state, f.player, lambda pl: unseen.bind(pl, f.zone, f.cards))


def _drew(state: State, f: ev.Drew) -> State:
    p = state.seats.index(f.player)
    pl = state.players[p]
    pl = replace(pl, deck=pl.deck[len(f.cards) :], hand=pl.hand + f.cards)
    return replace(state, players=with_player(state.players, p, pl))


def _turn(state: State, f: ev.TurnStarted) -> State:
    p = state.seats.index(f.player)
    pl = state.players[p]
    # A shuffle is announced before its player's next turn begins, or not at all.
    players = with_player(state.players, p, replace(pl, turns=pl.turns + 1, unannounced=0))
    return started(state, players, p, f.turn)


def started(state: State, players: tuple[Player, ...], p: int, turn: int) -> State:
    """The state as player p's turn `turn` begins, `players` already counting it (`_turn`)."""
    enchantments = state.enchantments
    if enchantments:  # they last until the start of their source's next turn (3.2 step 4)
        enchantments = tuple(e for e in enchantments if e[0] != p)
    return replace(
        state,
        players=players,
        status="playing",
        turn=turn,
        current=p,
        phase="action",
        actions=1,
        buys=1,
        coins=0,
        window=False,
        gained=(),
        bought=False,
        fortune=False,
        charms=0,
        first_action=False,
        buy_phases=0,
        enchantments=enchantments,
        merchants=0,
    )


def _phase(state: State, f: ev.PhaseChanged) -> State:
    if f.phase != "buy":
        return replace(state, phase=f.phase, window=False)
    locked = state.bought and state.variants.treasures_locked_for_whole_turn
    return replace(state, phase=f.phase, window=not locked, buy_phases=state.buy_phases + 1)


def _played(state: State, f: ev.Played) -> State:
    actions = state.actions - 1 if f.action else state.actions
    first = state.first_action or (f.card in DATA.actions and state.seats.index(f.player) == state.current)
    if f.again:
        return replace(state, actions=actions, first_action=first)
    card = (f.card,)
    if f.source != "hand":  # Vassal plays the card it discarded, from the discard pile
        return _update(
            state,
            f.player,
            lambda pl: replace(_remove(pl, f.source, card), play=pl.play + card),
            actions=actions,
            first_action=first,
        )
    return _update(
        state,
        f.player,
        lambda pl: replace(pl, hand=take(pl.hand, card), play=pl.play + card),
        actions=actions,
        first_action=first,
    )


def _treasures(state: State, f: ev.TreasuresPlayed) -> State:
    p = state.seats.index(f.player)
    pl = state.players[p]
    pl = replace(pl, hand=take(pl.hand, f.cards), play=pl.play + f.cards)
    return replace(state, players=with_player(state.players, p, pl), coins=state.coins + f.coins)


def _plus(state: State, f: ev.Plus) -> State:
    return replace(
        state,
        actions=state.actions + f.actions,
        buys=state.buys + f.buys,
        coins=state.coins + f.coins,
        charms=state.charms + f.charms,
        fortune=state.fortune or f.doubled,
        merchants=state.merchants + f.merchants,
    )


def _bought(state: State, f: ev.Bought) -> State:
    players = state.players
    if f.debt:
        p = state.seats.index(f.player)
        players = with_player(players, p, replace(players[p], debt=players[p].debt + f.debt))
    return replace(
        state, players=players, buys=state.buys - 1, coins=state.coins - f.coins, window=False, bought=True
    )


def _event_bought(state: State, f: ev.EventBought) -> State:
    donate = 1 if f.event == "Donate" else 0
    return _update(
        state,
        f.player,
        lambda pl: replace(pl, debt=pl.debt + f.debt, donates=pl.donates + donate),
        buys=state.buys - 1,
        coins=state.coins - f.coins,
        window=False,
        bought=True,
    )


def _debt_paid(state: State, f: ev.DebtPaid) -> State:
    window = state.window and state.variants.pay_debt_keeps_treasure_window
    return _update(
        state,
        f.player,
        lambda pl: replace(pl, debt=pl.debt - f.amount),
        coins=state.coins - f.amount,
        window=window,
    )


def _tokens(state: State, f: ev.Tokens) -> State:
    extra: dict[str, Any] = {}
    if f.pile is not None:
        if f.pile_vp:
            extra["pile_vp"] = {**state.pile_vp, f.pile: state.pile_vp.get(f.pile, 0) + f.pile_vp}
        if f.pile_debt:
            extra["pile_debt"] = {**state.pile_debt, f.pile: state.pile_debt.get(f.pile, 0) + f.pile_debt}
    if f.landmark is not None and f.landmark_vp:
        lm = state.landmark_vp
        extra["landmark_vp"] = {**lm, f.landmark: lm.get(f.landmark, 0) + f.landmark_vp}
    if f.player is None:
        return replace(state, **extra)
    return _update(state, f.player, lambda pl: replace(pl, vp=pl.vp + f.vp, debt=pl.debt + f.debt), **extra)


def _returned(state: State, f: ev.Returned) -> State:
    supply = dict(state.supply)
    supply[f.pile] = (physical(f.card),) + supply[f.pile]
    return _update(state, f.player, lambda pl: _remove(pl, "encampment", (f.card,)), supply=supply)


def _became(state: State, f: ev.Became) -> State:
    def apply(pl: Player) -> Player:
        i = len(pl.play) - 1 - pl.play[::-1].index(f.card)
        return replace(pl, play=(*pl.play[:i], f"{f.card}{AS}{f.acting}", *pl.play[i + 1 :]))

    return _update(state, f.player, apply)


def _enchanted(state: State, f: ev.Enchanted) -> State:
    entry = (state.seats.index(f.player), tuple(state.seats.index(t) for t in f.targets))
    return replace(state, enchantments=(*state.enchantments, entry))


def _set_record(pl: Player, i: int, record: Lasting) -> Player:
    return replace(pl, lasting=(*pl.lasting[:i], record, *pl.lasting[i + 1 :]))


def _duration(state: State, f: ev.DurationStarted) -> State:
    record = Lasting(f.card, state.turn, f.links)
    return _update(state, f.player, lambda pl: replace(pl, lasting=(*pl.lasting, record)))


def _archive_filled(state: State, f: ev.ArchiveFilled) -> State:
    def apply(pl: Player) -> Player:
        i = pl.newest("Archive")
        record = pl.lasting[i]
        pl = _set_record(pl, i, replace(record, sets=(*record.sets, f.cards)))
        return replace(pl, deck=pl.deck[len(f.cards) :])

    return _update(state, f.player, apply)


def _archive_taken(state: State, f: ev.ArchiveTaken) -> State:
    def apply(pl: Player) -> Player:
        record = pl.lasting[f.record]
        sets = list(record.sets)
        sets[f.set] = take(sets[f.set], (f.card,))
        pl = _set_record(pl, f.record, replace(record, sets=tuple(sets)))
        return replace(pl, hand=(*pl.hand, f.card))

    return _update(state, f.player, apply)


def _charged(state: State, f: ev.EnchantressCharged) -> State:
    def apply(pl: Player) -> Player:
        i = pl.newest("Enchantress")
        return _set_record(pl, i, replace(pl.lasting[i], draws=pl.lasting[i].draws + 2))

    return _update(state, f.player, apply)


def _durations_ended(state: State, f: ev.DurationsEnded) -> State:
    return _update(
        state,
        f.player,
        lambda pl: replace(pl, lasting=tuple(r for i, r in enumerate(pl.lasting) if i not in f.records)),
    )


def _mountain_pass(state: State, f: ev.MountainPassQueued) -> State:
    if f.player is None:
        return replace(state, mountain_pass=-1)
    return replace(state, mountain_pass=state.seats.index(f.player), province_gained=True)


def _gained(state: State, f: ev.Gained) -> State:
    card = (f.card,)
    p = state.seats.index(f.player)
    players = state.players
    pl = _add(players[p], f.to, card)
    gained = state.gained + card if state.status == "playing" and p == state.current else state.gained
    if f.source == "trash":
        return replace(
            state, players=with_player(players, p, pl), trash=take(state.trash, card), gained=gained
        )
    supply = dict(state.supply)
    pile = f.pile or f.card
    supply[pile] = supply[pile][1:]
    return replace(state, players=with_player(players, p, pl), supply=supply, gained=gained)


def _trashed(state: State, f: ev.Trashed) -> State:
    trash = state.trash + _printed(f.cards)
    if f.source == "supply":
        supply = dict(state.supply)
        pile = f.pile or f.cards[0]
        supply[pile] = supply[pile][len(f.cards) :]
        return replace(state, supply=supply, trash=trash)
    return _update(state, f.player, lambda pl: _remove(pl, f.source, f.cards), trash=trash)


def _discarded(state: State, f: ev.Discarded) -> State:
    return _update(state, f.player, lambda pl: _add(_remove(pl, f.source, f.cards), "discard", f.cards))


def _revealed(state: State, f: ev.Revealed) -> State:
    if f.source != "deck" or f.to == "deck":
        return state
    return _update(state, f.player, lambda pl: _add(_remove(pl, "deck", f.cards), f.to, f.cards))


def _moved(state: State, f: ev.Moved) -> State:
    # A card leaving play (or Encampment's camp) for another zone leaves as its printed self.
    leaving = f.source in ("play", "encampment") and f.to not in ("play", "encampment")
    to = _printed(f.cards) if leaving else f.cards
    return _update(state, f.player, lambda pl: _add(_remove(pl, f.source, f.cards), f.to, to))


def _deck_discarded(state: State, f: ev.DeckDiscarded) -> State:
    return _update(
        state,
        f.player,
        lambda pl: replace(pl, discard=pl.discard + pl.deck + pl.unknown, deck=(), unknown=()),
    )


def _cleaned(state: State, f: ev.CleanedUp) -> State:
    """`play` lists the cards leaving play; the rest stay (Durations and what played them)."""
    p = state.seats.index(f.player)
    pl = state.players[p]
    stay = take(pl.play, f.play) if len(f.play) != len(pl.play) else ()
    pl = replace(pl, discard=pl.discard + _printed(f.play) + pl.hand, play=stay, hand=())
    return replace(state, players=with_player(state.players, p, pl), phase="cleanup", window=False)


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


def _donated(state: State, f: ev.Donated) -> State:
    return _update(
        state,
        f.player,
        lambda pl: replace(
            pl,
            hand=pl.hand + pl.deck + pl.unknown + pl.discard,
            deck=(),
            unknown=(),
            discard=(),
            donates=pl.donates - 1,
        ),
    )


def _reshuffled(state: State, f: ev.Reshuffled) -> State:
    """The kept cards of an Annex stay in the discard pile in their order; everything else
    named by `source` joins the deck, which is shuffled."""

    def apply(pl: Player) -> Player:
        hand, discard = pl.hand, pl.discard
        if f.source == "hand":
            moved, hand = pl.hand, ()
        else:
            keep = list(f.kept)
            stay: list[str] = []
            go: list[str] = []
            for card in pl.discard:
                if card in keep:
                    keep.remove(card)
                    stay.append(card)
                else:
                    go.append(card)
            moved, discard = tuple(go), tuple(stay)
        if f.order is not None:
            n = pl.shuffles if f.n is None else f.n + 1
            return replace(pl, hand=hand, discard=discard, deck=f.order, unknown=(), shuffles=n)
        cards = tuple(sorted(pl.deck + pl.unknown + moved))
        return replace(pl, hand=hand, discard=discard, deck=(), unknown=cards, unannounced=pl.unannounced + 1)

    return _update(state, f.player, apply)


def _same(state: State, f: Any) -> State:
    return state


FOLDS: dict[type[Any], Callable[[State, Any], State]] = {
    ev.KingdomChosen: _kingdom,
    ev.SupplyBuilt: _supply,
    ev.FirstPlayerChosen: _first,
    ev.Dealt: _dealt,
    ev.Shuffled: _shuffled,
    ev.Observed: _observed,
    ev.Identified: _identified,
    ev.ShuffleAnnounced: _announced,
    ev.AutoResolved: _same,
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
    ev.LandscapesSetUp: _landscapes,
    ev.Tokens: _tokens,
    ev.DebtPaid: _debt_paid,
    ev.EventBought: _event_bought,
    ev.Returned: _returned,
    ev.Became: _became,
    ev.Enchanted: _enchanted,
    ev.DurationStarted: _duration,
    ev.ArchiveFilled: _archive_filled,
    ev.ArchiveTaken: _archive_taken,
    ev.EnchantressCharged: _charged,
    ev.DurationsEnded: _durations_ended,
    ev.MountainPassQueued: _mountain_pass,
    ev.Bid: _same,
    ev.Donated: _donated,
    ev.Reshuffled: _reshuffled,
}


def _topdecked(state: State, f: ev.Topdecked) -> State:
    return _update(state, f.player, lambda pl: _add(_remove(pl, f.source, f.cards), "deck", f.cards))


def _looked(state: State, f: ev.Looked) -> State:
    k = len(f.cards)
    return _update(state, f.player, lambda pl: replace(pl, deck=pl.deck[k:], looking=pl.looking + f.cards))


FOLDS[ev.Topdecked] = _topdecked
FOLDS[ev.Looked] = _looked


def evolve(state: State, fact: ev.Fact) -> State:
    return FOLDS[type(fact)](state, fact)
