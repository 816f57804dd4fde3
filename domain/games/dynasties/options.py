"""Variant options of Dynasties & Kingdoms (rules version dk-1): dynasties-kingdoms.md 1.2 and
the decisions D1-D25 of section 7, plus the map (section 8).

Every option of the table in 1.2 is a `VariantOption` with the spec's default. Rulings on the
encoding, forced by one value type per option:

- `army_supply` (D4) is an integer; 0 stands for the spec's `null` (unlimited). Values 1-3 are
  refused when the game is set up (the spec allows `null` or at least 4).
- `map` is `"default"` (the shipped map of 8.4) or the complete map object as JSON text (8.1).
- `first_die_color` / `second_die_color` (D5) are free strings; both must be non-empty and
  different, checked when the game is set up.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.ruleset import VariantOption


def _enum(name: str, default: str, other: str, decision: str) -> VariantOption:
    return VariantOption(name, default, _described(decision), choices=(default, other))


def _flag(name: str, default: bool, decision: str) -> VariantOption:
    return VariantOption(name, default, _described(decision), choices=(False, True))


# What each decision of the rules reference's section 7 is about (`chronicle rules dynasties D1`).
DECISIONS = {
    "D1": "ties in the turn-order roll",
    "D2": "the order of homeland picks",
    "D3": "when no legal homeland remains",
    "D6": "the order of City and Province rolls",
    "D7": "how long Blocked lasts",
    "D8": "Death and cities",
    "D9": "who plays the rebels",
    "D10": "when a city may be destroyed",
    "D11": "the 10-army limit during a turn",
    "D12": "armies that already moved this phase",
    "D13": "the last army of a province",
    "D14": "several attacks on one province",
    "D15": "the 7-card limit",
    "D16": "the face-up card",
    "D17": "hands of fewer than five cards",
    "D18": "the ace in straights",
    "D19": "tied hands",
    "D20": "the dealing order",
    "D21": "the order of the draw round",
    "D22": "running out of cards",
    "D23": "when victory is checked",
    "D24": "players who lose all their armies",
    "D25": "the number of provinces on a custom map",
}


def _described(decision: str) -> str:
    return f"{decision}: {DECISIONS[decision]}."


OPTIONS: tuple[VariantOption, ...] = (
    VariantOption("map", "default", '"default" or a map object as JSON text (section 8)'),
    _enum("turn_order_ties", "reroll_tied", "reroll_all", "D1"),
    _enum("homeland_pick_order", "turn_order", "reverse_turn_order", "D2"),
    _enum("homeland_rule", "lookahead", "relax_when_blocked", "D3"),
    VariantOption("army_supply", 0, "D4: 0 = unlimited, else at least 4", minimum=0),
    VariantOption("first_die_color", "red", "D5: colour of the first die"),
    VariantOption("second_die_color", "white", "D5: colour of the second die"),
    _enum("roll_order", "player_choice", "map_order", "D6"),
    _enum("blocked_duration", "until_next_turn", "end_of_turn", "D7"),
    _flag("death_razes_city", False, "D8"),
    _enum("rebel_control", "chosen_opponent", "automatic", "D9"),
    _enum("city_destruction_scope", "all_battles", "expansion_only", "D10"),
    _enum("army_cap", "at_scoring", "hard", "D11"),
    _flag("moved_armies_may_move_again", False, "D12"),
    _enum("last_army_rule", "one_remains", "original_armies", "D13"),
    _enum("attacks_per_target", "unlimited", "one", "D14"),
    _enum("card_limit", "deal_only", "total_7", "D15"),
    _flag("face_up_discardable", False, "D16"),
    _enum("missing_kickers", "lowest", "ignored", "D17"),
    _flag("ace_low_straight", True, "D18"),
    VariantOption(
        "tie_rule", "defender_wins", _described("D19"), choices=("defender_wins", "redeal", "suit_order")
    ),
    _enum("deal_order", "alternate", "block", "D20"),
    _enum("draw_order", "attacker_first", "defender_first", "D21"),
    _enum("deck_exhaustion", "reshuffle_discards", "fresh_deck_each_battle", "D22"),
    _enum("victory_check", "immediate", "end_of_turn", "D23"),
    VariantOption("victory_vt", 100, "D23: VT needed to win", minimum=1),
    _enum("elimination", "continue", "last_player_standing_wins", "D24"),
    _flag("strict_province_count", False, "D25"),
)


class Opts(msgspec.Struct, frozen=True):
    """The resolved options of one game."""

    map: str = "default"
    turn_order_ties: str = "reroll_tied"
    homeland_pick_order: str = "turn_order"
    homeland_rule: str = "lookahead"
    army_supply: int = 0
    first_die_color: str = "red"
    second_die_color: str = "white"
    roll_order: str = "player_choice"
    blocked_duration: str = "until_next_turn"
    death_razes_city: bool = False
    rebel_control: str = "chosen_opponent"
    city_destruction_scope: str = "all_battles"
    army_cap: str = "at_scoring"
    moved_armies_may_move_again: bool = False
    last_army_rule: str = "one_remains"
    attacks_per_target: str = "unlimited"
    card_limit: str = "deal_only"
    face_up_discardable: bool = False
    missing_kickers: str = "lowest"
    ace_low_straight: bool = True
    tie_rule: str = "defender_wins"
    deal_order: str = "alternate"
    draw_order: str = "attacker_first"
    deck_exhaustion: str = "reshuffle_discards"
    victory_check: str = "immediate"
    victory_vt: int = 100
    elimination: str = "continue"
    strict_province_count: bool = False


_NAMES = {o.name for o in OPTIONS}


def opts_from(options: Mapping[str, Any]) -> Opts:
    return Opts(**{k: v for k, v in options.items() if k in _NAMES})
