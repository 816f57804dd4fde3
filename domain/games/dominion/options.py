"""Variant options of Dominion (1st-edition base game): dominion.md sections 1.5, 6.5, 7 and 8.

- `kingdom`: `random` (10 of the 25 kingdom piles drawn with the seeded RNG in a digital game,
  entered by the recorder as the table dealt them in a physical game), a preset of 1.5
  (`first_game`, `big_money`, `interaction`, `size_distortion`, `village_square`), or
  `manual` (the recorder names the 10 piles as the first recorded action).
- `four_piles_at_four_players` (8.1) and `tiebreak_earlier_seat_loses` (8.2): the named variants.
- `explicit_forced_choices` (8.19): a decision with one legal answer is asked all the same (the
  recorder's own questions and decisions with no legal answer excepted).
- `base_second_edition_wording` (8.14): Throne Room may play nothing, Mine may trash nothing
  (its gain stays mandatory once it trashed), Moneylender asks whether to trash a Copper.
- `all_discards_public` and `open_counts` (8.20): visibility variants of 6.5.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.games.dominion.data import DATA
from domain.ruleset import VariantOption

KINGDOM_CHOICES = ("random", *sorted(DATA.presets), "manual")


def _flag(name: str, description: str) -> VariantOption:
    return VariantOption(name, False, description, choices=(False, True))


OPTIONS: tuple[VariantOption, ...] = (
    VariantOption(
        "kingdom",
        "random",
        "How the 10 kingdom piles are chosen: random, a recommended preset, or manual (named by the table).",
        choices=KINGDOM_CHOICES,
    ),
    _flag("four_piles_at_four_players", "A 4-player game ends on four empty Supply piles, not three (8.1)."),
    _flag(
        "tiebreak_earlier_seat_loses",
        "Among players tied for the most VP the one latest in turn order wins outright (8.2).",
    ),
    _flag(
        "explicit_forced_choices",
        "Every decision a player faces is recorded, even when only one answer is legal (8.19).",
    ),
    _flag(
        "base_second_edition_wording",
        "Throne Room, Mine and Moneylender are optional, as in the 2nd edition (8.14).",
    ),
    _flag("all_discards_public", "Every discarded card is shown to everyone (8.20)."),
    _flag("open_counts", "Everyone sees every player's deck and discard pile sizes (8.20)."),
)


class Variants(msgspec.Struct, frozen=True):
    kingdom: str = "random"
    four_piles_at_four_players: bool = False
    tiebreak_earlier_seat_loses: bool = False
    explicit_forced_choices: bool = False
    base_second_edition_wording: bool = False
    all_discards_public: bool = False
    open_counts: bool = False


def variants_from(options: Mapping[str, Any]) -> Variants:
    known = {o.name for o in OPTIONS}
    return Variants(**{k: v for k, v in options.items() if k in known})
