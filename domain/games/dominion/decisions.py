"""Open decisions of Dominion (1st-edition base game): their candidates, the check of an
answer, the list of every legal answer and the forced answer (dominion.md 4.3, 4.4, 4.9).

One source for `decide`, `legal_actions` and auto-resolution, so they cannot disagree.
Counts are clipped to what the zone holds ("as many as possible", 4.9): a decision asking for
more cards than there are takes them all. Answers that differ only in which copy of a
same-named card is picked are the same answer (4.3 rule 3), so selections are multisets,
listed in sorted order.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations, product
from typing import Any

from domain.games.dominion import unseen as _unseen
from domain.games.dominion.data import DATA
from domain.games.dominion.state import RECORDER, UNSEEN, Decision, State
from domain.ruleset import Rejection

SPEC = "dominion"
MANY = object()  # more than one legal answer: ask
NONE = object()  # no legal answer: the instruction does nothing


def reject(code: str, message: str, section: str) -> Rejection:
    return Rejection(code, message, f"{SPEC} {section}")


# Selections whose cards stay out of other players' sight (6.5): discards from the hand keep
# their last card, which is the discard pile's new top card; the others hide every card. Only
# these may name a card the recorder did not see (`?`).
HIDDEN_SELECTIONS = {
    "cellar": "top",
    "discard": "top",
    "haunted": "all",
    "annex": "all",
    "archive": "all",
    "archive_take": "all",
}


def candidates(state: State, d: Decision) -> tuple[str, ...]:
    """The cards an answer picks from; an unseen card (`?`) is one of them when the pool can
    name it so that it fits."""
    if d.cards or d.purpose == "thief_gain":
        return d.cards
    pl = state.players[d.p]
    zone = pl.discard if d.zone == "discard" else pl.hand
    if not d.types and not d.names:
        return zone
    wild = UNSEEN in zone and any(fits(d, c) for c in pl.pool)
    return tuple(c for c in zone if (wild if c == UNSEEN else fits(d, c)))


def fits(d: Decision, card: str) -> bool:
    """Does `card` meet the decision's type and name filters?"""
    if d.types and not any(DATA.has_type(card, t) for t in d.types):
        return False
    return not d.names or card in d.names


# Selections whose cards must have pairwise different names (Temple, 5.3).
DISTINCT_NAMES = frozenset({"temple"})


def distinct(d: Decision) -> bool:
    return d.purpose in DISTINCT_NAMES


def bounds(state: State, d: Decision) -> tuple[int, int, tuple[str, ...]]:
    cands = candidates(state, d)
    n = len(set(cands)) if distinct(d) else len(cands)
    return min(d.lo, n), min(d.hi, n), cands


def pile_ok(state: State, d: Decision, pile: str) -> bool:
    """Does the pile's top card meet the decision's filters (costs compare as in 0)?"""
    cards = state.supply.get(pile)
    if not cards:
        return d.empty_ok and pile in state.supply
    top = cards[0]
    if d.types and not any(DATA.has_type(top, t) for t in d.types):
        return False
    if d.not_types and any(DATA.has_type(top, t) for t in d.not_types):
        return False
    if top in d.exclude:
        return False
    if d.cost is not None:
        c, debt = DATA.cost[top]
        if d.exact:
            return (c, debt) == d.cost
        if c > d.cost[0] or debt > d.cost[1]:
            return False
    return True


def eligible_piles(state: State, d: Decision) -> tuple[str, ...]:
    return tuple(p for p in state.supply if pile_ok(state, d, p))


LISTED = 4096  # beyond this many answers a selection lists representatives only


def _multisets(cands: tuple[str, ...], lo: int, hi: int, once: bool = False) -> list[tuple[str, ...]]:
    counts = sorted((name, 1 if once else k) for name, k in Counter(cands).items())
    total = 1
    for _, k in counts:
        total *= k + 1
    if total > LISTED:
        return _representatives(counts, lo, hi)
    out: list[tuple[str, ...]] = []
    for pick in product(*(range(k + 1) for _, k in counts)):
        size = sum(pick)
        if lo <= size <= hi:
            out.append(tuple(name for (name, _), k in zip(counts, pick, strict=True) for _ in range(k)))
    return out


