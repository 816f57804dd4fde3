"""Rules data of Province (Laboratory, Kickstarter 2014, 5 goal tokens): province.md section 10.

The data file mirrors the spec's tables: every number is a `{value, status, source}` record, of
which only `value` is read (status and source are documentation). Loading validates the schema
checks of section 10 and raises `RulesDataError` naming the check that failed:

- exactly 8 buildings with unique ids;
- `requires` names known buildings and has no cycle;
- effect keys come from the closed list of section 4.2, and every effect other than
  `turn_start_labor` belongs to at most one building (the Harbor Master, the Camp piece and the
  Lender coin each need a single building to hang on);
- the work cycle has exactly 3 spaces with known resources forming one loop, and the placement
  space is one of them;
- goal conditions come from the closed list of section 10.3 and each pool has at least
  `goals_in_play` goals with unique ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from typing import Generic, TypeVar

import msgspec

T = TypeVar("T")

EFFECT_KEYS = (
    "lender",
    "double_cycle_coins",
    "worker:camp",
    "worker:village",
    "turn_start_labor",
    "coin_to_labor",
    "harbor",
)
SHARED_EFFECT = "turn_start_labor"
RESOURCES = ("labor", "coin")
CONDITION_TYPES = (
    "non_green_access_at_least",
    "labor_gained_this_turn_at_least",
    "buildings_at_least",
    "coins_at_least",
    "buildings_with_vp_at_least",
)
BUILDING_COUNT = 8
CYCLE_LENGTH = 3
DEFAULT_FILE = "ks2014-v1.json"


class RulesDataError(ValueError):
    """A rules data file failed one of the load-time checks of province.md section 10."""


# --- the file's shape -------------------------------------------------------------------------


class Valued(msgspec.Struct, Generic[T], frozen=True, forbid_unknown_fields=True):
    value: T
    status: str = "assumed"
    source: str = ""


class Exchange(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Grind pays `labor` for `coins`; the Union pays `coins` for `labor` (per unit of count)."""

    labor: int
    coins: int


