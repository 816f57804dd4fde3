"""Cards and the poker hand evaluator of Dynasties & Kingdoms (rules version dk-1):
dynasties-kingdoms.md sections 0 (card notation and canonical order), 4.6 (ranking a hand,
short hands, the wheel) and 4.7 (comparing hands, D17 and D19).

`evaluate` is a pure function: a hand of 1-7 cards is valued by its best subset of
`min(n, 5)` cards; keys are filled up to their length with 0 (D17). `classify5` is the category
classifier over rank and suit counts that the evaluator and the exhaustive test share.
"""

from __future__ import annotations

from itertools import combinations

import msgspec

RANKS = "23456789TJQKA"
SUITS = "CDHS"
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
INDEX: dict[str, int] = {card: i for i, card in enumerate(DECK)}
VALUE: dict[str, int] = {card: RANKS.index(card[0]) + 2 for card in DECK}
SUIT_ORDER = {"C": 0, "D": 1, "H": 2, "S": 3}

CATEGORIES = (
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)
KEY_LENGTH = {
    "high_card": 5,
    "one_pair": 4,
    "two_pair": 3,
    "three_of_a_kind": 3,
    "straight": 1,
    "flush": 5,
    "full_house": 2,
    "four_of_a_kind": 2,
    "straight_flush": 1,
}


class HandValue(msgspec.Struct, frozen=True):
    """A hand's category and key (4.6); `filled` is how many key positions real cards fill
    (the rest are the 0 of D17), used by `missing_kickers = "ignored"`."""

    category: str
    key: tuple[int, ...]
    filled: int


def canonical(cards: object) -> tuple[str, ...]:
    return tuple(sorted(cards, key=INDEX.__getitem__))  # type: ignore[call-overload]


def _straight_top(values: list[int], ace_low: bool) -> int:
    """The top card of five distinct sorted-descending values forming a straight, else 0."""
    if values[0] - values[4] == 4:
        return values[0]
    if ace_low and values == [14, 5, 4, 3, 2]:
        return 5
    return 0


def classify5(values: tuple[int, ...], flush: bool, ace_low: bool = True) -> tuple[int, tuple[int, ...]]:
    """(category index, unpadded key) of a subset of at most five cards."""
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    m = len(values)
    top = 0
    if m == 5 and len(counts) == 5:
        top = _straight_top(sorted(values, reverse=True), ace_low)
        if top and flush:
            return 8, (top,)
    first_rank, first_count = groups[0]
    kickers = tuple(sorted((v for v in values if counts[v] == 1), reverse=True))
    if first_count == 4:
        return 7, (first_rank, *kickers)
    if first_count == 3 and len(groups) > 1 and groups[1][1] == 2:
        return 6, (first_rank, groups[1][0])
    if m == 5 and flush:
        return 5, tuple(sorted(values, reverse=True))
    if top:
        return 4, (top,)
    if first_count == 3:
        return 3, (first_rank, *kickers)
    if first_count == 2:
        if len(groups) > 1 and groups[1][1] == 2:
            return 2, (first_rank, groups[1][0], *kickers)
        return 1, (first_rank, *kickers)
    return 0, kickers


def _value(cards: tuple[str, ...], ace_low: bool) -> tuple[int, tuple[int, ...]]:
    flush = len(cards) == 5 and len({c[1] for c in cards}) == 1
    return classify5(tuple(VALUE[c] for c in cards), flush, ace_low)


def evaluate(cards: tuple[str, ...] | list[str], ace_low: bool = True) -> HandValue:
    """The value of a hand of 1-7 cards (4.6)."""
    hand = tuple(cards)
    if len(hand) <= 5:
        cat, key = _value(hand, ace_low)
    else:
        cat, key = max(_value(sub, ace_low) for sub in combinations(hand, 5))
    name = CATEGORIES[cat]
    return HandValue(name, key + (0,) * (KEY_LENGTH[name] - len(key)), len(key))


def compare(a: HandValue, b: HandValue, ignore_missing: bool = False) -> int:
    """1 if `a` wins, -1 if `b` wins, 0 for a tie (4.7; D17's variant compares only the key
    positions both hands fill)."""
    ca, cb = CATEGORIES.index(a.category), CATEGORIES.index(b.category)
    if ca != cb:
        return 1 if ca > cb else -1
    n = min(a.filled, b.filled) if ignore_missing else len(a.key)
    ka, kb = a.key[:n], b.key[:n]
    if ka == kb:
        return 0
    return 1 if ka > kb else -1


def tie_card(cards: tuple[str, ...], rank: int) -> int:
    """The suit order (spades high) of a side's highest-suited card of `rank` (4.7, suit_order)."""
    return max((SUIT_ORDER[c[1]] for c in cards if VALUE[c] == rank), default=-1)


def is_card(text: str) -> bool:
    return text in INDEX


_RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_FACE_NAMES = {11: "jack", 12: "queen", 13: "king", 14: "ace"}


def _rank_name(value: int) -> str:
    return _FACE_NAMES.get(value) or _RANK_NAMES[value - 2]


def _ranks(value: int) -> str:
    word = _rank_name(value)
    return word + ("es" if word == "six" else "s")


def _short(value: int) -> str:
    return {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(value, str(value))


def hand_words(hand: HandValue) -> str:
    """A hand's value as players say it: "a pair of twos (Q 10 8)", "king high (8 4)", "a full
    house, kings over fives". The key positions that no card fills (D17's zeros) are left out;
    the cards in brackets are the kickers that break a tie, highest first."""
    key = hand.key[: hand.filled]
    if not key:
        return "no cards"
    head, rest = key[0], key[1:]
    name = hand.category
    if name == "two_pair" and len(key) >= 2:
        head_words, rest = f"two pair, {_ranks(key[0])} and {_ranks(key[1])}", key[2:]
    elif name == "full_house" and len(key) >= 2:
        head_words, rest = f"a full house, {_ranks(key[0])} over {_ranks(key[1])}", key[2:]
    else:
        head_words = {
            "high_card": f"{_rank_name(head)} high",
            "one_pair": f"a pair of {_ranks(head)}",
            "three_of_a_kind": f"three {_ranks(head)}",
            "straight": f"a straight to the {_rank_name(head)}",
            "flush": f"a flush, {_rank_name(head)} high",
            "four_of_a_kind": f"four {_ranks(head)}",
            "straight_flush": f"a straight flush to the {_rank_name(head)}",
        }.get(name, f"{name.replace('_', ' ')} {_short(head)}")
    kickers = f" ({' '.join(_short(v) for v in rest)})" if rest else ""
    return head_words + kickers