def _representatives(counts: list[tuple[str, int]], lo: int, hi: int) -> list[tuple[str, ...]]:
    """A selection from a zone too large to list every answer (Donate trashing from a whole
    deck): no card, one of each name, every copy of one name, one of every name, everything,
    and the first cards in name order up to each size the bounds allow. Any other answer in
    the bounds is still accepted; only the listing is cut short."""
    everything = tuple(name for name, k in counts for _ in range(k))
    picks: set[tuple[str, ...]] = {(), everything, tuple(name for name, _ in counts)}
    for name, k in counts:
        picks.add((name,))
        picks.add((name,) * k)
    for size in (lo, hi):
        picks.add(everything[:size])
    return sorted(p for p in picks if lo <= len(p) <= hi)


def answers(state: State, d: Decision) -> list[Any]:
    """Every legal answer value of `d` (the payload its action carries)."""
    if d.kind == "select":
        lo, hi, cands = bounds(state, d)
        if UNSEEN not in cands:
            picks = _multisets(cands, lo, hi, distinct(d))
            if d.purpose in ORDERED:
                return sorted({order for pick in picks for order in permutations(pick)})
            return picks
        # Unseen cards: any name of the pool that fits, as often as there are `?`s; `?`
        # itself where the selection stays hidden. Only what `check` accepts is listed.
        k = _unseen.count(cands)
        pool = Counter(c for c in state.players[d.p].pool if fits(d, c))
        names = [*_unseen.named(cands), *(c for c, n in pool.items() for _ in range(min(n, k)))]
        if d.purpose in HIDDEN_SELECTIONS:
            names.extend([UNSEEN] * k)
        picks = _multisets(tuple(names), lo, hi, distinct(d))
        if d.purpose in ORDERED:
            picks = sorted({order for pick in picks for order in permutations(pick)})
        return [v for v in picks if check(state, d, v, d.verb) is None]
    if d.kind == "choose":
        return list(d.options)
    if d.kind == "pile":
        piles: list[Any] = list(eligible_piles(state, d))
        if d.lo == 0 or not piles:
            piles.append(None)
        return piles
    if d.kind == "react":
        return (["Moat"] if _may_hold(state, d.p, "Moat") else []) + [None]
    if d.kind in ("debt", "bid"):
        amounts: list[Any] = list(range(d.lo, d.hi + 1))
        return [*amounts, None] if d.kind == "bid" else amounts
    if d.kind == "observe":
        if d.purpose == "identify":
            pool = Counter(state.players[d.target].pool)
            return _multisets(tuple(c for c, n in pool.items() for _ in range(min(n, d.hi))), d.hi, d.hi)
        return [(name,) for name in sorted(_observable(state, d))]
    if d.kind == "kingdom":
        kingdoms = [
            (tuple(sorted(piles)), DATA.preset_landscapes.get(name, ()), None)
            for name, piles in offered_presets(state).items()
            if "Obelisk" not in DATA.preset_landscapes.get(name, ())
        ]
        # Should a game's sets and edition recommend no kingdom, it still has one to show: the
        # first ten piles of its random pool. The table names its own.
        pool_piles = DATA.randomizers(state.variants.expansions, state.variants.base_edition)
        return kingdoms or [(pool_piles[:10], (), None)]
    if d.kind == "first_player":
        return list(state.seats)
    return []


def _may_hold(state: State, p: int, card: str) -> bool:
    pl = state.players[p]
    return card in pl.hand or (UNSEEN in pl.hand and card in pl.pool)


def _observable(state: State, d: Decision) -> set[str]:
    """The names the recorder may enter: those the deck's unseen part may give, or for an
    identification, those the pool holds."""
    pl = state.players[d.target]
    if d.purpose == "identify":
        return set(pl.pool)
    names = set(_unseen.named(pl.unknown))
    return names | set(pl.pool) if UNSEEN in pl.unknown else names


