"""Variant options of Dominion (base game and Empires): dominion.md 1.5, 1.8, 6.3, 6.5, 7 and 8,
and dominion-2e.md 1.

- `base_edition`: `1` (the first edition, the default) or `2` (dominion-2e.md): the pool of
  random base kingdoms (25 or 26 cards) and the wording of Throne Room, Moneylender and Mine,
  which edition 2 makes optional (as `base_second_edition_wording` does for edition 1). A
  named kingdom may hold any of the 32 base cards under either edition.

- `expansions`: `base` (the 25 base kingdom piles) or `base,empires` (49 piles, with Events and
  Landmarks). A base game draws its kingdom exactly as before Empires existed.
- `kingdom`: `random` (10 kingdom piles drawn with the seeded RNG in a digital game, entered by
  the recorder as the table dealt them in a physical game), a preset of 1.5 (the base sets of
  the game's edition: the 1st edition's five, the 2nd edition's six, whose `first_game` and
  `size_distortion` are the 2016 sets of those names; and the Empires `basic_intro` and
  `advanced_intro` with their landscapes), or `manual` (the recorder names the piles, Events and
  Landmarks as the first recorded action).
- `exclude`: names of kingdom piles, Events or Landmarks a random setup leaves out, separated by
  commas (6.3 step 4: the table's filters, applied to the names before shuffling).
- `landscapes` (`mixed` or `separate`) and `landscape_count` (the cap in mixed mode, the number
  drawn in separate mode; default 2): how a random Empires setup picks Events and Landmarks (6.3).
- `players_5_6` (1.3, 8.3): 5 or 6 players with a second set of basic cards; without it a game
  of more than 4 players is refused at creation.
- The Empires variants of 8: `treasures_locked_for_whole_turn` (8.6),
  `pay_debt_keeps_treasure_window` and `pay_debt_any_time` (8.7),
  `relative_gain_requires_zero_debt` (8.8), `donate_start_of_next_turn` (8.9),
  `mountain_pass_skipped_if_game_over` (8.10), `charm_on_gain` (8.11), `overlord_command` (8.12),
  `defiled_shrine_gain_in_buy_phase` (8.13).
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

from domain.games.dominion.data import DATA, EXPANSIONS
from domain.ruleset import VariantOption

KINGDOM_CHOICES = ("random", *DATA.preset_names, "manual")


def _flag(name: str, description: str) -> VariantOption:
    return VariantOption(name, False, description, choices=(False, True))


OPTIONS: tuple[VariantOption, ...] = (
    VariantOption(
        "expansions",
        "base",
        "Which sets the kingdom is drawn from: base, or base,empires (with Events and Landmarks).",
        choices=EXPANSIONS,
    ),
    VariantOption(
        "base_edition",
        1,
        "Which edition of the base set: 1 (2008) or 2 (2016; 7 new cards, 6 removed from random kingdoms).",
        choices=(1, 2),
    ),
    VariantOption(
        "kingdom",
        "random",
        "How the 10 kingdom piles are chosen: random, a recommended preset of the game's sets and base "
        "edition (each edition has its own; 1.5), or manual (named by the table).",
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
    _flag(
        "players_5_6", "5-6 players with a second set of basic cards; four empty piles end the game (1.3)."
    ),
    _flag("all_discards_public", "Every discarded card is shown to everyone (8.20)."),
    _flag("open_counts", "Everyone sees every player's deck and discard pile sizes (8.20)."),
    VariantOption(
        "exclude",
        "",
        "Kingdom piles, Events or Landmarks a random setup leaves out, separated by commas (6.3).",
    ),
    VariantOption(
        "landscapes",
        "mixed",
        "Random Empires setups: Events and Landmarks shuffled into the randomizers (mixed) or drawn apart.",
        choices=("mixed", "separate"),
    ),
    VariantOption(
        "landscape_count",
        2,
        "The most Events and Landmarks a mixed random setup takes, or how many a separate one draws.",
        choices=(0, 1, 2, 3, 4),
    ),
    _flag(
        "treasures_locked_for_whole_turn",
        "After buying, no Treasures for the rest of the turn, even after Villa (8.6).",
    ),
    _flag("pay_debt_keeps_treasure_window", "Paying off debt does not end playing Treasures (8.7)."),
    _flag("pay_debt_any_time", "Debt may be paid off whenever you have $ in your turn (8.7)."),
    _flag(
        "relative_gain_requires_zero_debt",
        "Cards gained 'costing up to $N more' than another never have debt in their cost (8.8).",
    ),
    _flag("donate_start_of_next_turn", "Donate resolves at the start of your next turn (8.9)."),
    _flag(
        "mountain_pass_skipped_if_game_over",
        "No Mountain Pass bidding when the turn that gained the first Province ended the game (8.10).",
    ),
    _flag("charm_on_gain", "Charm's extra card comes on your next gain, not your next buy (8.11)."),
    _flag("overlord_command", "Overlord plays the Supply card and leaves it there (2019 errata, 8.12)."),
    _flag(
        "defiled_shrine_gain_in_buy_phase",
        "Defiled Shrine pays out for a Curse gained in your Buy phase, not only bought (8.13).",
    ),
)


class Variants(msgspec.Struct, frozen=True):
    kingdom: str = "random"
    four_piles_at_four_players: bool = False
    tiebreak_earlier_seat_loses: bool = False
    explicit_forced_choices: bool = False
    base_second_edition_wording: bool = False
    all_discards_public: bool = False
    open_counts: bool = False
    players_5_6: bool = False
    expansions: str = "base"
    base_edition: int = 1
    exclude: str = ""
    landscapes: str = "mixed"
    landscape_count: int = 2
    treasures_locked_for_whole_turn: bool = False
    pay_debt_keeps_treasure_window: bool = False
    pay_debt_any_time: bool = False
    relative_gain_requires_zero_debt: bool = False
    donate_start_of_next_turn: bool = False
    mountain_pass_skipped_if_game_over: bool = False
    charm_on_gain: bool = False
    overlord_command: bool = False
    defiled_shrine_gain_in_buy_phase: bool = False


def variants_from(options: Mapping[str, Any]) -> Variants:
    known = {o.name for o in OPTIONS}
    chosen = {k: v for k, v in options.items() if k in known}
    if chosen.get("base_edition") == 2:
        # The 2nd edition's text of Throne Room, Moneylender and Mine (dominion-2e.md 3).
        chosen["base_second_edition_wording"] = True
    return Variants(**chosen)
