"""Variant options of Dominations + Provinces: Appendix A of dominations-provinces.md.

Encoding rulings:
- `catalog` is "default" or a JSON catalog (data.py schema: provinces, masteries, compositions,
  land tiles, start board), so a table with the physical components enters what is printed on
  them; it is validated when the game is created and refused naming the failed check.
- `production_model` "by_mode" is the spec's default (reference in digital, declared in
  physical).
- `conquest_hand_limit` 0 means no limit; `corsaires_per_turn` 0 means unlimited.
- The deck compositions of 1.3 are part of the catalog (`conquest_composition`,
  `rebellion_composition`).
- `rules_version` and `dynasties_module` take only their version-1 values.
- `dominance_vp` is "declared" (the spec's null: the S7 entry declares each card's VP) or a JSON
  map card -> VP such as '{"SPY": 3, "DOM-CRA": 3}'; an invalid map is refused at creation.
- `starting_values` overrides the zero starting values of 1.7 for every player, e.g.
  '{"influence": 1, "knowledge": {"CRA": 2}}'.
- `reward_knowledge_domain = printed` needs a catalog giving every Knowledge reward's domain;
  a catalog with a `choice` reward is refused at creation (E_BAD_CATALOG).
- `hegemon_token_vp` is "declared" (the spec's null) or a number written as a string ("4").
- `sign_cards` only documents the table's choice: Omen draws are DECLARED `base_effect` entries.
- `knowledge_cap` is "none" or a JSON map domain -> cap, e.g. '{"CRA": 10}'; caps then change
  only through DECLARED `base_effect` entries (`cap_changes`, a negative value removes a cap).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.games.dominations.data import DOMAINS
from domain.ruleset import VariantOption


def _enum(name: str, default: str, others: tuple[str, ...], description: str) -> VariantOption:
    return VariantOption(name, default, description, choices=(default, *others))


def _flag(name: str, default: bool, description: str) -> VariantOption:
    return VariantOption(name, default, description, choices=(False, True))


def _int(name: str, default: int, lo: int, hi: int, description: str) -> VariantOption:
    return VariantOption(name, default, description, minimum=lo, maximum=hi)


OPTIONS: tuple[VariantOption, ...] = (
    VariantOption("catalog", "default", "1.4: 'default' or a JSON catalog of provinces, tiles and decks."),
    _enum("production_model", "by_mode", ("reference", "declared"), "1.6, 7.36: tile production."),
    _enum("placement_adjacency", "edge", ("vertex",), "7.37: placement adjacency."),
    _enum("city_adjacency", "edge", ("vertex",), "7.37: city activation adjacency."),
    _int("hand_size", 7, 1, 20, "1.7: land tiles in hand."),
    _int("turns_per_age", 5, 1, 10, "3.1: rounds per Age."),
    _enum("land_refill", "top_up", ("fresh_hand",), "7.41: land tiles between Ages."),
    _enum("first_player_rule", "fixed", ("rotate",), "7.42: first player of each Age."),
    _enum("rules_version", "rulebook", (), "7.1: the Provinces rulebook."),
    _flag("province_decks_shuffled", True, "7.2: Age decks of provinces are shuffled."),
    _flag("dynasties_module", False, "7.3: Dynasties provinces (reserved)."),
    _enum("retry_draw_rule", "kept_plus_one", ("printed_plus_failures",), "7.5: cards drawn on a retry."),
    _flag("retry_by_failed_player", True, "7.6: the last failed attacker may retry."),
    _flag("post_reveal_buy_only_when_short", False, "7.7: buying after the reveal only while C < R."),
    _flag("influence_overspend", False, "7.8: Influence beyond the shortfall."),
    _enum("discard_rule", "bonuses_count", ("cards_only",), "7.9: what the discard must reach."),
    _enum("spy_domain", "ART", tuple(d for d in DOMAINS if d != "ART"), "7.10: the Spy's domain."),
    _enum("reward_knowledge_domain", "choice", ("printed",), "7.13: reward Knowledge domain."),
    _enum("rank_loss_tie", "tied_lose_top_amount", ("tied_lose_others_amount",), "7.14: rank_loss ties."),
    _enum("moche_blocks", "cities", ("none",), "7.15: Moche's permanent effect."),
    _enum("knowledge_price_domains", "any_mix", ("single_domain",), "7.16: black-number payment."),
    _flag("vp_floor_zero", True, "7.17: VP floored at 0."),
    _enum(
        "kept_cards_on_knowledge_conquest", "discard", ("box",), "7.18: kept cards on a knowledge conquest."
    ),
    _flag("mastery_effects_stack", False, "7.19: copies of a mastery stack."),
    _enum("arcs_reward", "vp", ("influence",), "7.20: Arcs de Triomphe."),
    _enum("siege_cost", "cra_knowledge", ("influence",), "7.21: Engins de Siege cost."),
    _enum("missionaires_reward", "influence", ("rel_knowledge",), "7.23: Missionaires."),
    _enum("espionnage_reward", "sci_knowledge", ("vp",), "7.24: Espionnage."),
    _int("corsaires_per_turn", 1, 0, 20, "7.25: Corsaires exchanges per turn (0 = unlimited)."),
    _enum("eoa_province_order", "display", ("tile_number",), "7.27: order of end-of-Age effects."),
    _flag("kept_cards_reset_at_age_end", False, "7.28: kept cards discarded at end of Age."),
    _flag("discard_must_be_minimal", False, "7.29: success discard must be minimal."),
    _flag("allow_voluntary_abandon", False, "7.30: abandon while C >= R."),
    _int("conquest_hand_limit", 0, 0, 40, "7.31: conquest hand limit (0 = none)."),
    _enum("exhausted_deck", "short_draw", ("reject_attempt",), "7.32: empty rebellion decks."),
    _flag("permanent_ends_after_tile", False, "7.33: permanent effect ends after the tile."),
    _enum("dominance_tie", "nobody", ("keep_previous",), "7.39: Dominance ties."),
    _flag("influence_reset_each_age", False, "7.43: Influence reset at end of Age."),
    _enum("final_tie_rule", "shared", ("most_influence",), "7.44: final ties."),
    _enum("corsaires_exchange", "tra_to_influence", ("any_knowledge_swap",), "7.25: Corsaires exchange."),
    _enum("siege_timing", "attack_window", ("before_draw",), "7.21: when Engins de Siege is used."),
    _flag("spy_peek_allows_abort", False, "7.11: the Spy peek as a separate action before the Grow choice."),
    _enum("spy_peek_short_pile", "no_reshuffle", ("reshuffle_first",), "7.12: Spy peek on a short pile."),
    _flag("knowledge_conquest_is_attack", False, "7.26: a knowledge conquest counts as an attack."),
    _flag("conscription_domainless", False, "7.22: Conscription costs 3 Knowledge of any mix."),
    _enum("land_hand_visibility", "private", ("public",), "7.45: land tiles in hand."),
    _enum("influence_vp_rule", "declared", ("none",), "6.1: VP from Influence at end of Age."),
    VariantOption(
        "dominance_vp",
        "declared",
        "6.1: 'declared' (with the end-of-Age scoring the recorder enters) or a JSON map card -> VP.",
    ),
    _flag(
        "eoa_dominance_before_base_scoring",
        False,
        "7.40: Dominance before the base-game scoring at the end of an Age.",
    ),
    _enum("first_player", "p1", ("p2", "p3", "p4"), "4.1: the first player (must be a seat)."),
    VariantOption(
        "starting_values", "default", "1.7: 'default' (all 0) or a JSON object {knowledge, influence, vp}."
    ),
    VariantOption("knowledge_cap", "none", "7.38: 'none' or a JSON map domain -> Knowledge cap."),
    _flag("hegemon_module", False, "6.5: play with the Hegemon expansion (province cards kept, token)."),
    _enum("hegemon_count_scope", "cumulative", ("this_age",), "7.34: provinces counted for the token."),
    VariantOption(
        "hegemon_token_vp",
        "declared",
        "6.5: 'declared' (with the end-of-Age scoring the recorder enters) or the token's VP.",
    ),
    _enum("sign_cards", "omen", ("ignore",), "7.35: the 4 sign cards (Omen draws are DECLARED)."),
    _int("max_build_actions_per_turn", 1, 0, 10, "3.2: Build actions per turn."),
    _int("max_masteries_per_turn", 1, 0, 10, "3.2: masteries per turn."),
)

DEFAULTS: dict[str, Any] = {o.name: o.default for o in OPTIONS}


class Variants(msgspec.Struct, frozen=True):
    values: dict[str, Any]

    def __getitem__(self, name: str) -> Any:
        return self.values[name]


def variants_from(options: Mapping[str, Any]) -> dict[str, Any]:
    return {**DEFAULTS, **{k: v for k, v in options.items() if k in DEFAULTS}}
