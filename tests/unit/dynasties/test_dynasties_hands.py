"""The hand evaluator of dynasties-kingdoms.md 4.6-4.7: exhaustive category counts over all
2,598,960 five-card hands, short hands (D17), the wheel (D18), six and seven cards, ties."""

from __future__ import annotations

from itertools import combinations

import pytest

from domain.games.dynasties.cards import CATEGORIES, DECK, VALUE, classify5, compare, evaluate, tie_card

EXPECTED = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "one_pair": 1098240,
    "high_card": 1302540,
}


def test_every_five_card_hand_falls_in_the_right_category_exhaustively() -> None:
    # A rank multiset is encoded as a sum of powers of 5 (at most 4 of a rank), a flush as a
    # single suit bit; each distinct (multiset, flush) is classified once.
    rank_code = [5 ** (VALUE[c] - 2) for c in DECK]
    suit_bit = [1 << "CDHS".index(c[1]) for c in DECK]
    counts: dict[tuple[int, bool], int] = {}
    for a, b, c, d, e in combinations(range(52), 5):
        code = rank_code[a] + rank_code[b] + rank_code[c] + rank_code[d] + rank_code[e]
        suits = suit_bit[a] | suit_bit[b] | suit_bit[c] | suit_bit[d] | suit_bit[e]
        key = (code, suits & (suits - 1) == 0)
        counts[key] = counts.get(key, 0) + 1
    totals = dict.fromkeys(CATEGORIES, 0)
    for (code, flush), n in counts.items():
        values = tuple(v + 2 for v in range(13) for _ in range(code // 5**v % 5))
        totals[CATEGORIES[classify5(values, flush)[0]]] += n
    assert totals == EXPECTED
    assert sum(totals.values()) == 2_598_960


@pytest.mark.parametrize(
    ("cards", "category", "key"),
    [
        ("KD KS 4C", "one_pair", (13, 4, 0, 0)),
        ("9C 9D 9H 9S", "four_of_a_kind", (9, 0)),
        ("QC QD 7H 7S", "two_pair", (12, 7, 0)),
        ("AC 6D", "high_card", (14, 6, 0, 0, 0)),
        ("AS", "high_card", (14, 0, 0, 0, 0)),
        ("AC 2D 3H 4S 5C", "straight", (5,)),
        ("TC JD QH KS AC", "straight", (14,)),
        ("QC KD AH 2S 3C", "high_card", (14, 13, 12, 3, 2)),
        ("AH 2H 3H 4H 5H", "straight_flush", (5,)),
        ("QD 9D 7D 4D 2D 3C", "flush", (12, 9, 7, 4, 2)),
        ("6S 7C 8D 9H TC 2H 3H", "straight", (10,)),
        ("2H 5H 9H JH KH 9C TD QS", "flush", (13, 11, 9, 5, 2)),
        ("KC KD KH 7C 7D 7H", "full_house", (13, 7)),
        ("KC KD 7H 7C 4D 4H 2C", "two_pair", (13, 7, 4)),
        ("5C 5S 5D AC 9S", "three_of_a_kind", (5, 14, 9)),
    ],
)
def test_hands_are_valued_by_their_best_five_cards_with_short_keys_filled_with_zero(
    cards: str, category: str, key: tuple[int, ...]
) -> None:
    value = evaluate(cards.split())
    assert (value.category, value.key) == (category, key)


def test_without_the_ace_low_variant_the_wheel_is_no_straight() -> None:
    assert evaluate(["AC", "2D", "3H", "4S", "5C"], ace_low=False).category == "high_card"


def test_more_kickers_win_by_default_and_tie_when_missing_kickers_are_ignored() -> None:
    short = evaluate(["KD", "KS"])
    longer = evaluate(["KC", "KH", "2C"])
    assert compare(longer, short) == 1
    assert compare(longer, short, ignore_missing=True) == 0


def test_suits_never_break_a_tie_but_the_suit_order_variant_names_a_tie_card() -> None:
    a, d = ["AS", "8H", "8C", "JD"], ["AD", "8S", "8D", "JH"]
    assert compare(evaluate(a), evaluate(d)) == 0
    assert tie_card(tuple(d), 8) > tie_card(tuple(a), 8)