def forced(state: State, d: Decision) -> Any:
    """The single legal answer, NONE when there is none, MANY when the player must choose."""
    if d.kind == "select":
        lo, hi, cands = bounds(state, d)
        if not cands and d.lo > 0:
            return NONE
        if hi == 0:
            return ()
        if UNSEEN in cands:
            # Which unseen cards they are is the table's to say, unless the whole zone goes
            # and stays unseen.
            if lo == hi == len(cands) and d.purpose in HIDDEN_SELECTIONS:
                return tuple(sorted(cands))
            return MANY
        if d.purpose in ORDERED and hi > 1 and len(set(cands)) > 1:
            return MANY
        if distinct(d):
            names = tuple(sorted(set(cands)))
            return names if lo == hi == len(names) else MANY
        if lo == hi and (hi == len(cands) or len(set(cands)) == 1):
            return tuple(sorted(cands))[:hi] if hi == len(cands) else (cands[0],) * hi
        return MANY
    if d.kind == "choose":
        return d.options[0] if len(d.options) == 1 else MANY
    if d.kind == "pile":
        piles = eligible_piles(state, d)
        if not piles:
            return NONE
        if len(piles) == 1 and d.lo > 0:
            return piles[0]
        return MANY
    if d.kind == "react":
        return MANY if _may_hold(state, d.p, "Moat") else None
    if d.kind == "debt":
        return d.lo if d.lo == d.hi else MANY
    if d.kind == "bid":
        return None if d.lo > d.hi else MANY
    if d.kind == "observe":
        seen = _observable(state, d)
        return (seen.pop(),) * d.hi if len(seen) == 1 else MANY
    return MANY


# Selections among cards everyone has seen revealed (Thief, Bandit): their candidates are public.
AMONG_REVEALED = frozenset({"thief_trash", "thief_gain", "bandit"})
# Selections whose order is part of the answer (Sentry's cards back onto the deck, the last
# named on top): every order is a legal answer, and the choice is forced only when the cards
# could all have one name.
ORDERED = frozenset({"sentry_topdeck"})


def private(d: Decision) -> bool:
    """Is `d` answered from cards only its player sees where they are (the hand, the own
    discard pile, Archive's face-down sets)? Whether such a decision is asked must not depend on
    which of those cards the player holds (4.3 rule 4): see `forced_for_others`."""
    if d.p == RECORDER:
        return False
    return d.kind == "react" or (d.kind == "select" and d.purpose not in AMONG_REVEALED)


def unseen(state: State, p: int) -> tuple[str, ...]:
    """Every card of p whose place other players do not know: the hand, the deck, the discard
    pile and Archive's face-down sets. Which cards these are is public (every gain and trash is);
    which of them is where is not."""
    pl = state.players[p]
    kept = tuple(c for record in pl.lasting for s in record.sets for c in s)
    return _unseen.resolved(pl, pl.hand + pl.deck + pl.unknown + pl.discard + kept + pl.looking)


FORCED = object()  # every hand the other players cannot rule out leaves one answer


def forced_for_others(state: State, d: Decision) -> Any:
    """Whether a private decision is forced as the other players can work it out. They know
    which cards the player might hold there (`unseen`) and how many the zone holds (the hand's
    size, an Archive set's size, whether the discard pile is empty), not which.

    FORCED: every zone they cannot rule out leaves exactly one answer (take the whole set of 1,
    reveal nothing when no copy exists anywhere): the engine gives the real answer at once, and
    its facts show what they show. NONE: no zone leaves any answer: the instruction does
    nothing. MANY: the decision is asked, even where the real zone leaves one answer, so that
    whether a prompt opens tells nobody what the player holds (4.3 rule 4)."""
    pl = state.players[d.p]
    possible = unseen(state, d.p)
    if d.kind == "react":
        return MANY if pl.hand and "Moat" in possible else FORCED
    matching = tuple(c for c in possible if fits(d, c))
    others = len(possible) - len(matching)
    if d.cards:
        size: int | None = len(d.cards)
    elif d.zone == "discard":
        size = None if pl.discard else 0  # how many cards it holds is the owner's to know
    else:
        size = len(pl.hand)
    if size is None:
        most, least = len(matching), 1 if matching and not others else 0
    else:
        most, least = min(size, len(matching)), max(0, size - others)
    if most == 0:
        return NONE if d.lo > 0 else FORCED
    if least == 0 and d.lo > 0:
        return MANY  # some zones would skip it, others answer it: it is asked of all
    if d.purpose in ORDERED and most > 1 and len(set(matching)) > 1:
        return MANY  # the order of cards that may differ is the player's to choose
    if most <= d.lo:
        return FORCED  # every zone gives up all its candidates
    if len(set(matching)) == 1 and (d.lo == d.hi or distinct(d)):
        return FORCED  # copies of one name: only how many is chosen, and that is fixed
    return MANY


