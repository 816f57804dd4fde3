"""Unseen cards of a physical Dominion game: the `?` placeholder of dominion.md 6.4.

The recorder enters `?` (JSON `null`) for a card it did not see: a card drawn or set aside
face down from a deck, a card discarded or put onto a deck unrevealed. The state keeps the
`?` where the card is and the player's `pool` the names the `?`s stand for. Every gain and
trash is public in this card pool (no gain comes from a hidden source), so the pool is always
exact: which cards a player has is known, only where some of them are is not, and the final
count scores the pool.

A `?` is resolved (bound to a name) when the card is named later: played, revealed, trashed,
set aside face up, or entered by the recorder when the rules need its name. Binding takes one
`?` of the zone and one copy of the name out of the pool; a name the pool does not hold cannot
be there, and the entry is refused with the rule.

Ruling (the one relaxation): when an unseen card leaves a part of a deck that also holds known
cards, which card left is unknown, so the known cards of that part become unseen too (their
names join the pool). Anything the table can have seen stays possible; an entry is refused only
when no assignment of the pool's names to the `?`s explains it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from msgspec.structs import replace

from domain.games.dominion.state import UNSEEN, Player

ZONES = ("hand", "deck", "unknown", "discard")


def count(cards: tuple[str, ...]) -> int:
    return cards.count(UNSEEN) if UNSEEN in cards else 0


def named(cards: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(c for c in cards if c != UNSEEN) if UNSEEN in cards else cards


def resolved(pl: Player, cards: tuple[str, ...]) -> tuple[str, ...]:
    """Every name the cards could be: the named ones, and the pool for any `?` among them."""
    return named(cards) + pl.pool if UNSEEN in cards else cards


def holds(zone: tuple[str, ...], cards: tuple[str, ...]) -> bool:
    """Does the zone hold a named copy of each card (as a multiset)?"""
    if len(cards) == 1:
        return cards[0] in zone
    rest = list(zone)
    for card in cards:
        if card not in rest:
            return False
        rest.remove(card)
    return True


def missing(zone: tuple[str, ...], cards: tuple[str, ...]) -> Counter[str]:
    """The names among `cards` (`?` left out) that the zone holds no named copy of."""
    return Counter(named(cards)) - Counter(named(zone))


def can_bind(pl: Player, zone: tuple[str, ...], cards: tuple[str, ...]) -> bool:
    """Can the zone give these cards: each name a named copy or a `?` the pool can name, each
    `?` a `?` of the zone?"""
    if UNSEEN not in cards and holds(zone, cards):
        return True
    need = missing(zone, cards)
    wanted = sum(need.values()) + count(cards)
    if wanted > count(zone):
        return False
    return not need - Counter(pl.pool)


def could_hold(pl: Player, zone: tuple[str, ...], test: Callable[[str], bool]) -> bool:
    """Might a card of the zone pass `test` (a named one, or a `?` the pool can name so)?"""
    if any(test(c) for c in named(zone)):
        return True
    return UNSEEN in zone and any(test(c) for c in pl.pool)


def at_most(pl: Player, zone: tuple[str, ...], test: Callable[[str], bool]) -> int:
    """How many cards of the zone may pass `test`: the named ones that do, and each `?` while
    the pool has such names."""
    sure = sum(1 for c in named(zone) if test(c))
    if UNSEEN not in zone:
        return sure
    return sure + min(count(zone), sum(1 for c in pl.pool if test(c)))


def _zone(pl: Player, zone: str) -> tuple[str, ...]:
    if zone.startswith("set:"):
        _, record, i = zone.split(":")
        return pl.lasting[int(record)].sets[int(i)]
    value: tuple[str, ...] = getattr(pl, zone)
    return value


def _set_zone(pl: Player, zone: str, cards: tuple[str, ...]) -> Player:
    if zone.startswith("set:"):
        _, record, i = zone.split(":")
        r = pl.lasting[int(record)]
        sets = (*r.sets[: int(i)], cards, *r.sets[int(i) + 1 :])
        lasting = (*pl.lasting[: int(record)], replace(r, sets=sets), *pl.lasting[int(record) + 1 :])
        return replace(pl, lasting=lasting)
    return replace(pl, **{zone: cards})


def bind(pl: Player, zone: str, names: tuple[str, ...]) -> Player:
    """Name `?`s of a zone (`hand`, `deck`, `unknown`, `discard` or an Archive set
    `set:<record>:<set>`): each name replaces one `?` and leaves the pool."""
    cards = list(_zone(pl, zone))
    pool = list(pl.pool)
    for name in names:
        cards[cards.index(UNSEEN)] = name
        pool.remove(name)
    out = tuple(sorted(cards)) if zone == "unknown" else tuple(cards)
    return _set_zone(replace(pl, pool=tuple(pool)), zone, out)


def forget(pl: Player, zone: str) -> Player:
    """The known cards of a zone become unseen: their names join the pool (the relaxation of
    the module docstring)."""
    cards = _zone(pl, zone)
    known = named(cards)
    if not known:
        return pl
    pool = tuple(sorted(pl.pool + known))
    return _set_zone(replace(pl, pool=pool), zone, (UNSEEN,) * len(cards))


def observe(pl: Player, cards: tuple[str, ...]) -> Player | None:
    """The next cards of the deck's unseen part entered by the table, in order, onto the known
    top segment; None when no assignment of the unseen cards explains them. A name comes from
    a named copy, else from a `?` the pool can name; a `?` from a `?`, after the known cards of
    the part became unseen (which one left is not known)."""
    for card in cards:
        unknown = pl.unknown
        if not unknown:
            return None
        if card == UNSEEN:
            if named(unknown):
                pl = forget(pl, "unknown")
            rest = list(pl.unknown)
            rest.remove(UNSEEN)
            pl = replace(pl, unknown=tuple(rest), deck=(*pl.deck, UNSEEN))
            continue
        if card in unknown:
            rest = list(unknown)
            rest.remove(card)
            pl = replace(pl, unknown=tuple(rest), deck=(*pl.deck, card))
            continue
        if UNSEEN not in unknown or card not in pl.pool:
            return None
        pl = bind(pl, "unknown", (card,))
        rest = list(pl.unknown)
        rest.remove(card)
        pl = replace(pl, unknown=tuple(rest), deck=(*pl.deck, card))
    return pl


def settle(pl: Player, zone: str, cards: tuple[str, ...]) -> tuple[str, ...]:
    """The names among `cards` that must first be bound to `?`s of the zone (in order)."""
    held = _zone(pl, zone)
    if UNSEEN not in held:  # nothing to bind (the entry was checked against the zone)
        return ()
    need = missing(held, cards)
    out: list[str] = []
    for card in named(cards):
        if need[card] > 0:
            need[card] -= 1
            out.append(card)
    return tuple(out)
