"""Variant options of Province (Kickstarter 2014): province.md sections 9 (D3-D27) and 10.4.

Every key of 10.4 is a `VariantOption`, plus `first_player` (the seat named by the table under
`first_player_method: chosen`, D24). Rulings on the encoding:

- Limits that the spec gives as "a number or `unlimited`" (`max_builds_per_turn`,
  `union_uses_per_turn`, `lender_uses_per_turn`) are string choices such as "1" and
  "unlimited", so every choice has one type; `Variants` turns them into `int | None`.
- `coin_supply_total` is an integer bounded below by the starting coins (D3: 28 or 35).
- `coin_change: exact_tokens` is reserved and unspecified in v1 (D4): it is not a choice, so a
  game asking for it is refused at creation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.games.province.data import DATA, RulesData
from domain.ruleset import VariantOption

UNLIMITED = "unlimited"


def _enum(name: str, default: str, others: tuple[str, ...], description: str) -> VariantOption:
    return VariantOption(name, default, description, choices=(default, *others))


def _flag(name: str, default: bool, description: str) -> VariantOption:
    return VariantOption(name, default, description, choices=(False, True))


def build_options(data: RulesData) -> tuple[VariantOption, ...]:
    pools = tuple(pool_id for pool_id, _ in data.goal_pools)
    return (
        VariantOption(
            "coin_supply_total",
            data.coin_supply_total,
            "D3: total value of the coin supply (28 Kickstarter, 35 retail).",
            minimum=data.start_coins_first + data.start_coins_second,
            maximum=999,
        ),
        _enum(
            "coin_change",
            "always_available",
            (),
            "D4: coins are a fungible count; change is always available.",
        ),
        _enum("grind_on_empty_supply", "reject", ("allow_no_gain",), "D5: Grind when the supply cannot pay."),
        _flag("labor_carryover", False, "D6 (house rule): unspent labor is kept at the end of a turn."),
        _enum("max_builds_per_turn", "1", (UNLIMITED,), "D7: buildings a player may build per turn."),
        _enum("union_uses_per_turn", UNLIMITED, ("1",), "D8: Union conversions per turn."),
        _enum("bank_doubles", "cycle_only", ("cycle_and_harbor",), "D9: which coin income the Bank doubles."),
        _flag("harbor_toss_on_any_build", False, "D10: a second Harbor builder also tosses the ships."),
        _enum("harbor_beneficiaries", "all_owners", ("master_only",), "D11: who receives Harbor income."),
        _enum("sailor_pool", "shared_3", ("per_player_3",), "D12: shared or per-player sailor tokens."),
        _flag("lender_use_while_holding", False, "D13: a player holding the Lender coin may borrow again."),
        _enum("lender_uses_per_turn", "1", (UNLIMITED,), "D14: Lender uses per turn."),
        _enum("lender_timing", "by_target", ("any_phase",), "D15: when each building may be borrowed."),
        _enum(
            "lender_repay_timing",
            "spending_phase",
            ("any_time_own_turn",),
            "D16: when the Lender may be repaid.",
        ),
        _enum("goal_check", "immediate", ("end_of_turn",), "D17: when goals are checked."),
        _flag("labor_goal_counts_conversions", True, "D18: Union labor counts for the labor goal."),
        _enum("workers_goal_basis", "access", ("moved_in_one_turn",), "D19: the Workers goal basis."),
        _enum(
            "twovp_goal_counts", "printed", ("scored",), "D20: which buildings count for two 2-VP structures."
        ),
        _enum(
            "buildings_goal_counts", "all", ("scored",), "D21: which builds count for the Structures goal."
        ),
        VariantOption("goal_pool", pools[0], "D22: the goal pool.", choices=pools),
        _enum(
            "end_check",
            "end_of_turn",
            ("immediate", "end_of_round"),
            "D23: when an end condition ends the game.",
        ),
        _enum("first_player_method", "toss", ("chosen",), "D24: a ship toss or the table's choice."),
        _enum("first_player", "A", ("B",), "D24: the first player under first_player_method: chosen."),
        _enum("rng_algorithm", "hmac-sha256-v1", (), "D25: the digital randomness algorithm (records 4)."),
        _enum("harbor_income_timing", "turn_start", ("on_toss",), "D26: when Harbor income is received."),
        _enum(
            "lender_targets",
            "not_own",
            ("any_opponent_building",),
            "D27: which buildings the Lender may borrow.",
        ),
    )


OPTIONS = build_options(DATA)


def _limit(value: str) -> int | None:
    return None if value == UNLIMITED else int(value)


class Variants(msgspec.Struct, frozen=True):
    """Resolved option values in the types the rules read."""

    coin_supply_total: int
    grind_on_empty_supply: str = "reject"
    labor_carryover: bool = False
    max_builds_per_turn: int | None = 1
    union_uses_per_turn: int | None = None
    bank_doubles: str = "cycle_only"
    harbor_toss_on_any_build: bool = False
    harbor_beneficiaries: str = "all_owners"
    sailor_pool: str = "shared_3"
    lender_use_while_holding: bool = False
    lender_uses_per_turn: int | None = 1
    lender_timing: str = "by_target"
    lender_repay_timing: str = "spending_phase"
    goal_check: str = "immediate"
    labor_goal_counts_conversions: bool = True
    workers_goal_basis: str = "access"
    twovp_goal_counts: str = "printed"
    buildings_goal_counts: str = "all"
    goal_pool: str = "ks5"
    end_check: str = "end_of_turn"
    first_player_method: str = "toss"
    first_player: str = "A"
    harbor_income_timing: str = "turn_start"
    lender_targets: str = "not_own"


def variants_from(options: Mapping[str, Any], options_meta: tuple[VariantOption, ...] = OPTIONS) -> Variants:
    """Options as resolved by `domain.ruleset.resolve_options` (missing keys take defaults)."""
    values = {o.name: options.get(o.name, o.default) for o in options_meta}
    return Variants(
        coin_supply_total=int(values["coin_supply_total"]),
        grind_on_empty_supply=values["grind_on_empty_supply"],
        labor_carryover=bool(values["labor_carryover"]),
        max_builds_per_turn=_limit(values["max_builds_per_turn"]),
        union_uses_per_turn=_limit(values["union_uses_per_turn"]),
        bank_doubles=values["bank_doubles"],
        harbor_toss_on_any_build=bool(values["harbor_toss_on_any_build"]),
        harbor_beneficiaries=values["harbor_beneficiaries"],
        sailor_pool=values["sailor_pool"],
        lender_use_while_holding=bool(values["lender_use_while_holding"]),
        lender_uses_per_turn=_limit(values["lender_uses_per_turn"]),
        lender_timing=values["lender_timing"],
        lender_repay_timing=values["lender_repay_timing"],
        goal_check=values["goal_check"],
        labor_goal_counts_conversions=bool(values["labor_goal_counts_conversions"]),
        workers_goal_basis=values["workers_goal_basis"],
        twovp_goal_counts=values["twovp_goal_counts"],
        buildings_goal_counts=values["buildings_goal_counts"],
        goal_pool=values["goal_pool"],
        end_check=values["end_check"],
        first_player_method=values["first_player_method"],
        first_player=values["first_player"],
        harbor_income_timing=values["harbor_income_timing"],
        lender_targets=values["lender_targets"],
    )
