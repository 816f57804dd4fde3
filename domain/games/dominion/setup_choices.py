"""What a table may choose its Dominion kingdom from, for a New game form (the optional ruleset
hook `setup_choices`, domain/ruleset.py): the recommended kingdoms of the game's sets and base
edition (dominion.md 1.5, `DATA.presets_for`), every kingdom pile it may name (`kingdom=manual`,
dominion-2e.md 1: any of the 32 base cards under either edition, Empires' piles with Empires),
and with Empires its Events and Landmarks (1.8). Each pile carries its cost and types, read from
the card data; a split pile or the Castles are shown as their top card (1.7).

Rulings: a preset's name means the set of the game's edition: a 2nd-edition game is offered its
rulebook's six (`first_game` and `size_distortion` being the 2016 sets of those names), never a
1st-edition set holding a removed card, and the Empires presets with Empires, as `check_config`
and the kingdom prompt rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.dominion.data import DATA

KINGDOM_SIZE = 10


def _set_of(pile: str) -> str:
    """The box a pile comes from: `base` (both editions), `base 1st edition` (dropped by the 2nd),
    `base 2nd edition` (new in it) or `empires`."""
    if pile in DATA.raw.removed_in_2e:
        return "base 1st edition"
    if pile in {c.name for c in DATA.raw.base2}:
        return "base 2nd edition"
    if pile in DATA.empires_piles:
        return "empires"
    return "base"


def _pile(pile: str, random_pool: frozenset[str]) -> dict[str, Any]:
    top = DATA.pile_cards(pile, 2)[0]
    coins, debt = DATA.cost[top]
    return {
        "name": pile,
        "cost": coins,
        "debt": debt,
        "types": sorted(DATA.pile_types[pile]),
        "set": _set_of(pile),
        "random": pile in random_pool,  # whether a random kingdom of this game may draw it
    }


def _landscape(name: str) -> dict[str, Any]:
    if name in DATA.events:
        coins, debt = DATA.events[name]
        return {"name": name, "kind": "Event", "cost": coins, "debt": debt}
    return {"name": name, "kind": "Landmark", "cost": None, "debt": None}  # a Landmark has no cost


def setup_choices(options: Mapping[str, Any]) -> dict[str, Any]:
    """The kingdom choices of a game created with `options` (resolved: every option present)."""
    expansions = str(options.get("expansions", "base"))
    edition = 2 if options.get("base_edition") == 2 else 1
    pool = frozenset(DATA.randomizers(expansions, edition))
    presets = [
        {"name": name, "piles": list(piles), "landscapes": list(DATA.preset_landscapes.get(name, ()))}
        for name, piles in DATA.presets_for(expansions, edition).items()
    ]
    piles = sorted(DATA.nameable(expansions), key=lambda p: (DATA.cost[DATA.pile_cards(p, 2)[0]], p))
    landscapes = [] if expansions == "base" else [_landscape(n) for n in DATA.landscapes]
    return {
        "kingdom": {
            "size": KINGDOM_SIZE,
            "presets": presets,
            "piles": [_pile(p, pool) for p in piles],
            "landscapes": landscapes,
        }
    }