def check(state: State, d: Decision, value: Any, verb: str | None = None) -> Rejection | None:
    """Why `value` does not answer `d`, or None."""
    if d.kind == "select":
        if verb != d.verb:
            return reject(
                "wrong_verb", f"This decision asks you to {d.verb} cards, not to {verb} them.", "4.4"
            )
        lo, hi, cands = bounds(state, d)
        cards: tuple[str, ...] = value
        if not lo <= len(cards) <= hi:
            span = str(lo) if lo == hi else f"{lo} to {hi}"
            return reject("wrong_count", f"{d.verb.capitalize()} {span} card(s), not {len(cards)}.", "4.4")
        if distinct(d) and len(set(cards)) != len(cards):
            return reject("same_name", "The cards must all have different names.", "5.3")
        if UNSEEN in cards and d.purpose not in HIDDEN_SELECTIONS:
            return reject(
                "card_must_be_named",
                f"Cards you {d.verb} are seen by the table: name them, not ?.",
                "6.5",
            )
        extra = Counter(cards) - Counter(cands)
        if extra:
            pl = state.players[d.p]
            names = tuple(c for c in extra.elements() if c != UNSEEN)
            # a name may stand for a `?` of the zone, or of the cards listed (a Sentry's
            # unseen look), when the pool holds it
            bindable = (not d.cards or UNSEEN in d.cards) and all(fits(d, c) for c in names)
            if not (bindable and _unseen.can_bind(pl, cands, cards)):
                where = "among the cards you may pick" if d.cards else f"in your {d.zone or 'hand'}"
                kinds = f" ({'/'.join(d.types)})" if d.types else ""
                why = _unseen_why(pl, cands, names)
                return reject("not_a_candidate", f"Those cards{kinds} are not all {where}{why}.", "4.4")
        return None
    if d.kind == "choose":
        if value not in d.options:
            return reject("unknown_option", f"Choose one of: {', '.join(d.options)}.", "4.4")
        return None
    if d.kind == "pile":
        if value is None:
            if d.lo > 0 and eligible_piles(state, d):
                return reject("choice_required", "This gain is mandatory while a pile qualifies.", "4.9")
            return None
        if value not in state.supply:
            return reject("unknown_pile", f"There is no Supply pile {value!r}.", "4.4")
        if not state.supply[value] and not d.empty_ok:
            return reject("pile_empty", f"The {value} pile is empty.", "4.4")
        if not pile_ok(state, d, value):
            return reject("not_eligible", _pile_limit(d, value), "0")
        return None
    if d.kind == "react":
        if value is not None and (value != "Moat" or not _may_hold(state, d.p, "Moat")):
            return reject(
                "cannot_react", "Only a Moat in your hand can be revealed against an Attack.", "4.6"
            )
        return None
    if d.kind == "observe":
        return _check_observe(state, d, value)
    if d.kind in ("debt", "bid"):
        if value is None and d.kind == "bid":
            return None
        if not isinstance(value, int) or not d.lo <= value <= d.hi:
            what = "pay off" if d.kind == "debt" else "bid"
            return reject("wrong_amount", f"You may {what} {d.lo} to {d.hi}, not {value}.", _section(d))
        return None
    if d.kind == "kingdom":
        return check_kingdom(state, *value)
    if d.kind == "first_player":
        if value not in state.seats:
            return reject("unknown_seat", f"There is no seat {value!r} in this game.", "1.4")
        return None
    return reject("unknown_decision", "That decision cannot be answered.", "4.3")


def _check_observe(state: State, d: Decision, cards: tuple[str, ...]) -> Rejection | None:
    """The recorder's entry of cards from a deck's unseen part, or of unseen cards the table
    now sees (6.4): as many as the step takes (never more), each one an assignment of the
    unseen cards can explain, and named where the rules read it."""
    pl = state.players[d.target]
    seat = state.seats[d.target]
    if not cards:
        return reject("no_cards", "Name the card(s) seen.", "6.4")
    if len(cards) > d.hi:
        return reject(
            "too_many_cards",
            f"This step takes {plural(d.hi)} from {seat}'s deck, not {len(cards)}.",
            "6.4",
        )
    if UNSEEN in cards and (d.purpose == "identify" or d.verb in ("reveal", "look")):
        what = "are seen by the table" if d.verb == "reveal" else "are read by the rules"
        return reject("card_must_be_named", f"These cards {what}: name them, not ?.", "6.4")
    if d.purpose == "identify":
        if len(cards) != d.hi:
            return reject("wrong_count", f"Name the {plural(d.hi, 'unseen card')} of {seat}.", "6.4")
        wrong = Counter(cards) - Counter(pl.pool)
        if wrong:
            name = next(iter(wrong))
            return reject(
                "card_not_unseen",
                f"No {name} can be among {seat}'s unseen cards: they are {_listing(pl.pool)}.",
                "6.4",
            )
        return None
    if _unseen.observe(pl, cards) is None:
        name = next(c for i, c in enumerate(cards) if _unseen.observe(pl, cards[: i + 1]) is None)
        rest = _unseen.named(pl.unknown)
        hidden = _unseen.count(pl.unknown)
        listing = _listing(rest) + (f" and {hidden} unseen of {_listing(pl.pool)}" if hidden else "")
        return reject(
            "card_not_in_deck",
            f"No {name} can come from that deck: its unseen cards are {listing}.",
            "6.4",
        )
    return None