class _RawBuilding(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    cost_labor: Valued[int]
    cost_coins: Valued[int]
    vp: Valued[int]
    requires: Valued[tuple[str, ...]]
    effect: Valued[str]


class _RawSpace(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    resource: Valued[str]
    next: str


class _RawCycle(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    placement_space: Valued[str]
    spaces: tuple[_RawSpace, ...]


class _RawConstants(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    coin_supply_total: Valued[int]
    start_coins_first: Valued[int]
    start_coins_second: Valued[int]
    tokens_per_player: Valued[int]
    green_workers: Valued[int]
    sailor_tokens: Valued[int]
    sailor_cost: Valued[int]
    grind: Valued[Exchange]
    union: Valued[Exchange]
    lender_repay_cost: Valued[int]
    lender_penalty_vp: Valued[int]
    coins_per_vp: Valued[int]
    goals_in_play: Valued[int]


class Condition(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    type: str
    n: int
    vp: int = 0


class Goal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    vp: int
    condition: Condition


class _RawRulesData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    rules_data_version: str
    buildings: tuple[_RawBuilding, ...]
    work_cycle: _RawCycle
    constants: _RawConstants
    goal_pools: dict[str, tuple[Goal, ...]]


# --- the loaded, checked tables ---------------------------------------------------------------


class Building(msgspec.Struct, frozen=True):
    id: str
    name: str
    cost_labor: int
    cost_coins: int
    vp: int
    requires: tuple[str, ...]
    effect: str


class CycleSpace(msgspec.Struct, frozen=True):
    id: str
    resource: str
    next: str


class RulesData(msgspec.Struct, frozen=True):
    version: str
    buildings: tuple[Building, ...]
    spaces: tuple[CycleSpace, ...]
    placement_space: str
    coin_supply_total: int
    start_coins_first: int
    start_coins_second: int
    tokens_per_player: int
    green_workers: int
    sailor_tokens: int
    sailor_cost: int
    grind: Exchange
    union: Exchange
    lender_repay_cost: int
    lender_penalty_vp: int
    coins_per_vp: int
    goals_in_play: int
    goal_pools: tuple[tuple[str, tuple[Goal, ...]], ...]

    def pool(self, pool_id: str) -> tuple[Goal, ...]:
        return dict(self.goal_pools)[pool_id]


def _fail(check: str, detail: str) -> RulesDataError:
    return RulesDataError(f"rules data check failed [{check}]: {detail}")


def _check_buildings(buildings: tuple[Building, ...]) -> None:
    if len(buildings) != BUILDING_COUNT:
        raise _fail("building_count", f"expected {BUILDING_COUNT} buildings, found {len(buildings)}")
    ids = [b.id for b in buildings]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise _fail("unique_building_ids", f"duplicate building ids {duplicates}")
    known = set(ids)
    for b in buildings:
        if b.effect not in EFFECT_KEYS:
            raise _fail("effect_keys", f"building {b.id!r} has unknown effect key {b.effect!r}")
        unknown = [r for r in b.requires if r not in known]
        if unknown:
            raise _fail("requires_known", f"building {b.id!r} requires unknown buildings {unknown}")
        if min(b.cost_labor, b.cost_coins, b.vp) < 0:
            raise _fail("non_negative", f"building {b.id!r} has a negative cost or VP")
    for effect in EFFECT_KEYS:
        holders = [b.id for b in buildings if b.effect == effect]
        if effect != SHARED_EFFECT and len(holders) > 1:
            raise _fail("single_effect_holder", f"effect {effect!r} is held by several buildings {holders}")
    _check_acyclic({b.id: b.requires for b in buildings})


def _check_acyclic(requires: Mapping[str, tuple[str, ...]]) -> None:
    done: set[str] = set()

    def visit(node: str, path: tuple[str, ...]) -> None:
        if node in path:
            loop = " -> ".join((*path[path.index(node) :], node))
            raise _fail("requires_acyclic", f"prerequisite cycle {loop}")
        if node in done:
            return
        for required in requires[node]:
            visit(required, (*path, node))
        done.add(node)

    for node in requires:
        visit(node, ())


def _check_cycle(spaces: tuple[CycleSpace, ...], placement: str) -> None:
    if len(spaces) != CYCLE_LENGTH:
        raise _fail(
            "cycle_length", f"the work cycle needs exactly {CYCLE_LENGTH} spaces, found {len(spaces)}"
        )
    ids = [s.id for s in spaces]
    if len(set(ids)) != len(ids):
        raise _fail("cycle_unique_ids", f"duplicate space ids {ids}")
    by_id = {s.id: s for s in spaces}
    for s in spaces:
        if s.resource not in RESOURCES:
            raise _fail("cycle_resources", f"space {s.id!r} yields unknown resource {s.resource!r}")
        if s.next not in by_id:
            raise _fail("cycle_loop", f"space {s.id!r} points to unknown space {s.next!r}")
    seen = [ids[0]]
    while (following := by_id[seen[-1]].next) != ids[0]:
        if following in seen:
            raise _fail("cycle_loop", f"the arrows {' -> '.join((*seen, following))} do not form one loop")
        seen.append(following)
    if len(seen) != len(ids):
        raise _fail("cycle_loop", f"the arrows form a loop of {len(seen)} spaces, not {len(ids)}")
    if placement not in by_id:
        raise _fail("placement_space", f"placement space {placement!r} is not on the work cycle")


def _check_goals(pools: Mapping[str, tuple[Goal, ...]], in_play: int) -> None:
    if not pools:
        raise _fail("goal_pools", "no goal pool is defined")
    for pool_id, goals in pools.items():
        ids = [g.id for g in goals]
        if len(set(ids)) != len(ids):
            raise _fail("goal_ids", f"pool {pool_id!r} has duplicate goal ids")
        if len(goals) < in_play:
            raise _fail(
                "goal_pool_size", f"pool {pool_id!r} has {len(goals)} goals, fewer than {in_play} in play"
            )
        for g in goals:
            if g.condition.type not in CONDITION_TYPES:
                raise _fail("condition_types", f"goal {g.id!r} has unknown condition {g.condition.type!r}")


def parse_rules_data(raw_bytes: bytes) -> RulesData:
    """Decode and check a rules data file; raises RulesDataError on any failure."""
    try:
        raw = msgspec.json.decode(raw_bytes, type=_RawRulesData)
    except msgspec.DecodeError as error:
        raise _fail("schema", str(error)) from error
    buildings = tuple(
        Building(
            id=b.id,
            name=b.name,
            cost_labor=b.cost_labor.value,
            cost_coins=b.cost_coins.value,
            vp=b.vp.value,
            requires=b.requires.value,
            effect=b.effect.value,
        )
        for b in raw.buildings
    )
    spaces = tuple(CycleSpace(s.id, s.resource.value, s.next) for s in raw.work_cycle.spaces)
    placement = raw.work_cycle.placement_space.value
    c = raw.constants
    _check_buildings(buildings)
    _check_cycle(spaces, placement)
    _check_goals(raw.goal_pools, c.goals_in_play.value)
    if c.start_coins_first.value + c.start_coins_second.value > c.coin_supply_total.value:
        raise _fail("starting_coins", "the supply cannot pay both players' starting coins")
    return RulesData(
        version=raw.rules_data_version,
        buildings=buildings,
        spaces=spaces,
        placement_space=placement,
        coin_supply_total=c.coin_supply_total.value,
        start_coins_first=c.start_coins_first.value,
        start_coins_second=c.start_coins_second.value,
        tokens_per_player=c.tokens_per_player.value,
        green_workers=c.green_workers.value,
        sailor_tokens=c.sailor_tokens.value,
        sailor_cost=c.sailor_cost.value,
        grind=c.grind.value,
        union=c.union.value,
        lender_repay_cost=c.lender_repay_cost.value,
        lender_penalty_vp=c.lender_penalty_vp.value,
        coins_per_vp=c.coins_per_vp.value,
        goals_in_play=c.goals_in_play.value,
        goal_pools=tuple(raw.goal_pools.items()),
    )


def load_packaged(name: str = DEFAULT_FILE) -> RulesData:
    """Read a rules data file shipped beside this module."""
    return parse_rules_data(resources.files(__package__).joinpath(name).read_bytes())


DATA = load_packaged()
