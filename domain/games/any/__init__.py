"""`any`: the record of a tabletop game Chronicle has no rules engine for. The table declares
its dice, decks, tracks and ending (definition.py); every die and shuffle of a digital game is
drawn by the same `hmac-sha256-v1` randomness as every other game (records 4); the reference is
rules.md beside this file.

Modules: `definition` (the declared components, the shipped examples in definitions/*.toml),
`options`, `state`, `actions`, `events`, `fold` (`evolve`), `rules` (`decide` and friends),
`ending` (how the end ranks), `legal` (the prompt and legal actions), `view`, `describe`,
`notation`, `stats`, `bot` and `picture`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.any import bot, describe, fold, legal, notation, rules, stats, view
from domain.games.any.actions import Action
from domain.games.any.definition import EXAMPLES, definition_data, definition_json, load_toml
from domain.games.any.events import (
    CardPassed,
    CardRevealed,
    CardsDrawn,
    DeckShuffled,
    DiceRolled,
    Fact,
)
from domain.games.any.options import OPTIONS
from domain.games.any.state import State
from domain.ruleset import Boundary, Codec, Rejection, RulesetMeta, register
from domain.ruleset_base import RulesetBase

SEATS = tuple(chr(c) for c in range(ord("A"), ord("T") + 1))
EXAMPLE = "five-dice"

META = RulesetMeta(
    id="any",
    version="1",
    title="Any tabletop game (declared components)",
    seat_ids=SEATS,
    min_players=1,
    max_players=20,
    options=OPTIONS,
    hidden_information=True,
    chance=True,
    spec="any",
)


def _examples() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, text in EXAMPLES.items():
        found = load_toml(text)
        if not isinstance(found, Rejection):
            out[name] = definition_data(found)
    return out


class AnyRuleset(
    RulesetBase[State, Action, Fact], modules=(rules, fold, legal, view, describe, notation, stats, bot)
):
    meta = META
    codec: Codec[Action, Fact] = Codec(Action, Fact)

    def boundary(self, fact: Fact) -> Boundary | None:
        if isinstance(fact, DiceRolled | DeckShuffled | CardsDrawn):
            return "random"
        if isinstance(fact, CardRevealed | CardPassed):
            return "reveal"
        return None

    def setup_choices(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The shipped definitions, for a New game form to offer (plain JSON data each)."""
        return {"definitions": _examples()}

    def example_options(self) -> dict[str, Any]:
        """The options a demonstration game plays with when none are given (`simulate`): the
        five-dice example, with its title."""
        found = load_toml(EXAMPLES[EXAMPLE])
        assert not isinstance(found, Rejection), found
        return {"title": found.title, "definition": definition_json(found)}


RULESET = AnyRuleset()
register(RULESET)