def _unseen_why(pl: Any, cands: tuple[str, ...], names: tuple[str, ...]) -> str:
    if UNSEEN not in cands:
        return ""
    return f" (the unseen cards there can be only {_listing(pl.pool)})"


def plural(n: int, what: str = "card") -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def _section(d: Decision) -> str:
    return "5.3" if d.kind == "debt" else "5.6"


def offered_presets(state: State) -> dict[str, tuple[str, ...]]:
    """The recommended kingdoms of this game's sets and base edition (`DATA.presets_for`)."""
    return DATA.presets_for(state.variants.expansions, state.variants.base_edition)


def allowed(state: State, piles: tuple[str, ...]) -> bool:
    """Are these kingdom piles in the sets this game plays with? Any of the 32 base cards may be
    named under either edition (dominion-2e.md 1)."""
    pool = DATA.nameable(state.variants.expansions)
    return all(p in pool for p in piles)


def check_kingdom(
    state: State, piles: tuple[str, ...], landscapes: tuple[str, ...], obelisk: str | None
) -> Rejection | None:
    if len(piles) != 10 or len(set(piles)) != 10:
        return reject("kingdom_size", "A kingdom is exactly 10 different piles.", "1.5")
    strangers = [p for p in piles if not allowed(state, (p,))]
    if strangers:
        sets = state.variants.expansions.replace(",", " and ")
        return reject("unknown_pile", f"{strangers[0]!r} is not a kingdom pile of {sets}.", "1.5")
    if landscapes and state.variants.expansions == "base":
        return reject(
            "no_landscapes", "Events and Landmarks come with Empires (expansions base,empires).", "1.8"
        )
    unknown = [x for x in landscapes if x not in DATA.landscapes]
    if unknown or len(set(landscapes)) != len(landscapes):
        what = (
            f"{unknown[0]!r} is not an Event or a Landmark"
            if unknown
            else "An Event or Landmark is named twice"
        )
        return reject("unknown_landscape", f"{what}.", "1.8")
    if "Obelisk" in landscapes:
        eligible = obelisk_piles(piles)
        if obelisk is None and state.mode == "physical":
            return reject("obelisk_pile", "Name the Action pile the table drew for Obelisk.", "1.8")
        if obelisk is not None and obelisk not in eligible:
            return reject("obelisk_pile", f"Obelisk's pile must be one of: {', '.join(eligible)}.", "1.8")
    elif obelisk is not None:
        return reject("obelisk_pile", "Obelisk is not in this game.", "1.8")
    return None


def obelisk_piles(kingdom: tuple[str, ...]) -> tuple[str, ...]:
    """The Action Supply piles Obelisk may choose from, sorted (1.8 step 4, 8.23)."""
    return tuple(sorted(p for p in kingdom if "Action" in DATA.pile_types[p]))


def _pile_limit(d: Decision, pile: str) -> str:
    parts = []
    if d.types:
        parts.append(" or ".join(d.types))
    if d.cost is not None:
        c, debt = d.cost
        up = "exactly" if d.exact else "up to"
        parts.append(f"costing {up} ${c}" + (f" and {debt}D" if debt else ""))
    if d.exclude:
        parts.append(f"other than {', '.join(d.exclude)}")
    return f"{pile} is not a card {' '.join(parts)}."


def _listing(cards: tuple[str, ...]) -> str:
    counts = Counter(cards)
    return ", ".join(f"{k} x{v}" for k, v in sorted(counts.items())) or "none"
